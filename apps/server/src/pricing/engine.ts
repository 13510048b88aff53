import { localTimeAt } from '../lib/local-clock.ts';
import { spanAt, type CompiledPolicy } from './compiled-policy.ts';
import { stepsFor, type Who } from './driver-rates.ts';

/**
 * The quote engine (docs/pricing.md#how-a-stay-is-priced). A stay is the real minutes from its
 * start; each minute is judged by the zone's local clock at that minute (so a DST night has 23 or
 * 25 hours, and the repeated hour is charged twice if paid) and belongs to the first span that
 * matches it, or to none (free). Per span, per local day and per rate step, the minutes are billed
 * in whole increments at the step's rate; a span's day total is capped by its maximum per day, the
 * session's total in the span by its maximum per session, then raised to its minimum per session
 * when the stay paid in it at all. Amounts are kept in sixtieths of a cent (cents per hour x
 * minutes), exact integers, and rounded half-up to the cent once, after the plan's discount.
 *
 * The policy compiled and its calendar are in compiled-policy.ts; the rate a driver pays in a span
 * (user classes, permits) in driver-rates.ts.
 */

const DAY = 1440;
const MINUTE_MS = 60_000;
/** IANA zones change offset only at whole or half hours: a walk re-reads the clock at least that often. */
const STEP_CAP = 30;

/** A stretch of the walk with one span, one local date and one rate. */
interface Chunk {
  span: number;
  date: string;
  /** Index of the rate step; -1: free minutes or exempt. */
  step: number;
  centsPerHour: number;
  startMinute: number;
  endMinute: number;
}

export interface Evaluation {
  /** The stay's amount in sixtieths of a cent, before any discount. */
  v60: number;
  /** Minutes charged at a rate above zero. */
  paidMinutes: number;
  chunks: Chunk[];
  /** Why the stay is not allowed: longer than the policy's or a span's maximum stay. */
  refusal: 'maxStay' | null;
  /** The longest no-return period of the spans the stay touched. */
  noReturnMinutes: number;
}

/** The first `minutes` of a stay starting at `startMs`. */
export function evaluate(
  c: CompiledPolicy,
  timeZone: string,
  startMs: number,
  minutes: number,
  who: Who = {},
): Evaluation {
  const chunks: Chunk[] = [];
  let e = 0;
  while (e < minutes) {
    const t = localTimeAt(startMs + e * MINUTE_MS, timeZone);
    const idx = spanAt(c, t);
    const next = c.boundaries.find((b) => b > t.minute) ?? DAY;
    let len = Math.min(minutes - e, next - t.minute, STEP_CAP - (t.minute % STEP_CAP));
    let step = -1;
    let cph = 0;
    if (idx >= 0) {
      const s = c.spans[idx]!;
      const steps = stepsFor(s, who);
      if (e < s.freeMinutes) len = Math.min(len, s.freeMinutes - e);
      else if (steps.length > 0) {
        step = 0;
        while (step + 1 < steps.length && steps[step + 1]!.FromMinute <= e) step++;
        const after = steps[step + 1];
        if (after) len = Math.min(len, after.FromMinute - e);
        cph = steps[step]!.CentsPerHour;
      }
    }
    chunks.push({ span: idx, date: t.date, step, centsPerHour: cph, startMinute: e, endMinute: e + len });
    e += len;
  }
  return summarize(c, chunks, minutes);
}

function summarize(c: CompiledPolicy, chunks: Chunk[], minutes: number): Evaluation {
  // span -> date|step -> minutes
  const counts = new Map<number, Map<string, { date: string; step: number; cph: number; n: number }>>();
  const inSpan = new Map<number, number>();
  const paidIn = new Map<number, number>();
  let paidMinutes = 0;
  for (const k of chunks) {
    if (k.span < 0) continue;
    const n = k.endMinute - k.startMinute;
    inSpan.set(k.span, (inSpan.get(k.span) ?? 0) + n);
    if (k.step < 0) continue;
    let m = counts.get(k.span);
    if (!m) counts.set(k.span, (m = new Map()));
    const key = `${k.date}|${k.step}`;
    const cur = m.get(key);
    if (cur) cur.n += n;
    else m.set(key, { date: k.date, step: k.step, cph: k.centsPerHour, n });
    if (k.centsPerHour > 0) {
      paidIn.set(k.span, (paidIn.get(k.span) ?? 0) + n);
      paidMinutes += n;
    }
  }
  let v60 = 0;
  for (const [idx, m] of counts) {
    const s = c.spans[idx]!;
    const days = new Map<string, number>();
    for (const { date, cph, n } of m.values()) {
      const billed = Math.ceil(n / s.increment) * s.increment;
      days.set(date, (days.get(date) ?? 0) + billed * cph);
    }
    let total = 0;
    for (const d of days.values()) total += s.maxDayCents === null ? d : Math.min(d, s.maxDayCents * 60);
    if (s.maxSessionCents !== null) total = Math.min(total, s.maxSessionCents * 60);
    if (s.minSessionCents !== null && (paidIn.get(idx) ?? 0) > 0) total = Math.max(total, s.minSessionCents * 60);
    v60 += total;
  }
  let refusal: Evaluation['refusal'] = minutes > c.maxStayMinutes ? 'maxStay' : null;
  let noReturnMinutes = 0;
  for (const [idx, n] of inSpan) {
    const s = c.spans[idx]!;
    if (s.maxStayMinutes !== null && n > s.maxStayMinutes) refusal = 'maxStay';
    noReturnMinutes = Math.max(noReturnMinutes, s.noReturnMinutes);
  }
  return { v60, paidMinutes, chunks, refusal, noReturnMinutes };
}

/** Sixtieths of a cent, less a discount in percent, rounded half-up to the cent. */
export function roundCents(v60: number, discountPercent = 0): number {
  return Math.floor((2 * v60 * (100 - discountPercent) + 6000) / 12000);
}

export interface Stretch {
  spanId: string | null;
  name: string | null;
  startMinute: number;
  endMinute: number;
  /** Cents before the discount; the stretches add up to the window's amount before the discount. */
  cents: number;
}

export interface WindowPrice {
  /** What is charged: after the plan's discount. */
  parkingCents: number;
  /** What the discount took off. */
  discountCents: number;
  paidMinutes: number;
  stretches: Stretch[];
  refusal: Evaluation['refusal'];
  noReturnMinutes: number;
}

/**
 * The price of the minutes [from, to) of a stay that started at `startMs`: what the stay costs to
 * `to` less what it cost to `from`. A new session is [0, minutes); an extension prices its added
 * minutes at the session's place in the progressive rates, fees and caps; a refund the minutes
 * given back.
 */
export function priceWindow(
  c: CompiledPolicy,
  timeZone: string,
  startMs: number,
  from: number,
  to: number,
  opts: { discountPercent?: number } & Who = {},
): WindowPrice {
  if (!Number.isInteger(from) || !Number.isInteger(to) || from < 0 || to < from)
    throw new RangeError(`a window is whole minutes 0 <= from <= to, got ${from}..${to}`);
  const who: Who = { classes: opts.classes, permits: opts.permits };
  const whole = evaluate(c, timeZone, startMs, to, who);
  const before = from === 0 ? null : evaluate(c, timeZone, startMs, from, who);
  const delta = whole.v60 - (before?.v60 ?? 0);
  const undiscounted = roundCents(delta);
  const parkingCents = roundCents(delta, opts.discountPercent ?? 0);
  return {
    parkingCents,
    discountCents: undiscounted - parkingCents,
    paidMinutes: whole.paidMinutes - (before?.paidMinutes ?? 0),
    stretches: stretchesOf(c, whole.chunks, from, to, undiscounted),
    refusal: whole.refusal,
    noReturnMinutes: whole.noReturnMinutes,
  };
}

/** The window's chunks merged by span, the window's cents shared by each one's rate x minutes. */
function stretchesOf(c: CompiledPolicy, chunks: readonly Chunk[], from: number, to: number, cents: number): Stretch[] {
  const parts: { span: number; a: number; b: number; w: number }[] = [];
  for (const k of chunks) {
    const a = Math.max(k.startMinute, from);
    const b = Math.min(k.endMinute, to);
    if (a >= b) continue;
    const last = parts.at(-1);
    const w = k.centsPerHour * (b - a);
    if (last && last.span === k.span && last.b === a) {
      last.b = b;
      last.w += w;
    } else parts.push({ span: k.span, a, b, w });
  }
  const total = parts.reduce((sum, p) => sum + p.w, 0);
  let cum = 0;
  let given = 0;
  return parts.map((p, i) => {
    cum += p.w;
    // Shares by weight, cumulated so they add up exactly; without any weight the last takes it all.
    const upTo =
      total === 0 ? (i === parts.length - 1 ? cents : 0) : Number((BigInt(cents) * BigInt(cum)) / BigInt(total));
    const share = upTo - given;
    given = upTo;
    const s = p.span >= 0 ? c.spans[p.span]! : null;
    return { spanId: s?.id ?? null, name: s?.name ?? null, startMinute: p.a, endMinute: p.b, cents: share };
  });
}
