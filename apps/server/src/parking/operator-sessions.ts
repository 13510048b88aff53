import { and, desc, eq, lt, sql } from 'drizzle-orm';
import {
  centsToAmount,
  OPERATOR_SESSION_MESSAGES as M,
  type OperatorSession,
  type OperatorSessionDetail,
  type OperatorSessionPage,
  type RefundResponse,
} from '@parkit/contract';
import type { Executor } from '../db/client.ts';
import { operators, parkingSessions, sessionRefunds, zones } from '../db/schema/index.ts';
import { audit, type Actor } from '../infra/audit-log.ts';
import { HttpError } from '../lib/http-error.ts';
import { forgetKey, lockWallet, withIdempotency, type ChargeContext, type WalletCharge } from '../wallet/index.ts';
import { claimRefunds, releaseRefunds, sendRefunds } from './card-payments.ts';
import { refundWallet } from './payments.ts';

/**
 * The operator's console over sessions (docs/product.md#the-operators-console): find a session of
 * the operator's zones, and refund it wholly or partly with a reason, back the way it was paid
 * (the wallet through the ledger, a Quick Park card through the card path of wallet/charges.ts).
 * Every query is scoped by the operator of the session's zone: another operator's session is a 404.
 */

const notFound = () => new HttpError(404, M.sessionNotFound);

/** A plate as the console shows it: whole when the operator opted in, else all but its last two characters hidden. */
export function shownPlate(plate: string, showPlates: boolean): string {
  if (showPlates) return plate;
  return plate.length <= 2 ? '•'.repeat(plate.length) : '•'.repeat(plate.length - 2) + plate.slice(-2);
}

const columns = {
  id: parkingSessions.id,
  zoneId: parkingSessions.zoneId,
  zoneNumber: zones.zoneNumber,
  plate: parkingSessions.plate,
  plateState: parkingSessions.plateState,
  startedAt: parkingSessions.startedAt,
  endsAt: parkingSessions.endsAt,
  endedAt: parkingSessions.endedAt,
  status: parkingSessions.status,
  paidVia: parkingSessions.paidVia,
  parkingCents: parkingSessions.parkingCents,
  feeCents: parkingSessions.feeCents,
  refundedCents: parkingSessions.refundedCents,
  showPlates: operators.showPlates,
};
type Row = {
  [K in keyof typeof columns]: (typeof columns)[K]['_']['notNull'] extends true
    ? (typeof columns)[K]['_']['data']
    : (typeof columns)[K]['_']['data'] | null;
};

function toView(r: Row): OperatorSession {
  const paid = r.parkingCents + r.feeCents;
  return {
    SessionId: r.id,
    ZoneId: r.zoneId,
    ZoneNumber: r.zoneNumber,
    PlateNumber: shownPlate(r.plate, r.showPlates),
    PlateState: r.plateState,
    StartedAt: r.startedAt.toISOString(),
    EndsAt: r.endsAt.toISOString(),
    EndedAt: r.endedAt?.toISOString() ?? null,
    Status: r.status === 'active' ? 'active' : 'ended',
    PaidVia: r.paidVia,
    ParkingAmount: centsToAmount(r.parkingCents),
    FeeAmount: centsToAmount(r.feeCents),
    RefundedAmount: centsToAmount(r.refundedCents),
    AmountPaid: centsToAmount(paid - r.refundedCents),
    Refundable: centsToAmount(r.status === 'active' ? 0 : paid - r.refundedCents),
  };
}

/** The operator's sessions, newest first: by zone, started from/to a day in the operator's time zone, by plate. */
export async function listOperatorSessions(
  db: Executor,
  operatorId: number,
  q: {
    zoneId?: number | undefined;
    from?: string | undefined;
    to?: string | undefined;
    plate: string;
    before?: number | undefined;
    limit: number;
  },
): Promise<OperatorSessionPage> {
  const plate = q.plate.replace(/[\s-]/g, '').toUpperCase();
  const rows = await db
    .select(columns)
    .from(parkingSessions)
    .innerJoin(zones, eq(zones.id, parkingSessions.zoneId))
    .innerJoin(operators, eq(operators.id, zones.operatorId))
    .where(
      and(
        eq(zones.operatorId, operatorId),
        q.zoneId === undefined ? undefined : eq(parkingSessions.zoneId, q.zoneId),
        q.from === undefined
          ? undefined
          : sql`${parkingSessions.startedAt} >= (${q.from}::date::timestamp at time zone ${operators.timezone})`,
        q.to === undefined
          ? undefined
          : sql`${parkingSessions.startedAt} < ((${q.to}::date + 1)::timestamp at time zone ${operators.timezone})`,
        plate === '' ? undefined : sql`upper(replace(replace(${parkingSessions.plate}, ' ', ''), '-', '')) = ${plate}`,
        q.before === undefined ? undefined : lt(parkingSessions.id, q.before),
      ),
    )
    .orderBy(desc(parkingSessions.id))
    .limit(q.limit + 1);
  const page = rows.slice(0, q.limit);
  return { Sessions: page.map(toView), Next: rows.length > q.limit ? (page.at(-1)?.id ?? null) : null };
}

/** One session of the operator's zones with its console refunds, newest last; 404 for another operator's. */
export async function getOperatorSession(
  db: Executor,
  operatorId: number,
  sessionId: number,
): Promise<OperatorSessionDetail> {
  const [row] = await db
    .select(columns)
    .from(parkingSessions)
    .innerJoin(zones, eq(zones.id, parkingSessions.zoneId))
    .innerJoin(operators, eq(operators.id, zones.operatorId))
    .where(and(eq(parkingSessions.id, sessionId), eq(zones.operatorId, operatorId)));
  if (!row) throw notFound();
  const refunds = await db
    .select()
    .from(sessionRefunds)
    .where(and(eq(sessionRefunds.sessionId, sessionId), eq(sessionRefunds.operatorId, operatorId)))
    .orderBy(sessionRefunds.id);
  return {
    ...toView(row),
    Refunds: refunds.map((r) => ({
      RefundId: r.id,
      Amount: centsToAmount(r.amountCents),
      Reason: r.reason,
      By: r.actorName,
      At: r.createdAt.toISOString(),
    })),
  };
}

/** A refund asked for: cents, or the whole of what is left, and why. */
export interface RefundAsked {
  Amount?: number | undefined;
  Whole?: boolean | undefined;
  Reason: string;
}

/**
 * Refunds an ended session of the operator's zones, once per (staff member, Idempotency-Key)
 * (wallet/idempotency.ts's withIdempotency, whose transaction first locks the staff member's row).
 * In that transaction: the driver's wallet is locked (wallet-paid), then the session's row
 * (FOR UPDATE, the order Stop takes), so concurrent refunds queue and each sees what the one
 * before left; never more than was paid in all (the session's CHECK is the backstop). A
 * wallet-paid session's refund is a 'refund' ledger entry (`session:<id>:refund:<refund>`); a
 * card-paid one is claimed as pending card refunds and sent to the provider after COMMIT, no lock
 * held. A refusal undoes it (the shares uncounted, the refund row removed, the key forgotten, the
 * failure audited) and answers 502/503. Audited as session.refund in the refund's transaction.
 */
export async function refundSession(
  ctx: ChargeContext,
  r: { operatorId: number; actor: Actor & { id: number }; sessionId: number; key: string; body: RefundAsked },
  now: Date,
): Promise<{ body: RefundResponse; statusCode: number; replayed: boolean }> {
  let claimed: WalletCharge[] = [];
  const out = await withIdempotency<RefundResponse>(
    ctx.db,
    {
      memberId: r.actor.id,
      key: r.key,
      scope: `operator.refund:${r.operatorId}:${r.sessionId}`,
      body: r.body,
    },
    async (tx, key) => {
      claimed = [];
      const [owner] = await tx
        .select({ memberId: parkingSessions.memberId, paidVia: parkingSessions.paidVia })
        .from(parkingSessions)
        .innerJoin(zones, eq(zones.id, parkingSessions.zoneId))
        .where(and(eq(parkingSessions.id, r.sessionId), eq(zones.operatorId, r.operatorId)));
      if (!owner) throw notFound();
      const toWallet = owner.paidVia !== 'Card';
      if (toWallet) {
        if (owner.memberId === null) throw notFound();
        await lockWallet(tx, owner.memberId);
      }
      const [s] = await tx.select().from(parkingSessions).where(eq(parkingSessions.id, r.sessionId)).for('update');
      if (!s) throw notFound();
      if (s.status === 'active')
        throw new HttpError(409, M.sessionRunning, [{ field: 'SessionId', message: M.sessionRunning }]);
      const left = s.parkingCents + s.feeCents - s.refundedCents;
      if (left <= 0) throw new HttpError(409, M.nothingLeft, [{ field: 'Amount', message: M.nothingLeft }]);
      const cents = r.body.Whole ? left : (r.body.Amount ?? 0);
      if (cents <= 0 || cents > left)
        throw new HttpError(409, M.overRefund, [{ field: 'Amount', message: M.overRefund }]);
      const [row] = await tx
        .insert(sessionRefunds)
        .values({
          operatorId: r.operatorId,
          sessionId: s.id,
          actorId: r.actor.id,
          actorName: r.actor.name,
          amountCents: cents,
          reason: r.body.Reason,
          paidVia: s.paidVia,
        })
        .returning({ id: sessionRefunds.id });
      if (!row) throw new Error('session refund was not written');
      if (toWallet && s.memberId !== null) {
        const posted = await refundWallet(tx, s.memberId, cents, `session:${s.id}:refund:${row.id}`, key);
        await tx
          .update(sessionRefunds)
          .set({ ledgerEntryId: posted?.entryId ?? null })
          .where(eq(sessionRefunds.id, row.id));
      } else {
        claimed = await claimRefunds(tx, ctx, s.id, cents, now, (chargeId) => `operator-refund:${row.id}:${chargeId}`);
        const sum = claimed.reduce((a, c) => a + c.amountCents, 0);
        // The card charges took less than the session's amounts say: refund no more than they took.
        if (sum !== cents) throw new HttpError(409, M.overRefund, [{ field: 'Amount', message: M.overRefund }]);
      }
      await tx
        .update(parkingSessions)
        .set({ refundedCents: sql`${parkingSessions.refundedCents} + ${cents}`, updatedAt: now })
        .where(eq(parkingSessions.id, s.id));
      await audit(tx, {
        operatorId: r.operatorId,
        actor: r.actor,
        action: 'session.refund',
        entity: 'session',
        entityId: s.id,
        before: { RefundedAmount: centsToAmount(s.refundedCents) },
        after: {
          RefundedAmount: centsToAmount(s.refundedCents + cents),
          RefundId: row.id,
          Amount: centsToAmount(cents),
          Reason: r.body.Reason,
          PaidVia: s.paidVia,
        },
      });
      return {
        statusCode: 201,
        body: {
          RefundId: row.id,
          SessionId: s.id,
          Amount: centsToAmount(cents),
          RefundedAmount: centsToAmount(s.refundedCents + cents),
          Refundable: centsToAmount(left - cents),
          PaidVia: s.paidVia,
          message: M.refunded,
        },
      };
    },
  );
  if (!out.replayed && claimed.length > 0) {
    const sent = await sendRefunds(ctx, claimed);
    if (!sent.ok) {
      const refundId = out.body.RefundId;
      await ctx.db.transaction(async (tx) => {
        await releaseRefunds(tx, sent.refused);
        await tx.delete(sessionRefunds).where(eq(sessionRefunds.id, refundId));
        await audit(tx, {
          operatorId: r.operatorId,
          actor: r.actor,
          action: 'session.refund-failed',
          entity: 'session',
          entityId: r.sessionId,
          before: { RefundId: refundId, Amount: out.body.Amount },
          after: null,
        });
      });
      await forgetKey(ctx.db, r.actor.id, r.key);
      throw new HttpError(sent.status, sent.message);
    }
  }
  return { body: out.body, statusCode: out.statusCode, replayed: out.replayed };
}
