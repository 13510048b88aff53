import { localTimeAt } from '../lib/local-clock.ts';
import { spanAt, type CompiledPolicy } from './compiled-policy.ts';

/** What Find Parking shows of a zone's price now: the rate a stay starting now pays, and whether it pays at all. */
export interface RateNow {
  rateCents: number;
  paidNow: boolean;
  maxStayMinutes: number;
  /**
   * When paid now: the local time ('HH:MM') the paid period ends by the policy, or null when it
   * runs on for a day or more; null when free now.
   */
  paidUntil: string | null;
}

const DAY_MINUTES = 1440;
/** A zone's offset changes only at whole or half hours: the walk re-reads the clock at least this often. */
const WALK_STEP = 30;

const paidAt = (c: CompiledPolicy, timeZone: string, ms: number) => {
  const t = localTimeAt(ms, timeZone);
  const idx = spanAt(c, t);
  return { t, paid: idx >= 0 && (c.spans[idx]!.steps[0]?.CentsPerHour ?? 0) > 0 };
};

/**
 * The end of the paid period that holds `ms`, by the policy (the same rule the rate and the quote
 * use): a walk from boundary to boundary of the policy's spans (and every half hour, for the
 * offset), at most a day ahead. Null when it does not end within a day.
 */
function paidPeriodEnd(c: CompiledPolicy, timeZone: string, ms: number): string | null {
  const startMs = Math.floor(ms / 60_000) * 60_000;
  let at = startMs;
  let { t } = paidAt(c, timeZone, at);
  while (at - startMs < DAY_MINUTES * 60_000) {
    const next = c.boundaries.find((b) => b > t.minute) ?? DAY_MINUTES;
    at += Math.min(next - t.minute, WALK_STEP) * 60_000;
    const now = paidAt(c, timeZone, at);
    t = now.t;
    if (!now.paid) {
      if (at - startMs >= DAY_MINUTES * 60_000) return null;
      const hh = String(Math.floor(t.minute / 60)).padStart(2, '0');
      return `${hh}:${String(t.minute % 60).padStart(2, '0')}`;
    }
  }
  return null;
}

/**
 * A policy's rate for a stay starting at `ms`: the first rate of the span in force then (paid when
 * it is above zero), and until when it is paid; in no span, free now, and the first rate above zero
 * of any span is shown.
 */
export function rateNow(c: CompiledPolicy, timeZone: string, ms: number): RateNow {
  const idx = spanAt(c, localTimeAt(ms, timeZone));
  const span = idx >= 0 ? c.spans[idx] : undefined;
  if (span) {
    const cents = span.steps[0]?.CentsPerHour ?? 0;
    return {
      rateCents: cents,
      paidNow: cents > 0,
      maxStayMinutes: c.maxStayMinutes,
      paidUntil: cents > 0 ? paidPeriodEnd(c, timeZone, ms) : null,
    };
  }
  const later = c.spans.map((s) => s.steps[0]?.CentsPerHour ?? 0).find((cents) => cents > 0) ?? 0;
  return { rateCents: later, paidNow: false, maxStayMinutes: c.maxStayMinutes, paidUntil: null };
}
