import { and, eq, like, lt, ne, sql } from 'drizzle-orm';
import { WALLET_MESSAGES } from '@parkit/contract';
import type { Db, Tx } from '../db/client.ts';
import { HttpError, notFound } from '../lib/http-error.ts';
import { members, walletCharges } from '../db/schema/index.ts';
import { balanceOf, lockWallet, postEntry } from './ledger.ts';
import type { PaymentProvider } from './providers/types.ts';

/** How long a provider key stands for one charge: as long as an Idempotency-Key, and as the provider keeps it. */
const PROVIDER_KEY_TTL_HOURS = 24;

/** What charging a card needs: the database, the provider and the currency it charges in. */
export interface ChargeContext {
  db: Db;
  provider: PaymentProvider;
  currency: string;
}

/** A card charge that credits the wallet. */
export interface CardCharge {
  memberId: number;
  /** The provider's idempotency key, derived from the request's Idempotency-Key (or the job's own key). */
  providerKey: string;
  kind: 'top-up' | 'auto-reload';
  amountCents: number;
  description: string;
  /** The card (sandbox token or Stripe pm_…) and the provider's customer. */
  providerRef: string;
  customerRef: string | null;
  /** The request's Idempotency-Key, written on the ledger entry; null for a job. */
  idempotencyKey: string | null;
}

export type Charged =
  | { ok: true; chargeId: number; chargeRef: string }
  | { ok: false; reason: 'declined' | 'unavailable'; message: string };

/**
 * Under the member's wallet lock (lockWallet): whether another charge of theirs, of the same kind
 * (an auto-reload, or a provider key starting with `keyPrefix`), is still pending, other than `providerKey` itself. A payment
 * that finds one waits for it or answers 409, so two requests never charge the card for one need.
 */
export async function otherChargePending(
  tx: Tx,
  memberId: number,
  providerKey: string,
  of: { kind: 'auto-reload' } | { keyPrefix: string },
): Promise<boolean> {
  const [other] = await tx
    .select({ id: walletCharges.id })
    .from(walletCharges)
    .where(
      and(
        eq(walletCharges.memberId, memberId),
        eq(walletCharges.status, 'pending'),
        'kind' in of ? eq(walletCharges.kind, of.kind) : like(walletCharges.providerKey, `${of.keyPrefix}%`),
        ne(walletCharges.providerKey, providerKey),
      ),
    )
    .limit(1);
  return other !== undefined;
}

/**
 * Charges a card outside any database transaction (no row lock is held during the provider's
 * call), once per `providerKey`: the charge is written down as 'pending' first, then the provider
 * is called with that key, then the caller records the credit with recordCharge in its own
 * transaction. A charge already recorded is not sent again. When the process dies between the
 * provider's answer and the record, the pending row stays and recoverCharges (the wallet job)
 * charges it again with the same key, which the provider answers with the first charge, and records
 * it. A refusal removes the pending row: nothing was charged, and a retry asks the provider again.
 */
export async function chargeCard(
  ctx: ChargeContext,
  c: CardCharge,
  opts: { keyExpired?: boolean } = {},
): Promise<Charged> {
  // A key recorded more than a day ago is new again, as an Idempotency-Key is (idempotency.ts) and
  // as the provider forgets it, and so is one whose request's Idempotency-Key has expired
  // (`keyExpired`): the old row keeps its history under another name.
  await ctx.db
    .update(walletCharges)
    .set({ providerKey: sql`${walletCharges.providerKey} || '#' || ${walletCharges.id}` })
    .where(
      and(
        eq(walletCharges.providerKey, c.providerKey),
        eq(walletCharges.status, 'recorded'),
        opts.keyExpired
          ? undefined
          : lt(walletCharges.createdAt, sql`now() - make_interval(hours => ${PROVIDER_KEY_TTL_HOURS})`),
      ),
    );
  // The pending row is written under a share lock of the member's row, which the deletion of the
  // account (privacy/) holds exclusively while it refunds the balance: a charge either is pending
  // before the deletion looks (which then waits for it), or finds the account deleted and charges nothing.
  const open = await ctx.db.transaction(async (tx) => {
    const [m] = await tx
      .select({ deletedAt: members.deletedAt })
      .from(members)
      .where(eq(members.id, c.memberId))
      .for('share');
    if (!m || m.deletedAt) return false;
    await tx
      .insert(walletCharges)
      .values({ ...c, currency: ctx.currency })
      .onConflictDoNothing({ target: walletCharges.providerKey });
    return true;
  });
  if (!open) throw notFound();
  const [row] = await ctx.db.select().from(walletCharges).where(eq(walletCharges.providerKey, c.providerKey));
  if (!row) throw new Error(`wallet charge ${c.providerKey} vanished`);
  if (row.memberId !== c.memberId || row.amountCents !== c.amountCents || row.providerRef !== c.providerRef) {
    throw new HttpError(422, WALLET_MESSAGES.idempotencyKeyReused, [
      { field: 'Idempotency-Key', message: WALLET_MESSAGES.idempotencyKeyReused },
    ]);
  }
  if (row.status === 'recorded' && row.chargeRef) return { ok: true, chargeId: row.id, chargeRef: row.chargeRef };
  return sendCharge(ctx, row);
}

/** Sends the pending charge to the provider; a refusal removes it (`keepIfUnavailable`: not when the provider could not be reached). */
async function sendCharge(
  ctx: ChargeContext,
  row: typeof walletCharges.$inferSelect,
  keepIfUnavailable = false,
): Promise<Charged> {
  const result = await ctx.provider.charge({
    customerRef: row.customerRef,
    providerRef: row.providerRef,
    amountCents: row.amountCents,
    currency: row.currency,
    description: row.description,
    idempotencyKey: row.providerKey,
  });
  if (!result.ok) {
    if (keepIfUnavailable && result.reason === 'unavailable') return result;
    await ctx.db.delete(walletCharges).where(and(eq(walletCharges.id, row.id), eq(walletCharges.status, 'pending')));
    return result;
  }
  return { ok: true, chargeId: row.id, chargeRef: result.chargeRef };
}

export interface RecordedCharge {
  entryId: number;
  balanceCents: number;
  amountCents: number;
  /** False when the charge had been recorded before (by the job, or a concurrent retry). */
  recordedNow: boolean;
}

/**
 * Records a charge of chargeCard as the wallet's credit ('charge:<ref>' in the ledger), once, in
 * the caller's transaction, which holds the member's wallet lock (lockWallet or the
 * Idempotency-Key's claim).
 */
export async function recordCharge(tx: Tx, chargeId: number, chargeRef: string): Promise<RecordedCharge> {
  const [c] = await tx
    .update(walletCharges)
    .set({ status: 'recorded', chargeRef })
    .where(and(eq(walletCharges.id, chargeId), eq(walletCharges.status, 'pending')))
    .returning();
  if (!c) {
    const [done] = await tx.select().from(walletCharges).where(eq(walletCharges.id, chargeId));
    if (!done) throw new Error(`wallet charge ${chargeId} vanished`);
    return {
      entryId: done.ledgerEntryId ?? 0,
      balanceCents: await balanceOf(tx, done.memberId),
      amountCents: done.amountCents,
      recordedNow: false,
    };
  }
  const posted = await postEntry(tx, {
    memberId: c.memberId,
    amountCents: c.amountCents,
    kind: c.kind,
    reference: `charge:${chargeRef}`,
    idempotencyKey: c.idempotencyKey,
  });
  await tx.update(walletCharges).set({ ledgerEntryId: posted.entryId }).where(eq(walletCharges.id, c.id));
  return { entryId: posted.entryId, balanceCents: posted.balanceCents, amountCents: c.amountCents, recordedNow: true };
}

/**
 * The wallet job's recovery: every charge still pending after `graceMs` (its request died between
 * the provider's answer and the record) is sent again with its own key, which the provider answers
 * with the first charge (or charges now if the first never reached it), and recorded. Returns how
 * many were recorded.
 */
export async function recoverCharges(ctx: ChargeContext, graceMs = 60_000, limit = 50): Promise<number> {
  const pending = await ctx.db
    .select()
    .from(walletCharges)
    .where(
      and(
        eq(walletCharges.status, 'pending'),
        lt(walletCharges.createdAt, sql`now() - make_interval(secs => ${graceMs / 1000})`),
      ),
    )
    .orderBy(walletCharges.id)
    .limit(limit);
  let recorded = 0;
  for (const row of pending) {
    const charged = await sendCharge(ctx, row, true);
    if (!charged.ok) continue;
    const done = await ctx.db.transaction(async (tx) => {
      await lockWallet(tx, row.memberId);
      return recordCharge(tx, row.id, charged.chargeRef);
    });
    if (done.recordedNow) recorded++;
  }
  return recorded;
}
