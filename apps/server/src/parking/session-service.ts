import { centsToAmount, PARKING_MESSAGES, type ParkingSession, type StopResponse } from '@parkit/contract';
import type { Db, Tx } from '../db/client.ts';
import { conflict, HttpError, notFound } from '../lib/http-error.ts';
import * as vehicles from '../vehicles/index.ts';
import { operatorOfMember } from '../zones/index.ts';
import * as zones from '../zones/index.ts';
import type { PaymentProvider } from '../wallet/index.ts';
import { refundToCard } from './card-payments.ts';
import { lockWallet } from '../wallet/index.ts';
import { amendableZone, checkAmendable } from './amend-window.ts';
import { chargeWallet, refundWallet } from './payments.ts';
import { refundFor } from './pricing.ts';
import { claimQuote, vehicleBusy } from './quote-service.ts';
import { checkMaxPayment } from './rules.ts';
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
    if (vehicles.isUniqueViolation(err))
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
    if (vehicles.isUniqueViolation(err))
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
export function stop(
  db: Db,
  provider: PaymentProvider,
  memberId: number,
  sessionId: number,
  now: Date,
): Promise<StopResponse> {
  return stopOwned(db, provider, { memberId }, sessionId, now);
}

/**
 * Stop for any owner: the unused whole minutes go back the way they were paid, a member's wallet
 * (a refund in the ledger) or the Quick Park card (through the provider, charge by charge; if the
 * provider refuses or cannot be reached, nothing changes and the session runs on).
 */
export async function stopOwned(
  db: Db,
  provider: PaymentProvider,
  owner: sessions.Owner,
  sessionId: number,
  now: Date,
): Promise<StopResponse> {
  return db.transaction(async (tx) => {
    // A member's wallet is locked before the session, as every money path does (ledger.ts's lockWallet).
    if ('memberId' in owner) await lockWallet(tx, owner.memberId);
    const found = await sessions.lockOwned(tx, owner, sessionId);
    if (!found) throw notFound();
    const { session: s, zone, timezone } = found;
    if (s.status !== 'active' || s.endsAt.getTime() <= now.getTime())
      throw conflict('SessionId', PARKING_MESSAGES.sessionEnded);
    const { unusedMinutes, refundCents: due } = refundFor(zone, timezone, s, now);
    // Whole minutes only: the session keeps at least its first minute.
    const unused = Math.min(unusedMinutes, s.durationMinutes - 1);
    let refundCents = 0;
    if (s.paidVia === 'Card') refundCents = await refundToCard(tx, provider, s.id, due);
    else if (s.memberId !== null)
      refundCents = (await refundWallet(tx, s.memberId, due, `session:${s.id}:stop`)) ? due : 0;
    await sessions.updateSession(tx, s.id, {
      status: 'ended',
      endedAt: now,
      endsAt: new Date(s.endsAt.getTime() - unused * MINUTE),
      durationMinutes: s.durationMinutes - unused,
      refundedCents: s.refundedCents + refundCents,
      updatedAt: now,
    });
    const after = await sessions.findOwned(tx, owner, s.id);
    if (!after) throw new Error(`session ${s.id} vanished inside its transaction`);
    return { ...sessions.toSessionView(after, now), RefundAmount: centsToAmount(refundCents), UnusedMinutes: unused };
  });
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
    });
  }
  try {
    await sessions.updateSession(tx, s.id, changes);
  } catch (err) {
    if (vehicles.isUniqueViolation(err))
      throw new HttpError(409, PARKING_MESSAGES.vehicleBusy, [
        { field: 'VehicleId', message: PARKING_MESSAGES.vehicleBusy },
      ]);
    throw err;
  }
  return { session: await view(tx, memberId, s.id, now), reloadDue };
}
