import { AMEND_WINDOW_MINUTES, centsToAmount, PARKING_MESSAGES, type ParkingSession, type StopResponse } from '@parkit/contract';
import type { Db, Tx } from '../../../db/client.ts';
import { badRequest, conflict, HttpError, notFound } from '../../../lib/http-error.ts';
import * as options from '../members/parking-options-repository.ts';
import * as vehicles from '../vehicles/vehicle-repository.ts';
import { operatorOfMember } from '../zones/operator-repository.ts';
import * as zones from '../zones/zone-repository.ts';
import { chargeWallet, refundWallet } from './payments.ts';
import { priceOf, refundFor } from './pricing.ts';
import { claimQuote, vehicleBusy } from './quote-service.ts';
import * as sessions from './session-repository.ts';

const MINUTE = 60_000;

/** Max Payment Amount caps what Start and Extend take without a second confirmation (issue 11). */
async function checkCap(tx: Tx, memberId: number, totalCents: number, confirmed: boolean) {
  if (confirmed) return;
  const o = await options.get(tx, memberId);
  if (o.MaxPaymentEnabled && totalCents > Math.round(o.MaxPaymentAmount * 100)) {
    throw new HttpError(409, PARKING_MESSAGES.overMaxPayment, [{ field: 'ConfirmOverMax', message: PARKING_MESSAGES.overMaxPayment }]);
  }
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
  paid: { reloadDue: boolean } = { reloadDue: false },
): Promise<ParkingSession> {
  const q = await claimQuote(tx, memberId, r.QuoteId, 'start', now);
  await checkCap(tx, memberId, q.totalCents, r.ConfirmOverMax === true || q.autoStart);
  const operator = await operatorOfMember(tx, memberId);
  const zone = operator && (await zones.byId(tx, operator.id, q.zoneId));
  const vehicle = q.vehicleId === null ? null : await vehicles.findOwned(tx, memberId, q.vehicleId);
  if (!operator || !zone || !vehicle) throw notFound();
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
      startedAt: now,
      endsAt: new Date(now.getTime() + q.durationMinutes * MINUTE),
      durationMinutes: q.durationMinutes,
      initialMinutes: q.durationMinutes,
      rateCents: zone.rateCents,
      parkingCents: q.parkingCents,
      feeCents: q.feeCents,
      paidVia: 'Wallet',
      autoSessionUsed: q.autoStart,
      updatedAt: now,
    });
  } catch (err) {
    // Another quote for the same vehicle started between our check and the insert.
    if (vehicles.isUniqueViolation(err)) throw new HttpError(409, PARKING_MESSAGES.vehicleBusy, [{ field: 'VehicleId', message: PARKING_MESSAGES.vehicleBusy }]);
    throw err;
  }
  const posted = await chargeWallet(tx, memberId, q.totalCents, `session:${row.id}`, key);
  paid.reloadDue = posted?.reloadDue ?? false;
  return view(tx, memberId, row.id, now);
}

/**
 * Adds minutes to a running session. The session row is locked, so extensions, Stop and the
 * jobs queue; the maximum stay counts every minute bought.
 */
export async function extendWith(
  tx: Tx,
  owner: sessions.Owner & { memberId: number },
  q: { sessionId: number | null; zoneId: number; startsAt: Date; durationMinutes: number; parkingCents: number; totalCents: number },
  opts: { key: string | null; auto: boolean; now: Date },
): Promise<ParkingSession> {
  if (q.sessionId === null) throw notFound();
  const found = await sessions.lockOwned(tx, owner, q.sessionId);
  if (!found) throw notFound();
  const { session: s, zone } = found;
  if (s.status !== 'active' || s.endsAt.getTime() <= opts.now.getTime()) throw conflict('SessionId', PARKING_MESSAGES.sessionEnded);
  if (s.endsAt.getTime() !== q.startsAt.getTime() || s.zoneId !== q.zoneId) throw conflict('QuoteId', PARKING_MESSAGES.quoteStale);
  if (s.durationMinutes + q.durationMinutes > zone.maxStayMinutes) throw conflict('DurationMinutes', PARKING_MESSAGES.maxStayReached);
  await sessions.updateSession(tx, s.id, {
    endsAt: new Date(s.endsAt.getTime() + q.durationMinutes * MINUTE),
    durationMinutes: s.durationMinutes + q.durationMinutes,
    parkingCents: s.parkingCents + q.parkingCents,
    autoExtendedUsed: s.autoExtendedUsed || opts.auto,
    // A new end gets its own reminder.
    reminderSentAt: null,
    updatedAt: opts.now,
  });
  await chargeWallet(tx, owner.memberId, q.totalCents, `session:${s.id}:extend`, opts.key);
  return view(tx, owner.memberId, s.id, opts.now);
}

export async function extend(tx: Tx, memberId: number, r: { QuoteId: string; ConfirmOverMax?: boolean | undefined }, key: string | null, now: Date): Promise<ParkingSession> {
  const q = await claimQuote(tx, memberId, r.QuoteId, 'extend', now);
  await checkCap(tx, memberId, q.totalCents, r.ConfirmOverMax === true);
  return extendWith(tx, { memberId }, q, { key, auto: false, now });
}

/** Stop: ends the session now and refunds the unused whole minutes to the wallet. */
export function stop(db: Db, memberId: number, sessionId: number, now: Date): Promise<StopResponse> {
  return stopOwned(db, { memberId }, sessionId, now);
}

/**
 * Stop for any owner. A member's unused whole minutes go back to the wallet; a Quick Park card
 * payment is not refunded (the session still ends, and the receipt shows what was paid).
 */
export async function stopOwned(db: Db, owner: sessions.Owner, sessionId: number, now: Date): Promise<StopResponse> {
  return db.transaction(async (tx) => {
    const found = await sessions.lockOwned(tx, owner, sessionId);
    if (!found) throw notFound();
    const { session: s, zone, timezone } = found;
    if (s.status !== 'active' || s.endsAt.getTime() <= now.getTime()) throw conflict('SessionId', PARKING_MESSAGES.sessionEnded);
    const wallet = s.memberId !== null && s.paidVia === 'Wallet';
    const { unusedMinutes, refundCents: due } = refundFor(zone, timezone, s, now);
    const refundCents = wallet ? due : 0;
    // Whole minutes only: the session keeps at least its first minute.
    const unused = Math.min(unusedMinutes, s.durationMinutes - 1);
    await sessions.updateSession(tx, s.id, {
      status: 'ended',
      endedAt: now,
      endsAt: new Date(s.endsAt.getTime() - unused * MINUTE),
      durationMinutes: s.durationMinutes - unused,
      refundedCents: s.refundedCents + refundCents,
      updatedAt: now,
    });
    if (wallet && s.memberId !== null) await refundWallet(tx, s.memberId, refundCents, `session:${s.id}:stop`);
    const after = await sessions.findOwned(tx, owner, s.id);
    if (!after) throw new Error(`session ${s.id} vanished inside its transaction`);
    return { ...sessions.toSessionView(after, now), RefundAmount: centsToAmount(refundCents), UnusedMinutes: unused };
  });
}

/**
 * Amend: a wrong plate or zone fixed within 5 minutes of the start, without a second fee. The
 * whole session is priced again in the new zone; the difference is charged or refunded.
 */
export async function amend(db: Db, memberId: number, r: { SessionId: number; VehicleId?: number | undefined; ZoneId?: number | undefined }, now: Date): Promise<ParkingSession> {
  return db.transaction(async (tx) => {
    const found = await sessions.lockOwned(tx, { memberId }, r.SessionId);
    if (!found) throw notFound();
    const s = found.session;
    if (s.status !== 'active' || s.endsAt.getTime() <= now.getTime()) throw conflict('SessionId', PARKING_MESSAGES.sessionEnded);
    if (now.getTime() > s.startedAt.getTime() + AMEND_WINDOW_MINUTES * MINUTE) throw conflict('SessionId', PARKING_MESSAGES.amendTooLate);
    const changes: Partial<sessions.NewSession> = { updatedAt: now };
    if (r.VehicleId !== undefined && r.VehicleId !== s.vehicleId) {
      const v = await vehicles.findOwned(tx, memberId, r.VehicleId);
      if (!v) throw notFound();
      await sessions.closeExpiredOfVehicle(tx, v.VehicleID, now);
      const busy = await sessions.activeOfVehicle(tx, v.VehicleID, now);
      if (busy) throw vehicleBusy(busy.id);
      Object.assign(changes, { vehicleId: v.VehicleID, vehicleMake: v.VehicleMake, vehicleModel: v.VehicleModel, plate: v.PlateNumber, plateState: v.PlateState });
    }
    if (r.ZoneId !== undefined && r.ZoneId !== s.zoneId) {
      const operator = await operatorOfMember(tx, memberId);
      const zone = operator && (await zones.byId(tx, operator.id, r.ZoneId));
      if (!operator || !zone) throw notFound();
      if (s.durationMinutes > zone.maxStayMinutes) throw badRequest('ZoneId', PARKING_MESSAGES.maxStay);
      const price = priceOf(zone, operator.timezone, s.startedAt, s.durationMinutes);
      const diff = price.parkingCents - s.parkingCents;
      if (diff > 0) await chargeWallet(tx, memberId, diff, `session:${s.id}:amend`, null);
      if (diff < 0) await refundWallet(tx, memberId, Math.min(-diff, s.parkingCents - s.refundedCents), `session:${s.id}:amend`);
      Object.assign(changes, { zoneId: zone.id, operatorId: operator.id, rateCents: zone.rateCents, parkingCents: price.parkingCents });
    }
    try {
      await sessions.updateSession(tx, s.id, changes);
    } catch (err) {
      if (vehicles.isUniqueViolation(err)) throw new HttpError(409, PARKING_MESSAGES.vehicleBusy, [{ field: 'VehicleId', message: PARKING_MESSAGES.vehicleBusy }]);
      throw err;
    }
    return view(tx, memberId, s.id, now);
  });
}
