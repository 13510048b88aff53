import { localTime, paidTimeline, type PaidSchedule } from '../zones/index.ts';

/**
 * Parking prices (issue 11): the rate times the paid minutes inside the session, rounded half-up
 * to the cent; the plan's fee is added once per session by the caller. A minute is paid when the
 * zone's local clock (its operator's IANA time zone) is inside the paid hours at that minute, so
 * DST days have 23 or 25 real hours and an overnight session crosses free and paid periods.
 */

const DAY = 1440;
const MINUTE_MS = 60_000;
/**
 * Local clocks change (DST) only at whole or half hours in every IANA zone in use, so walking in
 * steps that never cross a half hour re-reads the offset often enough, with at most 48 reads a day.
 */
const STEP_CAP = 30;

/** Minutes of [start, start + minutes) during which the zone charges. */
export function paidMinutes(schedule: PaidSchedule, timeZone: string, start: Date, minutes: number): number {
  if (!Number.isInteger(minutes) || minutes < 0)
    throw new RangeError(`minutes must be a whole number >= 0, got ${minutes}`);
  const timeline = paidTimeline(schedule);
  if (timeline.length === 0 || minutes === 0) return 0;
  const boundaries = [...new Set(timeline.flat())].sort((a, b) => a - b);
  let t = start.getTime();
  let remaining = minutes;
  let paid = 0;
  while (remaining > 0) {
    const { isoDay, minute } = localTime(new Date(t), timeZone);
    const w = (isoDay - 1) * DAY + minute;
    const inside = timeline.some(([a, b]) => a <= w && w < b);
    const next = boundaries.find((b) => b > w) ?? w + DAY;
    const step = Math.min(remaining, next - w, STEP_CAP - (minute % STEP_CAP));
    if (inside) paid += step;
    t += step * MINUTE_MS;
    remaining -= step;
  }
  return paid;
}

/**
 * rate (cents per hour) × minutes / 60, less the plan's discount in percent (Deluxe: 10), rounded
 * half-up to the cent once, in integers only.
 */
export function centsFor(rateCentsPerHour: number, minutes: number, discountPercent = 0): number {
  return Math.floor((2 * rateCentsPerHour * minutes * (100 - discountPercent) + 6000) / 12000);
}

export interface Priced {
  paidMinutes: number;
  /** What is charged: after the plan's discount. */
  parkingCents: number;
  /** What the discount took off the rate × paid minutes (0 without one). */
  discountCents: number;
}

/** The parking amount of [start, start + minutes) in a zone (no fee), less the plan's discount. */
export function priceOf(
  zone: PaidSchedule & { rateCents: number },
  timeZone: string,
  start: Date,
  minutes: number,
  discountPercent = 0,
): Priced {
  const paid = paidMinutes(zone, timeZone, start, minutes);
  const parkingCents = centsFor(zone.rateCents, paid, discountPercent);
  return { paidMinutes: paid, parkingCents, discountCents: centsFor(zone.rateCents, paid) - parkingCents };
}

/**
 * What Stop gives back: the unused whole minutes at the end of the session, priced as they were
 * bought (the paid minutes among them, at the session's rate and discount), never more than what is left.
 */
export function refundFor(
  zone: PaidSchedule,
  timeZone: string,
  s: { rateCents: number; discountPercent: number; endsAt: Date; parkingCents: number; refundedCents: number },
  now: Date,
): { unusedMinutes: number; refundCents: number } {
  const unused = Math.max(0, Math.floor((s.endsAt.getTime() - now.getTime()) / MINUTE_MS));
  if (unused === 0) return { unusedMinutes: 0, refundCents: 0 };
  const from = new Date(s.endsAt.getTime() - unused * MINUTE_MS);
  const cents = centsFor(s.rateCents, paidMinutes(zone, timeZone, from, unused), s.discountPercent);
  return { unusedMinutes: unused, refundCents: Math.max(0, Math.min(cents, s.parkingCents - s.refundedCents)) };
}
