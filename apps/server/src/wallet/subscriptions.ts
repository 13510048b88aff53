import { and, eq, lte, sql } from 'drizzle-orm';
import { WALLET_MESSAGES } from '@parkit/contract';
import type { Executor, Tx } from '../db/client.ts';
import { members, paymentMethods, plans, subscriptions, walletCharges, walletSettings } from '../db/schema/index.ts';
import { HttpError } from '../lib/http-error.ts';
import { CardError } from './providers/types.ts';
import { languageOr } from '../lib/language.ts';
import { enqueue } from '../infra/outbox-repository.ts';
import type { ReloadContext } from './auto-reload.ts';
import { chargeCard, otherChargePending, recordCharge, type ChargeContext, type Charged } from './charges.ts';
import { lockWallet, postEntry } from './ledger.ts';
import type { Plan } from './plans.ts';
import { planEndedSms } from './sms-texts.ts';

export type Subscription = typeof subscriptions.$inferSelect;

export async function activeSubscription(db: Executor, memberId: number): Promise<Subscription | null> {
  const [s] = await db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.memberId, memberId), eq(subscriptions.status, 'active')));
  return s ?? null;
}

/** The member's default card and provider customer, or 400 'Add a payment card first'. */
export async function defaultCard(db: Executor, memberId: number, paymentMethodId?: number) {
  const [card] = await db
    .select({ card: paymentMethods, customerRef: walletSettings.providerCustomerId })
    .from(paymentMethods)
    .leftJoin(walletSettings, eq(walletSettings.memberId, paymentMethods.memberId))
    .where(
      and(
        eq(paymentMethods.memberId, memberId),
        paymentMethodId === undefined ? eq(paymentMethods.isDefault, true) : eq(paymentMethods.id, paymentMethodId),
      ),
    );
  if (!card) {
    if (paymentMethodId !== undefined) throw new HttpError(404, 'Not found');
    throw new HttpError(400, WALLET_MESSAGES.noCard, [{ field: 'PaymentMethodId', message: WALLET_MESSAGES.noCard }]);
  }
  return card;
}

/** An express payment's one-time card, checked by the provider: a 400 on ExpressToken when it is not one. */
export async function expressCard(ctx: ChargeContext, token: string) {
  try {
    const card = await ctx.provider.readExpress(token);
    return { card, customerRef: null };
  } catch (err) {
    if (err instanceof CardError)
      throw new HttpError(400, err.message, [{ field: 'ExpressToken', message: err.message }]);
    throw err;
  }
}

/** The plan of a Subscribe request, or 400 'Choose a plan from the list'. */
export async function planById(db: Executor, planId: number): Promise<Plan> {
  const [plan] = await db.select().from(plans).where(eq(plans.id, planId));
  if (!plan)
    throw new HttpError(400, WALLET_MESSAGES.planUnknown, [{ field: 'PlanId', message: WALLET_MESSAGES.planUnknown }]);
  return plan;
}

/** 409 when the member is on `plan` already and has not cancelled it; the running subscription, or null. */
async function checkNotOnPlan(db: Executor, memberId: number, plan: Plan): Promise<Subscription | null> {
  const current = await activeSubscription(db, memberId);
  if (current && current.planId === plan.id && !current.cancelAtPeriodEnd) {
    throw new HttpError(409, WALLET_MESSAGES.planAlready, [{ field: 'PlanId', message: WALLET_MESSAGES.planAlready }]);
  }
  return current;
}

/**
 * Subscribe, first half, outside any transaction: charges the plan's first month to the default
 * card, or to an express payment's one-time card (`expressToken`: never saved; the renewals come
 * from the default card, and without one the plan ends at its period's end), under the provider
 * key `subscribe:<member>:<Idempotency-Key>`. Null when nothing is to be charged (the member
 * cancelled this plan and it still runs: subscribing again just keeps it).
 */
export async function chargeSubscription(
  ctx: ChargeContext,
  memberId: number,
  plan: Plan,
  key: string,
  keyExpired = false,
  expressToken?: string,
): Promise<{ chargeId: number; chargeRef: string } | null> {
  if (plan.priceCents === 0)
    throw new HttpError(400, WALLET_MESSAGES.planFree, [{ field: 'PlanId', message: WALLET_MESSAGES.planFree }]);
  const { card, customerRef } = expressToken
    ? await expressCard(ctx, expressToken)
    : await defaultCard(ctx.db, memberId);
  const providerKey = `subscribe:${memberId}:${key}`;
  const charge = {
    memberId,
    providerKey,
    kind: 'top-up' as const,
    amountCents: plan.priceCents,
    description: `ParkIt ${plan.name} plan`,
    providerRef: card.providerRef,
    customerRef,
    idempotencyKey: key,
  };
  // Decided under the wallet lock: another Subscribe of this member charged and not yet recorded
  // is a 409, so concurrent requests with different keys never charge the card twice.
  const keep = await ctx.db.transaction(async (tx) => {
    await lockWallet(tx, memberId);
    const current = await checkNotOnPlan(tx, memberId, plan);
    if (current && current.planId === plan.id) return true;
    if (await otherChargePending(tx, memberId, providerKey, { keyPrefix: 'subscribe:' }))
      throw new HttpError(409, WALLET_MESSAGES.walletBusy);
    // Written down under the lock (chargeCard finds it), so the next request sees it.
    await tx
      .insert(walletCharges)
      .values({ ...charge, currency: ctx.currency })
      .onConflictDoNothing({ target: walletCharges.providerKey });
    return false;
  });
  if (keep) return null;
  const charged = await chargeCard(ctx, charge, { keyExpired });
  if (!charged.ok)
    throw new HttpError(charged.reason === 'declined' ? 402 : 503, charged.message, [
      { field: 'PaymentMethodId', message: charged.message },
    ]);
  return charged;
}

/**
 * Subscribe, second half, in the Idempotency-Key's transaction (which holds the wallet lock): the
 * card payment written to the ledger as a top-up and the plan bought from the wallet beside it, so
 * the history shows it and the balance is unchanged; the subscription starts. A change of plan
 * ends the running one.
 */
export async function subscribe(
  tx: Tx,
  memberId: number,
  plan: Plan,
  key: string,
  charged: { chargeId: number; chargeRef: string } | null,
): Promise<Subscription> {
  const current = await checkNotOnPlan(tx, memberId, plan);
  if (current && current.planId === plan.id) {
    // Cancelled but still running: subscribing again just keeps it.
    const [kept] = await tx
      .update(subscriptions)
      .set({ cancelAtPeriodEnd: false })
      .where(eq(subscriptions.id, current.id))
      .returning();
    return kept ?? current;
  }
  // The plan changed between the two halves (a concurrent request): charged, it is credited by the job (charges.ts).
  if (!charged) throw new HttpError(409, WALLET_MESSAGES.walletBusy);
  await recordCharge(tx, charged.chargeId, charged.chargeRef);
  if (current) {
    await tx
      .update(subscriptions)
      .set({ status: 'ended', endedAt: sql`now()` })
      .where(eq(subscriptions.id, current.id));
  }
  const [sub] = await tx
    .insert(subscriptions)
    .values({
      memberId,
      planId: plan.id,
      status: 'active',
      currentPeriodStart: sql`now()` as unknown as Date,
      currentPeriodEnd: sql`now() + interval '1 month'` as unknown as Date,
    })
    .returning();
  if (!sub) throw new Error('subscription insert returned no row');
  await postEntry(tx, {
    memberId,
    amountCents: -plan.priceCents,
    kind: 'plan',
    reference: `subscription:${sub.id}`,
    idempotencyKey: key,
  });
  return sub;
}

/** Cancel at period end: the plan runs until CurrentPeriodEnd, then the member is on Basic. */
export async function cancelAtPeriodEnd(db: Executor, memberId: number): Promise<Subscription> {
  const [s] = await db
    .update(subscriptions)
    .set({ cancelAtPeriodEnd: true })
    .where(and(eq(subscriptions.memberId, memberId), eq(subscriptions.status, 'active')))
    .returning();
  if (!s) throw new HttpError(400, WALLET_MESSAGES.noSubscription);
  return s;
}

/**
 * The monthly job: every active subscription whose period has ended is ended (cancelled, or the
 * card declined: the member is told) or renewed for a month. The card is charged outside any
 * transaction with the key renew:<id>:<end>; the renewal is recorded in a transaction that locks the
 * member's wallet first and the subscription's period after, so replicas that run the job at once
 * charge one key, record its credit once and renew once.
 */
export async function runSubscriptionJobs(ctx: ReloadContext, limit = 50): Promise<number> {
  const due = await ctx.db
    // The period's end as text too: timestamptz holds microseconds, a Date only milliseconds.
    .select({ sub: subscriptions, plan: plans, endText: sql<string>`${subscriptions.currentPeriodEnd}::text` })
    .from(subscriptions)
    .innerJoin(plans, eq(plans.id, subscriptions.planId))
    .where(and(eq(subscriptions.status, 'active'), lte(subscriptions.currentPeriodEnd, sql`now()`)))
    .orderBy(subscriptions.id)
    .limit(limit);
  let handled = 0;
  for (const { sub, plan, endText } of due) {
    let charged: Charged | null = null;
    if (!sub.cancelAtPeriodEnd) {
      try {
        const { card, customerRef } = await defaultCard(ctx.db, sub.memberId);
        charged = await chargeCard(ctx, {
          memberId: sub.memberId,
          providerKey: `renew:${sub.id}:${sub.currentPeriodEnd.getTime()}`,
          kind: 'top-up',
          amountCents: plan.priceCents,
          description: `ParkIt ${plan.name} plan renewal`,
          providerRef: card.providerRef,
          customerRef,
          idempotencyKey: null,
        });
      } catch (err) {
        if (!(err instanceof HttpError)) throw err;
        charged = { ok: false, reason: 'declined', message: err.message };
      }
      if (!charged.ok && charged.reason === 'unavailable') break;
    }
    const done = await ctx.db.transaction(async (tx) => {
      await lockWallet(tx, sub.memberId);
      if (charged?.ok) await recordCharge(tx, charged.chargeId, charged.chargeRef);
      const [still] = await tx
        .select({ id: subscriptions.id })
        .from(subscriptions)
        .where(
          and(
            eq(subscriptions.id, sub.id),
            eq(subscriptions.status, 'active'),
            sql`${subscriptions.currentPeriodEnd} = ${endText}::timestamptz`,
          ),
        )
        .for('update');
      if (!still) return false;
      const end = () =>
        tx
          .update(subscriptions)
          .set({ status: 'ended', endedAt: sql`now()` })
          .where(eq(subscriptions.id, sub.id));
      if (!charged) {
        await end();
        return true;
      }
      if (!charged.ok) {
        await end();
        const [m] = await tx
          .select({ phone: members.phone, language: members.language })
          .from(members)
          .where(eq(members.id, sub.memberId));
        if (m) await enqueue(tx, 'sms', m.phone, planEndedSms(plan.name, charged.message)[languageOr(m.language)]);
        return true;
      }
      await tx
        .update(subscriptions)
        .set({
          currentPeriodStart: sub.currentPeriodEnd,
          currentPeriodEnd: sql`${subscriptions.currentPeriodEnd} + interval '1 month'` as unknown as Date,
        })
        .where(eq(subscriptions.id, sub.id));
      await postEntry(tx, {
        memberId: sub.memberId,
        amountCents: -plan.priceCents,
        kind: 'plan',
        reference: `subscription:${sub.id}:renewal`,
      });
      return true;
    });
    if (done) handled++;
  }
  return handled;
}
