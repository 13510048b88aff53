import { and, eq } from 'drizzle-orm';
import { PERMIT_MESSAGES as M, type Permit } from '@parkit/contract';
import type { Executor, Tx } from '../db/client.ts';
import { permits, permitTypes } from '../db/schema/index.ts';
import { conflict, notFound } from '../lib/http-error.ts';
import { postEntry } from '../wallet/index.ts';
import { addMonths, permitView, typeColumns } from './permit-service.ts';

// A driver's payment of an approved permit: from the wallet, or by card through the wallet
// (routes/member/Permits: wallet/card-pay.ts charges the card, then payPermit runs; docs/permits.md).

/** The price a card payment of a member's approved permit charges, read before the charge: 404, or 409 as payPermit. */
export async function permitDueCents(db: Executor, memberId: number, permitId: number): Promise<number> {
  const [p] = await db
    .select({ status: permits.status, priceCents: permits.priceCents })
    .from(permits)
    .where(and(eq(permits.id, permitId), eq(permits.memberId, memberId)));
  if (!p) throw notFound(M.permitNotFound);
  if (p.status !== 'approved') throw conflict('Status', M.notApproved);
  return p.priceCents;
}

/**
 * Pays an approved permit from the wallet, inside withIdempotency's transaction (which has locked
 * the wallet first): the permit's row is locked, the ledger debited through postEntry (402 when
 * short), the permit made active from now for the type's months. A second payment is a 409.
 */
export async function payPermit(tx: Tx, memberId: number, permitId: number, key: string): Promise<Permit> {
  const [r] = await tx
    .select({ p: permits, t: { ...typeColumns, validMonths: permitTypes.validMonths } })
    .from(permits)
    .innerJoin(permitTypes, eq(permitTypes.id, permits.typeId))
    .where(and(eq(permits.id, permitId), eq(permits.memberId, memberId)))
    .for('update', { of: permits });
  if (!r) throw notFound(M.permitNotFound);
  if (r.p.status !== 'approved') throw conflict('Status', M.notApproved);
  const posted = await postEntry(tx, {
    memberId,
    amountCents: -r.p.priceCents,
    kind: 'permit',
    reference: `permit:${permitId}`,
    idempotencyKey: key,
  });
  const now = new Date();
  const [row] = await tx
    .update(permits)
    .set({
      status: 'active',
      validFrom: now,
      validUntil: addMonths(now, r.t.validMonths),
      ledgerEntryId: posted.entryId,
      updatedAt: now,
    })
    .where(eq(permits.id, permitId))
    .returning();
  return permitView(row!, r.t, now);
}
