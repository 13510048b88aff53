import { parkedMinutes, type PriceSpan } from '@parkit/contract';
import { priceWindow, spansView, type SessionPolicy } from '../pricing/index.ts';

/**
 * Parking prices through the pricing domain's engine (docs/pricing.md): a new session is the window
 * [0, minutes) of its stay under the policy in force at its start; an extension the minutes it adds
 * after the session's end, under the session's own policy version, so the progressive rates, fees
 * and caps continue where the session is; a refund the whole minutes given back. The plan's
 * discount is taken off once, rounded half-up; the plan's fee is added by the caller.
 */

const MINUTE_MS = 60_000;

export interface Priced {
  paidMinutes: number;
  /** What is charged: after the plan's discount. */
  parkingCents: number;
  /** What the discount took off (0 without one). */
  discountCents: number;
  /** The stretches crossed, for the quote's answer. */
  spans: PriceSpan[];
  /** Longer than a maximum stay of the policy or of a span crossed. */
  overMaxStay: boolean;
  noReturnMinutes: number;
  /** The version that priced it (null: the zone's preset). */
  versionId: number | null;
}

/** Minutes [from, to) of a stay that started at `stayStart`. */
export function priceOf(
  p: SessionPolicy,
  timeZone: string,
  stayStart: Date,
  from: number,
  to: number,
  discountPercent = 0,
): Priced {
  const w = priceWindow(p.policy, timeZone, stayStart.getTime(), from, to, { discountPercent, permits: p.permits });
  return {
    paidMinutes: w.paidMinutes,
    parkingCents: w.parkingCents,
    discountCents: w.discountCents,
    spans: spansView(w, stayStart.getTime()),
    overMaxStay: w.refusal !== null,
    noReturnMinutes: w.noReturnMinutes,
    versionId: p.versionId,
  };
}

/** The whole minutes a session has bought so far: from its start to its end. */
export function boughtMinutes(s: { startedAt: Date; endsAt: Date }): number {
  return Math.round((s.endsAt.getTime() - s.startedAt.getTime()) / MINUTE_MS);
}

/** `minutes` more after a session's end, under its own policy and discount. */
export function priceMore(
  p: SessionPolicy,
  timeZone: string,
  s: { startedAt: Date; endsAt: Date; discountPercent: number },
  minutes: number,
): Priced {
  const bought = boughtMinutes(s);
  return priceOf(p, timeZone, s.startedAt, bought, bought + minutes, s.discountPercent);
}

/**
 * What Stop gives back: the unused whole minutes at the end of the session, priced as they were
 * bought (what the stay costs to its end less what it costs to now), never more than what is left.
 */
export function refundFor(
  p: SessionPolicy,
  timeZone: string,
  s: { startedAt: Date; endsAt: Date; discountPercent: number; parkingCents: number; refundedCents: number },
  now: Date,
): { unusedMinutes: number; refundCents: number } {
  const unused = Math.max(0, Math.floor((s.endsAt.getTime() - now.getTime()) / MINUTE_MS));
  if (unused === 0) return { unusedMinutes: 0, refundCents: 0 };
  const bought = boughtMinutes(s);
  const cents = priceOf(p, timeZone, s.startedAt, Math.max(0, bought - unused), bought, s.discountPercent).parkingCents;
  return { unusedMinutes: unused, refundCents: Math.max(0, Math.min(cents, s.parkingCents - s.refundedCents)) };
}

/**
 * What a Stop at `now` gives back and takes off (stopOwned's and stop-statement.ts's): refundFor's
 * refund of the unused whole minutes, and the minutes taken off the session by the contract's
 * parked-duration rule (every minute begun is kept, at least the first; the same count as
 * refundFor's, its bound kept in case they ever differ).
 */
export function stopPriced(
  p: SessionPolicy,
  timeZone: string,
  s: {
    startedAt: Date;
    endsAt: Date;
    durationMinutes: number;
    discountPercent: number;
    parkingCents: number;
    refundedCents: number;
  },
  now: Date,
): { unused: number; refundCents: number } {
  const { unusedMinutes, refundCents } = refundFor(p, timeZone, s, now);
  const kept = parkedMinutes({ StartedAt: s.startedAt, EndedAt: now, DurationMinutes: s.durationMinutes });
  return { unused: Math.min(unusedMinutes, s.durationMinutes - kept), refundCents };
}
