import { and, eq, lte, sql } from 'drizzle-orm';
import { WALLET_MESSAGES } from '@parkit/contract';
import type { Executor, Tx } from '../db/client.ts';
import { members, paymentMethods, plans, subscriptions, walletSettings } from '../db/schema/index.ts';
import { HttpError } from '../lib/http-error.ts';
import { enqueue } from '../infra/outbox-repository.ts';
import type { ReloadContext } from './auto-reload.ts';
import { postEntry } from './ledger.ts';
import type { Plan } from './plans.ts';

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

/**
 * Charges the plan's first month to the default card and starts the subscription, inside the
 * caller's (idempotent) transaction. The card payment is written to the wallet's ledger as a
 * top-up and the plan purchase beside it, so the history shows it and the balance is unchanged.
 */
export async function subscribe(ctx: ReloadContext, tx: Tx, memberId: number, plan: Plan, key: string): Promise<Subscription> {
  if (plan.priceCents === 0) throw new HttpError(400, WALLET_MESSAGES.planFree, [{ field: 'PlanId', message: WALLET_MESSAGES.planFree }]);
  // Locks the member: two different keys subscribing at once queue here.
  await tx.select({ id: members.id }).from(members).where(eq(members.id, memberId)).for('update');
  const current = await activeSubscription(tx, memberId);
  if (current && current.planId === plan.id && !current.cancelAtPeriodEnd) {
    throw new HttpError(409, WALLET_MESSAGES.planAlready, [{ field: 'PlanId', message: WALLET_MESSAGES.planAlready }]);
  }
  if (current && current.planId === plan.id) {
    // Cancelled but still running: subscribing again just keeps it.
    const [kept] = await tx.update(subscriptions).set({ cancelAtPeriodEnd: false }).where(eq(subscriptions.id, current.id)).returning();
    return kept ?? current;
  }
  const { card, customerRef } = await defaultCard(tx, memberId);
  const result = await ctx.provider.charge({
    customerRef,
    providerRef: card.providerRef,
    amountCents: plan.priceCents,
    currency: ctx.currency,
    description: `ParkIt ${plan.name} plan`,
    idempotencyKey: `subscribe:${memberId}:${key}`,
  });
  if (!result.ok) throw new HttpError(result.reason === 'declined' ? 402 : 503, result.message, [{ field: 'PaymentMethodId', message: result.message }]);
  if (current) {
    await tx.update(subscriptions).set({ status: 'ended', endedAt: sql`now()` }).where(eq(subscriptions.id, current.id));
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
  await postEntry(tx, { memberId, amountCents: plan.priceCents, kind: 'top-up', reference: `charge:${result.chargeRef}`, idempotencyKey: key });
  await postEntry(tx, { memberId, amountCents: -plan.priceCents, kind: 'plan', reference: `subscription:${sub.id}`, idempotencyKey: key });
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
 * The monthly job: every active subscription whose period has ended is claimed with
 * FOR UPDATE SKIP LOCKED (replicas never renew one twice), then ended (cancelled, or the card
 * declined: the member is told) or renewed for a month (charged with the key renew:<id>:<end>).
 */
export async function runSubscriptionJobs(ctx: ReloadContext, limit = 50): Promise<number> {
  let handled = 0;
  for (let i = 0; i < limit; i++) {
    const done = await ctx.db.transaction(async (tx) => {
      const [row] = await tx
        .select({ sub: subscriptions, plan: plans })
        .from(subscriptions)
        .innerJoin(plans, eq(plans.id, subscriptions.planId))
        .where(and(eq(subscriptions.status, 'active'), lte(subscriptions.currentPeriodEnd, sql`now()`)))
        .limit(1)
        .for('update', { of: subscriptions, skipLocked: true });
      if (!row) return false;
      const { sub, plan } = row;
      const end = async () => tx.update(subscriptions).set({ status: 'ended', endedAt: sql`now()` }).where(eq(subscriptions.id, sub.id));
      if (sub.cancelAtPeriodEnd) {
        await end();
        return true;
      }
      const [m] = await tx.select({ phone: members.phone }).from(members).where(eq(members.id, sub.memberId));
      let charged: { ok: true; chargeRef: string } | { ok: false; message: string; reason: string };
      try {
        const { card, customerRef } = await defaultCard(tx, sub.memberId);
        charged = await ctx.provider.charge({
          customerRef,
          providerRef: card.providerRef,
          amountCents: plan.priceCents,
          currency: ctx.currency,
          description: `ParkIt ${plan.name} plan renewal`,
          idempotencyKey: `renew:${sub.id}:${sub.currentPeriodEnd.getTime()}`,
        });
      } catch (err) {
        if (!(err instanceof HttpError)) throw err;
        charged = { ok: false, reason: 'declined', message: err.message };
      }
      if (!charged.ok && charged.reason === 'unavailable') return false;
      if (!charged.ok) {
        await end();
        if (m) await enqueue(tx, 'sms', m.phone, `ParkIt: your ${plan.name} plan has ended because the renewal payment failed. ${charged.message}`);
        return true;
      }
      await tx
        .update(subscriptions)
        .set({ currentPeriodStart: sub.currentPeriodEnd, currentPeriodEnd: sql`${subscriptions.currentPeriodEnd} + interval '1 month'` as unknown as Date })
        .where(eq(subscriptions.id, sub.id));
      await postEntry(tx, { memberId: sub.memberId, amountCents: plan.priceCents, kind: 'top-up', reference: `charge:${charged.chargeRef}` });
      await postEntry(tx, { memberId: sub.memberId, amountCents: -plan.priceCents, kind: 'plan', reference: `subscription:${sub.id}:renewal` });
      return true;
    });
    if (!done) break;
    handled++;
  }
  return handled;
}
