import { and, eq, isNotNull, sql, type SQL } from 'drizzle-orm';
import { centsToAmount, formatMoney } from '@parkit/contract';
import type { Executor, Tx } from '../db/client.ts';
import { members, paymentMethods, walletCharges, walletSettings } from '../db/schema/index.ts';
import { HttpError } from '../lib/http-error.ts';
import { languageOr } from '../lib/language.ts';
import { enqueue } from '../infra/outbox-repository.ts';
import { chargeCard, otherChargePending, recordCharge, type ChargeContext, type RecordedCharge } from './charges.ts';
import { balanceOf, InsufficientFundsError, lockWallet } from './ledger.ts';
import { reloadDeclinedSms, reloadedSms } from './sms-texts.ts';

export interface ReloadContext extends ChargeContext {
  currencySymbol: string;
}

export type ReloadOutcome = 'reloaded' | 'declined' | 'skipped' | 'unavailable' | 'busy';

const RELOAD_DESCRIPTION = 'ParkIt wallet auto-reload';
/** How long a payment waits for another request's auto-reload to be recorded: 50 rounds of 20 ms. */
const COVER_WAIT_ROUNDS = 50;
const COVER_WAIT_MS = 20;

/**
 * The member's auto-reload: Default Add Amount and the default card, or no row when it is off or
 * no default card exists. As a builder, the member's id a value or SQL of the statement it is part
 * of (autoReloadCentsSql).
 */
function reloadTermsQuery(db: Executor, memberId: number | SQL) {
  return db
    .select({
      amountCents: walletSettings.defaultAddAmountCents,
      customerRef: walletSettings.providerCustomerId,
      providerRef: paymentMethods.providerRef,
      brand: paymentMethods.brand,
      last4: paymentMethods.last4,
      phone: members.phone,
      language: members.language,
    })
    .from(walletSettings)
    .innerJoin(
      paymentMethods,
      and(eq(paymentMethods.memberId, walletSettings.memberId), eq(paymentMethods.isDefault, true)),
    )
    .innerJoin(members, eq(members.id, walletSettings.memberId))
    .where(and(eq(walletSettings.memberId, memberId), eq(walletSettings.autoReload, true)))
    .limit(1);
}

async function reloadTerms(db: Executor, memberId: number) {
  const [row] = await reloadTermsQuery(db, memberId);
  return row ?? null;
}

/** What the member's auto-reload would add now: Default Add Amount, or 0 when it is off or no default card exists. */
export async function autoReloadCents(db: Executor, memberId: number): Promise<number> {
  return (await reloadTerms(db, memberId))?.amountCents ?? 0;
}

/** autoReloadCents as SQL, the member's id as SQL (parking's one-statement quote embeds it). */
export function autoReloadCentsSql(db: Executor, memberId: SQL): SQL {
  return sql`coalesce((select r.default_add_amount_cents from (${reloadTermsQuery(db, memberId)}) r), 0)`;
}

/** An auto-reload charged to the card and not yet recorded, with what the member's text names. */
export interface ReloadCharge {
  chargeId: number;
  chargeRef: string;
  amountCents: number;
  brand: string;
  last4: string;
  phone: string;
  /** The member's saved language: the SMS is written in it. */
  language: string;
}

/**
 * The one auto-reload charge (the due reload and the reload covering a payment), first half:
 * Default Add Amount charged to the default card outside any transaction under `providerKey`.
 */
async function chargeReload(
  ctx: ReloadContext,
  memberId: number,
  terms: NonNullable<Awaited<ReturnType<typeof reloadTerms>>>,
  providerKey: string,
) {
  const charged = await chargeCard(ctx, {
    memberId,
    providerKey,
    kind: 'auto-reload',
    amountCents: terms.amountCents,
    description: RELOAD_DESCRIPTION,
    providerRef: terms.providerRef,
    customerRef: terms.customerRef,
    idempotencyKey: null,
  });
  if (!charged.ok) return charged;
  const reload: ReloadCharge = {
    ...charged,
    amountCents: terms.amountCents,
    brand: terms.brand,
    last4: terms.last4,
    phone: terms.phone,
    language: terms.language,
  };
  return { ok: true as const, reload };
}

/**
 * The one auto-reload charge, second half, in the caller's transaction (which holds the wallet
 * lock): credited as an 'auto-reload' entry, once, and told to the member.
 */
export async function recordReload(
  tx: Tx,
  ctx: Pick<ReloadContext, 'currencySymbol'>,
  reload: ReloadCharge,
): Promise<RecordedCharge> {
  const recorded = await recordCharge(tx, reload.chargeId, reload.chargeRef);
  if (recorded.recordedNow) {
    await enqueue(
      tx,
      'sms',
      reload.phone,
      reloadedSms(
        `${ctx.currencySymbol}${formatMoney(centsToAmount(reload.amountCents))}`,
        `${reload.brand} •••• ${reload.last4}`,
        `${ctx.currencySymbol}${formatMoney(centsToAmount(recorded.balanceCents))}`,
      )[languageOr(reload.language)],
    );
  }
  return recorded;
}

/**
 * Runs the member's due auto-reload (marked by post_ledger_entry), once. The card is charged with
 * the idempotency key `reload:<member>:<due time>` outside any transaction; the credit and the
 * clearing of that mark are one transaction, so a concurrent caller, another replica or a retry
 * after a crash charges the same key and records nothing twice ('busy' once the mark is gone).
 * A decline switches auto-reload off and tells the member (outbox); 'unavailable' leaves the mark
 * for the next job run.
 */
export async function runDueReload(ctx: ReloadContext, memberId: number): Promise<ReloadOutcome> {
  const [due] = await ctx.db
    // The mark as text too: timestamptz holds microseconds, a Date only milliseconds.
    .select({ dueAt: walletSettings.reloadDueAt, dueText: sql<string>`${walletSettings.reloadDueAt}::text` })
    .from(walletSettings)
    .where(and(eq(walletSettings.memberId, memberId), isNotNull(walletSettings.reloadDueAt)));
  if (!due?.dueAt) return 'busy';
  const dueAt = due.dueAt;
  const dueText = due.dueText;
  // Clears this mark only (a later debit may have marked a new one after it was cleared).
  const clear = (tx: Tx, changes: { autoReload?: boolean } = {}) =>
    tx
      .update(walletSettings)
      .set({ ...changes, reloadDueAt: null, updatedAt: sql`now()` })
      .where(and(eq(walletSettings.memberId, memberId), sql`${walletSettings.reloadDueAt} = ${dueText}::timestamptz`))
      .returning({ memberId: walletSettings.memberId });
  const [terms, m] = await Promise.all([
    reloadTerms(ctx.db, memberId),
    ctx.db
      .select({ balance: members.balanceCents, trigger: members.minBalanceCents })
      .from(members)
      .where(eq(members.id, memberId)),
  ]);
  const member = m[0];
  if (!terms || !member || member.balance >= member.trigger) {
    const cleared = await ctx.db.transaction(
      async (tx) => (await lockWallet(tx, memberId)) && (await clear(tx)).length > 0,
    );
    return cleared ? 'skipped' : 'busy';
  }
  const result = await chargeReload(ctx, memberId, terms, `reload:${memberId}:${dueAt.getTime()}`);
  if (!result.ok && result.reason === 'unavailable') return 'unavailable';
  if (!result.ok) {
    const declined = await ctx.db.transaction(async (tx) => {
      await lockWallet(tx, memberId);
      if ((await clear(tx, { autoReload: false })).length === 0) return false;
      await enqueue(tx, 'sms', terms.phone, reloadDeclinedSms(result.message)[languageOr(terms.language)]);
      return true;
    });
    return declined ? 'declined' : 'busy';
  }
  const cleared = await ctx.db.transaction(async (tx) => {
    await lockWallet(tx, memberId);
    await recordReload(tx, ctx, result.reload);
    return (await clear(tx)).length > 0;
  });
  return cleared ? 'reloaded' : 'busy';
}

/** The job: every member whose reload is due, a few at a time. */
export async function runAllDueReloads(ctx: ReloadContext, limit = 50): Promise<number> {
  const due = await ctx.db
    .select({ memberId: walletSettings.memberId })
    .from(walletSettings)
    .where(isNotNull(walletSettings.reloadDueAt))
    .limit(limit);
  let done = 0;
  for (const d of due) if ((await runDueReload(ctx, d.memberId)) === 'reloaded') done++;
  return done;
}

/**
 * Auto-reload covering a payment: when a debit of `neededCents` found the balance short
 * and Default Add Amount covers it, charges that to the default card (outside any transaction, the
 * provider's key `reload-cover:<member>:<coverKey>`, so a retried request never charges the card
 * twice for one payment) and credits it. The decision is taken under the wallet lock and counts a
 * reload another request has charged and not yet recorded: that one is waited for (briefly), so
 * concurrent payments of one member reload only when the balance is short after the ones before,
 * across replicas too. The charge is recorded by the payment's own transaction (withReloadCover), so
 * no other payment spends it first. Answers the charge to record; true when the balance covers the
 * payment now without one; false when auto-reload cannot cover (the payment then answers the usual
 * 402). A declined card is a 402 with its message.
 */
export async function reloadToCover(
  ctx: ReloadContext,
  memberId: number,
  neededCents: number,
  coverKey: string,
): Promise<ReloadCharge | boolean> {
  const providerKey = `reload-cover:${memberId}:${coverKey}`;
  for (let round = 0; round < COVER_WAIT_ROUNDS; round++) {
    const step = await ctx.db.transaction(async (tx) => {
      await lockWallet(tx, memberId);
      const terms = await reloadTerms(tx, memberId);
      if (!terms) return 'cannot' as const;
      const balance = await balanceOf(tx, memberId);
      if (balance >= neededCents) return 'covered' as const;
      if (await otherChargePending(tx, memberId, providerKey, { kind: 'auto-reload' })) return 'wait' as const;
      if (balance + terms.amountCents < neededCents) return 'cannot' as const;
      // Written down under the lock: the next payment of this member sees it coming.
      await tx
        .insert(walletCharges)
        .values({
          memberId,
          providerKey,
          kind: 'auto-reload',
          amountCents: terms.amountCents,
          currency: ctx.currency,
          description: RELOAD_DESCRIPTION,
          providerRef: terms.providerRef,
          customerRef: terms.customerRef,
          idempotencyKey: null,
        })
        .onConflictDoNothing({ target: walletCharges.providerKey });
      return terms;
    });
    if (step === 'cannot') return false;
    if (step === 'covered') return true;
    if (step === 'wait') {
      await new Promise((resolve) => setTimeout(resolve, COVER_WAIT_MS));
      continue;
    }
    const result = await chargeReload(ctx, memberId, step, providerKey);
    if (!result.ok) throw new HttpError(402, result.message, [{ field: 'Balance', message: result.message }]);
    return result.reload;
  }
  return false;
}

/** How often a payment is run again after auto-reload covered it (other payments of the member may spend the balance in between). */
const COVER_ROUNDS = 5;

/**
 * Runs `pay` (a whole money transaction); when it fails with the wallet's 402 for a payment that
 * names a cover key (a member's Start, Extend or Amend), auto-reload covers the shortfall outside
 * the transaction and `pay` runs again with the reload to record first, in its own transaction.
 * Any other failure, or one auto-reload cannot cover, is thrown as it was.
 */
export async function withReloadCover<T>(
  ctx: ReloadContext,
  memberId: number,
  pay: (record?: (tx: Tx) => Promise<unknown>) => Promise<T>,
): Promise<T> {
  let record: ((tx: Tx) => Promise<unknown>) | undefined;
  for (let round = 0; ; round++) {
    try {
      return await pay(record);
    } catch (err) {
      if (!(err instanceof InsufficientFundsError) || err.coverKey === null || round >= COVER_ROUNDS) throw err;
      const cover = await reloadToCover(ctx, memberId, err.requiredCents, err.coverKey);
      if (cover === false) throw err;
      record = cover === true ? undefined : (tx) => recordReload(tx, ctx, cover);
    }
  }
}
