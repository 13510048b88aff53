import {
  centsToAmount,
  PARKING_MESSAGES,
  type ParkingSession,
  type SessionReceipt,
  type StopResponse,
} from '@parkit/contract';
import type { Executor, Tx } from '../db/client.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { conflict, HttpError, notFound } from '../lib/http-error.ts';
import * as vehicles from '../vehicles/index.ts';
import { operatorOfMember } from '../zones/index.ts';
import * as zones from '../zones/index.ts';
import { claimRefunds, releaseRefunds, sendRefunds, cardPaymentsOf, type RefundsSent } from './card-payments.ts';
import { lockWallet, type ChargeContext, type WalletCharge } from '../wallet/index.ts';
import { amendableZone, checkAmendable } from './amend-window.ts';
import { chargeWallet, refundWallet, walletPaymentsOf } from './payments.ts';
import { policyOfSession } from '../pricing/index.ts';
import { stopPriced } from './pricing.ts';
import { claimQuote, vehicleBusy } from './quote-service.ts';
import { checkMaxPayment } from './rules.ts';
import { forgetSavedCards } from './saved-cards.ts';
import { startInOneStatement } from './start-statement.ts';
import * as sessions from './session-repository.ts';

const MINUTE = 60_000;

/**
 * A paid change's answer: the session, and whether its debit left the balance under the member's
 * trigger with auto-reload on (the wallet reloads after COMMIT: idempotency.ts).
 */
export interface Paid {
  session: ParkingSession;
  reloadDue: boolean;
}

async function view(tx: Tx, memberId: number, id: number, now: Date): Promise<ParkingSession> {
  const found = await sessions.findOwned(tx, { memberId }, id);
  if (!found) throw new Error(`session ${id} vanished inside its transaction`);
  return sessions.toSessionView(found, now);
}

/**
 * Start: spends a start quote and pays its total from the wallet, in the caller's transaction
 * (the Idempotency-Key's). The session runs for the quoted minutes from now, at the quoted price.
 */
export async function start(
  tx: Tx,
  memberId: number,
  r: { QuoteId: string; ConfirmOverMax?: boolean | undefined },
  key: string | null,
  now: Date,
): Promise<Paid> {
  // The common case in one statement; a refusal to explain, an expired session to close or an
  // auto-reload takes the step-by-step path below, which checks everything again.
  let fast: Awaited<ReturnType<typeof startInOneStatement>>;
  try {
    fast = await startInOneStatement(tx, memberId, r.QuoteId, r.ConfirmOverMax === true, key, now);
  } catch (err) {
    if (isUniqueViolation(err))
      throw new HttpError(409, PARKING_MESSAGES.vehicleBusy, [
        { field: 'VehicleId', message: PARKING_MESSAGES.vehicleBusy },
      ]);
    throw err;
  }
  // The statement returned the view's columns: no further read.
  if (fast) return { session: sessions.toSessionView(fast.view, now), reloadDue: fast.reloadDue };
  const q = await claimQuote(tx, { memberId }, r.QuoteId, 'start', now);
  await checkMaxPayment(tx, memberId, q.totalCents, r.ConfirmOverMax === true || q.autoStart);
  const operator = await operatorOfMember(tx, memberId);
  const zone = operator && (await zones.byId(tx, operator.id, q.zoneId));
  const vehicle = q.vehicleId === null ? null : await vehicles.findOwned(tx, memberId, q.vehicleId);
  if (!operator || !zone || !vehicle) throw notFound();
  if (zone.retiredAt) throw conflict('ZoneId', PARKING_MESSAGES.zoneRetired);
  await sessions.closeExpiredOfVehicle(tx, vehicle.VehicleID, now);
  const busy = await sessions.activeOfVehicle(tx, vehicle.VehicleID, now);
  if (busy) throw vehicleBusy(busy.id);
  let row: sessions.SessionRow;
  try {
    row = await sessions.insertSession(tx, {
      memberId,
      operatorId: operator.id,
      zoneId: zone.id,
      vehicleId: vehicle.VehicleID,
      vehicleMake: vehicle.VehicleMake,
      vehicleModel: vehicle.VehicleModel,
      plate: vehicle.PlateNumber,
      plateState: vehicle.PlateState,
      ...sessions.paidPeriod(q, zone, now),
      feeCents: q.feeCents,
      discountPercent: q.discountPercent,
      paidVia: 'Wallet',
      autoSessionUsed: q.autoStart,
    });
  } catch (err) {
    // Another quote for the same vehicle started between our check and the insert.
    if (isUniqueViolation(err))
      throw new HttpError(409, PARKING_MESSAGES.vehicleBusy, [
        { field: 'VehicleId', message: PARKING_MESSAGES.vehicleBusy },
      ]);
    throw err;
  }
  const posted = await chargeWallet(tx, memberId, q.totalCents, `session:${row.id}`, key, `quote:${q.id}`);
  return { session: await view(tx, memberId, row.id, now), reloadDue: posted?.reloadDue ?? false };
}

/**
 * Adds minutes to a running session. The session row is locked, so extensions, Stop and the
 * jobs queue; the maximum stay counts every minute bought.
 */
export async function extendWith(
  tx: Tx,
  owner: sessions.Owner & { memberId: number },
  q: {
    sessionId: number | null;
    zoneId: number;
    startsAt: Date;
    durationMinutes: number;
    parkingCents: number;
    totalCents: number;
  },
  opts: { key: string | null; auto: boolean; now: Date; coverKey?: string | undefined },
): Promise<Paid> {
  if (q.sessionId === null) throw notFound();
  const found = await sessions.lockOwned(tx, owner, q.sessionId);
  if (!found) throw notFound();
  const { session: s, zone } = found;
  if (s.status !== 'active' || s.endsAt.getTime() <= opts.now.getTime())
    throw conflict('SessionId', PARKING_MESSAGES.sessionEnded);
  if (s.endsAt.getTime() !== q.startsAt.getTime() || s.zoneId !== q.zoneId)
    throw conflict('QuoteId', PARKING_MESSAGES.quoteStale);
  if (s.durationMinutes + q.durationMinutes > zone.maxStayMinutes)
    throw conflict('DurationMinutes', PARKING_MESSAGES.maxStayReached);
  await sessions.updateSession(tx, s.id, {
    endsAt: new Date(s.endsAt.getTime() + q.durationMinutes * MINUTE),
    durationMinutes: s.durationMinutes + q.durationMinutes,
    parkingCents: s.parkingCents + q.parkingCents,
    autoExtendedUsed: s.autoExtendedUsed || opts.auto,
    // A new end gets its own reminder.
    reminderSentAt: null,
    updatedAt: opts.now,
  });
  const posted = await chargeWallet(
    tx,
    owner.memberId,
    q.totalCents,
    `session:${s.id}:extend`,
    opts.key,
    opts.coverKey ?? null,
  );
  return { session: await view(tx, owner.memberId, s.id, opts.now), reloadDue: posted?.reloadDue ?? false };
}

export async function extend(
  tx: Tx,
  memberId: number,
  r: { QuoteId: string; ConfirmOverMax?: boolean | undefined },
  key: string | null,
  now: Date,
): Promise<Paid> {
  const q = await claimQuote(tx, { memberId }, r.QuoteId, 'extend', now);
  await checkMaxPayment(tx, memberId, q.totalCents, r.ConfirmOverMax === true);
  return extendWith(tx, { memberId }, q, { key, auto: false, now, coverKey: `quote:${q.id}` });
}

/** Stop: ends the session now and refunds the unused whole minutes (to the wallet, or to the card of a Quick Park session carried into the account). */
export function stop(ctx: ChargeContext, memberId: number, sessionId: number, now: Date): Promise<StopResponse> {
  return stopOwned(ctx, { memberId }, sessionId, now);
}

/**
 * Stop for any owner: the unused whole minutes go back the way they were paid, a member's wallet
 * (a refund in the ledger, in the stop's transaction) or the Quick Park card. A card's refunds are
 * claimed as pending in the stop's transaction (card-payments.ts) and sent after COMMIT, no lock
 * held during the provider's call; if the provider refuses the first or cannot be reached, the
 * stop is undone and the session runs on (502/503), as before any refund was given back. A stop that
 * stands forgets the session's saved card (saved-cards.ts).
 */
export async function stopOwned(
  ctx: ChargeContext,
  owner: sessions.Owner,
  sessionId: number,
  now: Date,
): Promise<StopResponse> {
  const stopped = await ctx.db.transaction(async (tx) => {
    // A member's wallet is locked before the session, as every money path does (ledger.ts's lockWallet).
    if ('memberId' in owner) await lockWallet(tx, owner.memberId);
    const found = await sessions.lockOwned(tx, owner, sessionId);
    if (!found) throw notFound();
    const { session: s, zone, timezone } = found;
    if (s.status !== 'active' || s.endsAt.getTime() <= now.getTime())
      throw conflict('SessionId', PARKING_MESSAGES.sessionEnded);
    const { unused, refundCents: due } = stopPriced(await policyOfSession(tx, s, zone), timezone, s, now);
    let refundCents = 0;
    let refunds: WalletCharge[] = [];
    if (s.paidVia === 'Card') {
      refunds = await claimRefunds(tx, ctx, s.id, due, now);
      refundCents = refunds.reduce((sum, r) => sum + r.amountCents, 0);
    } else if (s.memberId !== null)
      refundCents = (await refundWallet(tx, s.memberId, due, `session:${s.id}:stop`)) ? due : 0;
    const before = {
      status: s.status,
      endedAt: s.endedAt,
      endsAt: s.endsAt,
      durationMinutes: s.durationMinutes,
      refundedCents: s.refundedCents,
      updatedAt: s.updatedAt,
    };
    await sessions.updateSession(tx, s.id, {
      status: 'ended',
      endedAt: now,
      endsAt: new Date(s.endsAt.getTime() - unused * MINUTE),
      durationMinutes: s.durationMinutes - unused,
      refundedCents: s.refundedCents + refundCents,
      updatedAt: now,
    });
    return { id: s.id, unused, refunds, before, savedCard: s.cardRef !== null };
  });
  if (stopped.refunds.length > 0) {
    const sent = await sendRefunds(ctx, stopped.refunds);
    if (!sent.ok) await undoStop(ctx, stopped.id, stopped.before, sent);
  }
  // The stop stands: its saved card is forgotten now, as the job would at its next run (which
  // retries it when the provider is out of reach now).
  if (stopped.savedCard) await forgetSavedCards(ctx, now, { sessionId: stopped.id });
  const after = await sessions.findOwned(ctx.db, owner, stopped.id);
  if (!after) throw new Error(`session ${stopped.id} vanished after its stop`);
  return {
    ...sessions.toSessionView(after, now),
    RefundAmount: centsToAmount(after.session.refundedCents - stopped.before.refundedCents),
    UnusedMinutes: stopped.unused,
  };
}

/**
 * A stop whose card refund the provider refused or could not take, before any was given back:
 * the refunds released and the session running again, then the provider's answer. If the plate
 * has meanwhile started another session (the session cannot run again), the stop stands: an
 * outage's refunds stay pending for the wallet job, a refusal's are released.
 */
async function undoStop(
  ctx: ChargeContext,
  id: number,
  before: Partial<sessions.NewSession>,
  sent: Extract<RefundsSent, { ok: false }>,
): Promise<void> {
  try {
    await ctx.db.transaction(async (tx) => {
      await releaseRefunds(tx, sent.refused);
      await sessions.updateSession(tx, id, before);
    });
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    if (sent.status === 502) await ctx.db.transaction((tx) => releaseRefunds(tx, sent.refused));
    return;
  }
  throw new HttpError(sent.status, sent.message);
}

/**
 * Amend: a wrong plate or zone fixed within 5 minutes of the start, without a second fee. The
 * whole session is priced again in the new zone (at the session's discount); the difference is
 * charged or refunded, in the caller's transaction (the Idempotency-Key's).
 */
export async function amend(
  tx: Tx,
  memberId: number,
  r: { SessionId: number; VehicleId?: number | undefined; ZoneId?: number | undefined },
  key: string,
  now: Date,
): Promise<Paid> {
  const found = await sessions.lockOwned(tx, { memberId }, r.SessionId);
  if (!found) throw notFound();
  const s = found.session;
  checkAmendable(s, now);
  let reloadDue = false;
  const changes: Partial<sessions.NewSession> = { updatedAt: now };
  if (r.VehicleId !== undefined && r.VehicleId !== s.vehicleId) {
    const v = await vehicles.findOwned(tx, memberId, r.VehicleId);
    if (!v) throw notFound();
    await sessions.closeExpiredOfVehicle(tx, v.VehicleID, now);
    const busy = await sessions.activeOfVehicle(tx, v.VehicleID, now);
    if (busy) throw vehicleBusy(busy.id);
    Object.assign(changes, {
      vehicleId: v.VehicleID,
      vehicleMake: v.VehicleMake,
      vehicleModel: v.VehicleModel,
      plate: v.PlateNumber,
      plateState: v.PlateState,
    });
  }
  if (r.ZoneId !== undefined && r.ZoneId !== s.zoneId) {
    const { operator, zone, price } = await amendableZone(tx, memberId, s, r.ZoneId);
    const diff = price.parkingCents - s.parkingCents;
    if (diff > 0)
      reloadDue =
        (await chargeWallet(tx, memberId, diff, `session:${s.id}:amend`, key, `amend:${s.id}:${key}`))?.reloadDue ??
        false;
    if (diff < 0)
      await refundWallet(tx, memberId, Math.min(-diff, s.parkingCents - s.refundedCents), `session:${s.id}:amend`);
    Object.assign(changes, {
      zoneId: zone.id,
      operatorId: operator.id,
      rateCents: zone.rateCents,
      parkingCents: price.parkingCents,
      policyVersionId: price.versionId,
    });
  }
  try {
    await sessions.updateSession(tx, s.id, changes);
  } catch (err) {
    if (isUniqueViolation(err))
      throw new HttpError(409, PARKING_MESSAGES.vehicleBusy, [
        { field: 'VehicleId', message: PARKING_MESSAGES.vehicleBusy },
      ]);
    throw err;
  }
  return { session: await view(tx, memberId, s.id, now), reloadDue };
}

/**
 * The session one of its owners opens (member or Quick Park): its view and what was paid along the
 * way, from the wallet's ledger or the card's charges, for the receipt (docs/product.md#the-receipt).
 */
export async function sessionReceipt(
  db: Executor,
  found: sessions.SessionWithZone,
  now: Date,
): Promise<SessionReceipt> {
  const s = found.session;
  const payments =
    s.paidVia === 'Card'
      ? await cardPaymentsOf(db, s.id)
      : s.memberId !== null
        ? await walletPaymentsOf(db, s.memberId, s.id)
        : [];
  return {
    ...sessions.toSessionView(found, now),
    InitialMinutes: s.initialMinutes,
    Payments: payments.map((p) => ({ Kind: p.kind, Amount: centsToAmount(p.cents), PaidAt: p.at.toISOString() })),
  };
}
