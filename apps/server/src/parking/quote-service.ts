import { and, eq, isNull, sql } from 'drizzle-orm';
import {
  centsToAmount,
  DEFAULT_DURATION_MINUTES,
  PARKING_MESSAGES,
  PRICING_MESSAGES,
  type AmendQuote,
  type AutoStartQuote,
  type Quote,
} from '@parkit/contract';
import type { Db, Executor } from '../db/client.ts';
import { parkingQuotes } from '../db/schema/index.ts';
import { badRequest, conflict, HttpError, notFound } from '../lib/http-error.ts';
import * as options from '../members/index.ts';
import * as vehicles from '../vehicles/index.ts';
import { operatorOfMember } from '../zones/index.ts';
import * as zones from '../zones/index.ts';
import { amendableUntil, amendableZone, checkAmendable } from './amend-window.ts';
import { planTerms, walletFunds } from './payments.ts';
import { overMaxPayment } from './rules.ts';
import { permitFor, policyForStart, policyOfSession, type SessionPolicy } from '../pricing/index.ts';
import { priceMore, priceOf, type Priced } from './pricing.ts';
import * as sessions from './session-repository.ts';
import { insertQuote, quoteTerms, quoteWindow, type QuoteRow } from './quote-rows.ts';

export type { QuoteRow };

/** 409 naming the vehicle's running session, in its text and as data (SessionId). */
export function vehicleBusy(sessionId: number) {
  return new HttpError(
    409,
    PARKING_MESSAGES.vehicleBusy,
    [{ field: 'VehicleId', message: `${PARKING_MESSAGES.vehicleBusy} (session ${sessionId})` }],
    undefined,
    { SessionId: sessionId },
  );
}

async function toQuote(
  db: Executor,
  memberId: number,
  q: QuoteRow,
  rateCents: number,
  maxMoreMinutes: number,
  price: Priced,
): Promise<Quote> {
  const [{ balanceCents, reloadCents }, over] = await Promise.all([
    walletFunds(db, memberId),
    overMaxPayment(db, memberId, q.totalCents),
  ]);
  return quoteOf(q, rateCents, maxMoreMinutes, price, { balanceCents, reloadCents, over });
}

/**
 * A member's Quote from its row, its price and the member's funds read with it (the balance, what
 * auto-reload would add, whether the total is over the Max Payment Amount): the step-by-step
 * quotes' and the one statement's (quote-statement.ts).
 */
export function quoteOf(
  q: QuoteRow,
  rateCents: number,
  maxMoreMinutes: number,
  price: Priced,
  funds: { balanceCents: number; reloadCents: number; over: boolean },
): Quote {
  const { balanceCents: balance, reloadCents } = funds;
  const covers = balance >= q.totalCents;
  return {
    ...quoteTerms(q, rateCents, price, maxMoreMinutes),
    DiscountPercent: q.discountPercent,
    DiscountAmount: centsToAmount(price.discountCents),
    FeeAmount: centsToAmount(q.feeCents),
    Balance: centsToAmount(balance),
    BalanceCovers: covers,
    // Start and Extend top up Default Add Amount first when that is enough (wallet/auto-reload.ts's withReloadCover).
    AutoReloadCovers: !covers && reloadCents > 0 && balance + reloadCents >= q.totalCents,
    AutoReloadAmount: centsToAmount(reloadCents),
    OverMaxPayment: funds.over,
  };
}

/** A price for a new session of one of the member's vehicles in a zone of the member's operator. */
export async function quoteStart(
  db: Db,
  memberId: number,
  r: { ZoneId: number; VehicleId: number; DurationMinutes: number; autoStart?: boolean },
  now: Date,
): Promise<Quote> {
  const operator = await operatorOfMember(db, memberId);
  if (!operator) throw notFound();
  const [zone, vehicle] = await Promise.all([
    zones.byId(db, operator.id, r.ZoneId),
    vehicles.findOwned(db, memberId, r.VehicleId),
  ]);
  if (!zone || !vehicle) throw notFound();
  if (zone.retiredAt) throw conflict('ZoneId', PARKING_MESSAGES.zoneRetired);
  if (r.DurationMinutes > zone.maxStayMinutes) throw badRequest('DurationMinutes', PARKING_MESSAGES.maxStay);
  const busy = await sessions.activeOfVehicle(db, vehicle.VehicleID, now);
  if (busy) throw vehicleBusy(busy.id);
  const [{ feeCents: fee, discountPercent }, policy] = await Promise.all([
    planTerms(db, memberId),
    policyForStart(db, zone, now, vehicle.PlateNumber),
  ]);
  const price = priceOf(policy, operator.timezone, now, 0, r.DurationMinutes, discountPercent);
  if (price.overMaxStay) throw badRequest('DurationMinutes', PARKING_MESSAGES.maxStay);
  if (price.paidMinutes === 0) {
    // Free for this vehicle: its permit parks free here, or the zone is free for everyone then.
    const everyone = priceOf({ ...policy, permits: [] }, operator.timezone, now, 0, r.DurationMinutes);
    if (everyone.paidMinutes > 0) throw conflict('VehicleId', PARKING_MESSAGES.permitFree);
    throw conflict('ZoneId', PARKING_MESSAGES.zoneFree);
  }
  if (
    price.noReturnMinutes > 0 &&
    (await sessions.leftZoneSince(db, vehicle.VehicleID, zone.id, now, price.noReturnMinutes))
  )
    throw conflict('ZoneId', PRICING_MESSAGES.noReturn);
  const q = await insertQuote(db, {
    memberId,
    kind: 'start',
    zoneId: zone.id,
    vehicleId: vehicle.VehicleID,
    ...quoteWindow(now, r.DurationMinutes, now),
    parkingCents: price.parkingCents,
    feeCents: fee,
    totalCents: price.parkingCents + fee,
    discountPercent,
    autoStart: r.autoStart ?? false,
    policyVersionId: price.versionId,
  });
  const quote = await toQuote(
    db,
    memberId,
    q,
    zone.rateCents,
    Math.min(zone.maxStayMinutes, policy.policy.maxStayMinutes),
    price,
  );
  const permit = permitRateOf(policy, price);
  return permit ? { ...quote, PermitRate: permit } : quote;
}

/** The permit whose own rate priced the first paid stretch of a quote, as the driver is shown it. */
function permitRateOf(policy: SessionPolicy, price: Priced): Quote['PermitRate'] {
  if (policy.permits.length === 0) return undefined;
  for (const stretch of price.spans) {
    const span = policy.policy.spans.find((sp) => sp.name === stretch.Name);
    if (!span || stretch.Amount === 0) continue;
    const chosen = permitFor(span, policy.permits);
    if (!chosen || chosen.rate === null) continue;
    const held = policy.permits.find((p) => p.id === chosen.permit.id)!;
    return { PermitId: held.id, PermitType: held.typeName };
  }
  return undefined;
}

/**
 * Auto Start: with the option on, the quote Continue pays at once: the member's first
 * vehicle, the first duration of the member's last session (60 minutes before any), capped at the
 * zone's maximum stay. When Auto Start cannot apply, the reason, and the screen asks as usual.
 */
export async function quoteAutoStart(db: Db, memberId: number, zoneId: number, now: Date): Promise<AutoStartQuote> {
  const off = (
    Reason: AutoStartQuote['Reason'],
    v: { VehicleID: number; PlateNumber: string } | null = null,
  ): AutoStartQuote => ({
    Enabled: false,
    Reason,
    Quote: null,
    VehicleId: v?.VehicleID ?? null,
    PlateNumber: v?.PlateNumber ?? null,
  });
  const operator = await operatorOfMember(db, memberId);
  const zone = operator && (await zones.byId(db, operator.id, zoneId));
  if (!operator || !zone) throw notFound();
  if (zone.retiredAt) throw conflict('ZoneId', PARKING_MESSAGES.zoneRetired);
  const opts = await options.get(db, memberId);
  if (!opts.AutoStartParking) return off('Off');
  const [vehicle] = await vehicles.listByMember(db, memberId);
  if (!vehicle) return off('NoVehicle');
  if (await sessions.activeOfVehicle(db, vehicle.VehicleID, now)) return off('VehicleParked', vehicle);
  const last = await sessions.latestOf(db, memberId);
  const policy = await policyForStart(db, zone, now);
  const minutes = Math.min(
    last?.initialMinutes ?? DEFAULT_DURATION_MINUTES,
    zone.maxStayMinutes,
    policy.policy.maxStayMinutes,
  );
  if (priceOf(policy, operator.timezone, now, 0, minutes).paidMinutes === 0) return off('Free', vehicle);
  const q = await quoteStart(
    db,
    memberId,
    { ZoneId: zone.id, VehicleId: vehicle.VehicleID, DurationMinutes: minutes, autoStart: true },
    now,
  );
  if (q.OverMaxPayment) return off('OverMaxPayment', vehicle);
  return { Enabled: true, Reason: null, Quote: q, VehicleId: vehicle.VehicleID, PlateNumber: vehicle.PlateNumber };
}

/** A price for more minutes of a running session: from its current end, no second fee. */
export async function quoteExtend(
  db: Db,
  memberId: number,
  r: { SessionId: number; DurationMinutes: number },
  now: Date,
): Promise<Quote> {
  const found = await sessions.findOwned(db, { memberId }, r.SessionId);
  if (!found) throw notFound();
  const { session: s, zone, timezone } = found;
  if (s.status !== 'active' || s.endsAt.getTime() <= now.getTime())
    throw conflict('SessionId', PARKING_MESSAGES.sessionEnded);
  const policy = await policyOfSession(db, s, zone);
  const room = Math.min(zone.maxStayMinutes, policy.policy.maxStayMinutes) - s.durationMinutes;
  if (room <= 0) throw conflict('DurationMinutes', PARKING_MESSAGES.maxStayReached);
  if (r.DurationMinutes > room) throw badRequest('DurationMinutes', PARKING_MESSAGES.maxStay);
  // Under the session's own policy version and discount (the plan when it started).
  const price = priceMore(policy, timezone, s, r.DurationMinutes);
  if (price.overMaxStay) throw badRequest('DurationMinutes', PARKING_MESSAGES.maxStay);
  const q = await insertQuote(db, {
    memberId,
    kind: 'extend',
    zoneId: s.zoneId,
    vehicleId: s.vehicleId,
    sessionId: s.id,
    ...quoteWindow(s.endsAt, r.DurationMinutes, now),
    parkingCents: price.parkingCents,
    feeCents: 0,
    totalCents: price.parkingCents,
    discountPercent: s.discountPercent,
    policyVersionId: s.policyVersionId,
  });
  return toQuote(db, memberId, q, s.rateCents, room, price);
}

/**
 * Spends a quote once: one UPDATE marks it used, so of many concurrent requests exactly one gets
 * the row. The others learn why: unknown (404), used, expired or of the other kind. The owner is a
 * member, or a Quick Park guest by phone (a guest's quotes have no member).
 */
export async function claimQuote(
  tx: Executor,
  owner: sessions.Owner,
  quoteId: string,
  kind: 'start' | 'extend',
  now: Date,
): Promise<QuoteRow> {
  const ownedBy =
    'memberId' in owner
      ? eq(parkingQuotes.memberId, owner.memberId)
      : and(eq(parkingQuotes.guestPhone, owner.guestPhone), isNull(parkingQuotes.memberId));
  const mine = and(eq(parkingQuotes.id, quoteId), ownedBy, eq(parkingQuotes.kind, kind));
  const [claimed] = await tx
    .update(parkingQuotes)
    .set({ usedAt: now })
    .where(and(mine, isNull(parkingQuotes.usedAt), sql`${parkingQuotes.expiresAt} > ${now}`))
    .returning();
  if (claimed) return claimed;
  const [q] = await tx.select({ usedAt: parkingQuotes.usedAt }).from(parkingQuotes).where(mine).limit(1);
  if (!q) throw notFound();
  if (q.usedAt) throw conflict('QuoteId', PARKING_MESSAGES.quoteUsed);
  throw conflict('QuoteId', PARKING_MESSAGES.quoteExpired);
}

/**
 * What amending a session's zone would cost: the whole session priced again in the new
 * zone at the session's discount, and the difference Amend charges (positive) or refunds
 * (negative). Nothing is held: Amend computes the same figures from the same rows.
 */
export async function quoteAmendZone(
  db: Db,
  memberId: number,
  r: { SessionId: number; ZoneId: number },
  now: Date,
): Promise<AmendQuote> {
  const found = await sessions.findOwned(db, { memberId }, r.SessionId);
  if (!found) throw notFound();
  const s = found.session;
  checkAmendable(s, now);
  const { zone, price } = await amendableZone(db, memberId, s, r.ZoneId);
  const diff = zone.id === s.zoneId ? 0 : price.parkingCents - s.parkingCents;
  const refund = diff < 0 ? Math.min(-diff, s.parkingCents - s.refundedCents) : 0;
  const { balanceCents, reloadCents } = await walletFunds(db, memberId);
  const covers = balanceCents >= Math.max(diff, 0);
  return {
    SessionId: s.id,
    ZoneId: zone.id,
    ZoneNumber: zone.zoneNumber,
    ParkingAmount: centsToAmount(price.parkingCents),
    Difference: centsToAmount(diff > 0 ? diff : -refund),
    Balance: centsToAmount(balanceCents),
    BalanceCovers: covers,
    AutoReloadCovers: !covers && reloadCents > 0 && balanceCents + reloadCents >= diff,
    AmendableUntil: amendableUntil(s).toISOString(),
  };
}
