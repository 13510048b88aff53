import { and, eq, like, lt, ne, sql } from 'drizzle-orm';
import { WALLET_MESSAGES } from '@parkit/contract';
import type { Db, Tx } from '../db/client.ts';
import { HttpError, notFound } from '../lib/http-error.ts';
import { members, walletCharges, type WalletChargeKind } from '../db/schema/index.ts';
import { balanceOf, lockWallet, postEntry } from './ledger.ts';
import type { PaymentProvider } from './providers/types.ts';

/** How long a provider key stands for one charge: as long as an Idempotency-Key, and as the provider keeps it. */
const PROVIDER_KEY_TTL_HOURS = 24;

/** A row of wallet_charges: one card movement (a charge, or a Quick Park refund). */
export type WalletCharge = typeof walletCharges.$inferSelect;

/**
 * What recording or releasing a card movement of a kind another domain owns means (Quick Park's
 * charges and refunds: parking/card-payments.ts). The wallet's own kinds are credits (recordCharge).
 */
export interface ChargeHandler {
  /** In the record's transaction, right after markRecorded marked it: what the movement pays for. */
  record(tx: Tx, charge: WalletCharge, chargeRef: string): Promise<unknown>;
  /** In the transaction that removes a charge the provider refused: its claim undone. */
  release(tx: Tx, charge: WalletCharge): Promise<unknown>;
}

/** A refund the provider refused, as its refusal handler sees it. */
export interface RefusedCardRefund {
  id: number;
  memberId: number;
  chargeId: number;
  amountCents: number;
  providerKey: string;
  /** The amount was credited back to the wallet (credit_on_refusal, and the member still there). */
  credited: boolean;
}

/**
 * What a domain does when the provider refuses one of its refunds (a citation's: audited, the
 * payer told), in the transaction that marks the refund failed and credits the wallet, whether the
 * refusal came at the first try (after the request's COMMIT) or at the wallet job's retry.
 * Registered at start-up on ChargeContext's refundRefused by the provider key's first part (the
 * text before its first ':', `citation-refund`); refunds.ts's sendRefunds calls it.
 */
export type RefundRefusedHandler = (tx: Tx, refund: RefusedCardRefund) => Promise<unknown>;

/** What charging a card needs: the database, the provider and the currency it charges in. */
export interface ChargeContext {
  db: Db;
  provider: PaymentProvider;
  currency: string;
  /** The handlers of the kinds other domains own (registered at start-up by the Quick Park plugin). */
  handlers?: Partial<Record<WalletChargeKind, ChargeHandler>>;
  /** What a refused refund does, by its provider key's first part (registered at start-up by citations). */
  refundRefused?: Record<string, RefundRefusedHandler>;
}

const WALLET_KINDS: readonly WalletChargeKind[] = ['top-up', 'auto-reload'];

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
  | {
      ok: true;
      chargeId: number;
      chargeRef: string;
      /** The customer a save_card charge saved the card under (null: none, or the sandbox's). */
      customerRef?: string | null;
    }
  | { ok: false; reason: 'declined' | 'refused' | 'unavailable'; message: string };

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
  const sent = await sendCharge(ctx, row);
  if (!sent.ok) await releaseCharge(ctx, row);
  return sent;
}

/** A card movement to claim in the caller's transaction: the wallet_charges columns but the id, status and record. */
export type NewCharge = Omit<
  typeof walletCharges.$inferInsert,
  'id' | 'status' | 'chargeRef' | 'ledgerEntryId' | 'createdAt' | 'currency'
>;

/**
 * Writes a card movement down as 'pending' in the caller's transaction, under the lock or claim
 * that makes it the only one (Quick Park: the claimed quote, or the stopped session). After COMMIT
 * the caller sends it (sendCharge, outside any transaction) and records it (markRecorded, in a
 * short transaction); recoverCharges does both for one left pending.
 */
export async function claimCharge(tx: Tx, currency: string, c: NewCharge): Promise<WalletCharge> {
  const [row] = await tx
    .insert(walletCharges)
    .values({ ...c, currency })
    .returning();
  if (!row) throw new Error(`wallet charge ${c.providerKey} was not written`);
  return row;
}

/**
 * Sends a pending movement to the provider under its own key, outside any transaction: a charge of
 * the card, or a refund of the charge `providerRef` (quick-park-refund). Changes nothing here: a
 * refusal is for the caller to release (releaseCharge), a success to record.
 */
export async function sendCharge(ctx: ChargeContext, row: WalletCharge): Promise<Charged> {
  if (row.kind === 'quick-park-refund') {
    const refunded = await ctx.provider.refund({
      chargeRef: row.providerRef,
      amountCents: row.amountCents,
      idempotencyKey: row.providerKey,
    });
    return refunded.ok ? { ok: true, chargeId: row.id, chargeRef: refunded.refundRef } : refunded;
  }
  const result = await ctx.provider.charge({
    customerRef: row.customerRef,
    providerRef: row.providerRef,
    amountCents: row.amountCents,
    currency: row.currency,
    description: row.description,
    idempotencyKey: row.providerKey,
    saveCard: row.saveCard,
  });
  if (!result.ok) return result;
  const saved = result.customerRef ? { customerRef: result.customerRef } : {};
  return { ok: true, chargeId: row.id, chargeRef: result.chargeRef, ...saved };
}

/**
 * A movement the provider refused (or could not be reached for, when the caller gives up): the
 * pending row removed and its claim undone (the kind's handler: `release`, or the one registered),
 * in one transaction. Nothing moved, and a retry asks the provider again.
 */
export async function releaseCharge(
  ctx: ChargeContext,
  row: WalletCharge,
  release = ctx.handlers?.[row.kind]?.release,
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    if ((await dropPending(tx, row.id)) && release) await release(tx, row);
  });
}

/** Removes a movement still pending, in the caller's transaction; false when it was recorded or removed before. */
export async function dropPending(tx: Tx, chargeId: number): Promise<boolean> {
  const gone = await tx
    .delete(walletCharges)
    .where(and(eq(walletCharges.id, chargeId), eq(walletCharges.status, 'pending')))
    .returning({ id: walletCharges.id });
  return gone.length > 0;
}

/**
 * Marks a pending movement recorded with the provider's reference (and, for a save_card charge, the
 * customer the provider saved the card under), in the caller's transaction; null when it was
 * recorded before (by the job, or the request): its effect is written once.
 */
export async function markRecorded(
  tx: Tx,
  chargeId: number,
  chargeRef: string,
  customerRef: string | null = null,
): Promise<WalletCharge | null> {
  const [c] = await tx
    .update(walletCharges)
    .set({ status: 'recorded', chargeRef, ...(customerRef ? { customerRef } : {}) })
    .where(and(eq(walletCharges.id, chargeId), eq(walletCharges.status, 'pending')))
    .returning();
  return c ?? null;
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
  const c = await markRecorded(tx, chargeId, chargeRef);
  if (!c) {
    const [done] = await tx.select().from(walletCharges).where(eq(walletCharges.id, chargeId));
    if (!done?.memberId) throw new Error(`wallet charge ${chargeId} vanished`);
    return {
      entryId: done.ledgerEntryId ?? 0,
      balanceCents: await balanceOf(tx, done.memberId),
      amountCents: done.amountCents,
      recordedNow: false,
    };
  }
  if (c.memberId === null || (c.kind !== 'top-up' && c.kind !== 'auto-reload'))
    throw new Error(`wallet charge ${chargeId} is not a credit of a wallet`);
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
 * The wallet job's recovery: every movement still pending after `graceMs` (its request died between
 * the provider's answer and the record) is sent again with its own key, which the provider answers
 * with the first charge or refund (or makes it now if the first never reached it), and recorded:
 * a wallet credit by recordCharge, another kind by its handler. A refusal releases it; an
 * unreachable provider leaves it for the next run; a kind with no handler here is left alone.
 * Returns how many were recorded.
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
  // One movement that cannot be recorded does not hold up the others: its error is thrown after them.
  let failed: unknown = null;
  for (const row of pending) {
    const handler = WALLET_KINDS.includes(row.kind) ? null : ctx.handlers?.[row.kind];
    if (handler === undefined) continue;
    try {
      const charged = await sendCharge(ctx, row);
      if (!charged.ok) {
        if (charged.reason !== 'unavailable') await releaseCharge(ctx, row);
        continue;
      }
      const now = await ctx.db.transaction(async (tx) => {
        if (handler) {
          const c = await markRecorded(tx, row.id, charged.chargeRef, charged.customerRef);
          if (c) await handler.record(tx, c, charged.chargeRef);
          return c !== null;
        }
        if (row.memberId === null) throw new Error(`wallet charge ${row.id} has no member`);
        await lockWallet(tx, row.memberId);
        return (await recordCharge(tx, row.id, charged.chargeRef)).recordedNow;
      });
      if (now) recorded++;
    } catch (err) {
      failed ??= err;
    }
  }
  if (failed) throw failed;
  return recorded;
}
