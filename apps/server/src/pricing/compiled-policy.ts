import type { PolicyBody, TimeSpan } from '@parkit/contract';
import { clockMinutes, dayBefore, type LocalTime } from '../lib/local-clock.ts';

/**
 * A policy body compiled for the quote engine (engine.ts), and its calendar: which span, if any,
 * holds a minute of the zone's local clock (docs/pricing.md#how-a-stay-is-priced).
 */

const DAY = 1440;

type Step = { FromMinute: number; CentsPerHour: number };

export interface CompiledSpan {
  id: string;
  name: string;
  days: ReadonlySet<number> | null;
  daysOfMonth: ReadonlySet<number> | null;
  months: ReadonlySet<number> | null;
  from: number;
  /** 1..1440; below `from`: the span crosses midnight. */
  until: number;
  startDate: string | null;
  endDate: string | null;
  holidays: 'only' | 'except' | null;
  steps: readonly Step[];
  classes: TimeSpan['UserClasses'];
  increment: number;
  freeMinutes: number;
  minSessionCents: number | null;
  maxSessionCents: number | null;
  maxDayCents: number | null;
  maxStayMinutes: number | null;
  noReturnMinutes: number;
}

export interface CompiledPolicy {
  spans: readonly CompiledSpan[];
  holidays: ReadonlySet<string>;
  maxStayMinutes: number;
  /** Every minute of the day where some span starts or ends, and 1440. */
  boundaries: readonly number[];
}

/** A validated body (the contract's PolicyBody) made ready to price. */
export function compilePolicy(body: PolicyBody): CompiledPolicy {
  const spans = body.Spans.map((s): CompiledSpan => {
    const from = clockMinutes(s.From ?? '00:00');
    const u = clockMinutes(s.Until ?? '24:00');
    return {
      id: s.Id,
      name: s.Name,
      days: s.Days ? new Set(s.Days) : null,
      daysOfMonth: s.DaysOfMonth ? new Set(s.DaysOfMonth) : null,
      months: s.Months ? new Set(s.Months) : null,
      from,
      until: u === 0 ? DAY : u,
      startDate: s.StartDate ?? null,
      endDate: s.EndDate ?? null,
      holidays: s.Holidays ?? null,
      steps: s.Rate,
      classes: s.UserClasses,
      increment: s.IncrementMinutes,
      freeMinutes: s.FreeMinutes,
      minSessionCents: s.MinSessionCents ?? null,
      maxSessionCents: s.MaxSessionCents ?? null,
      maxDayCents: s.MaxDayCents ?? null,
      maxStayMinutes: s.MaxStayMinutes ?? null,
      noReturnMinutes: s.NoReturnMinutes ?? 0,
    };
  });
  const boundaries = new Set<number>([DAY]);
  for (const s of spans) {
    boundaries.add(s.from);
    boundaries.add(s.until % DAY);
  }
  return {
    spans,
    holidays: new Set(body.Holidays),
    maxStayMinutes: body.MaxStayMinutes,
    boundaries: [...boundaries].sort((a, b) => a - b),
  };
}

function dayMatches(c: CompiledPolicy, s: CompiledSpan, date: string, isoDay: number): boolean {
  if (s.days && !s.days.has(isoDay)) return false;
  if (s.daysOfMonth && !s.daysOfMonth.has(Number(date.slice(8, 10)))) return false;
  if (s.months && !s.months.has(Number(date.slice(5, 7)))) return false;
  if (s.startDate !== null && date < s.startDate) return false;
  if (s.endDate !== null && date > s.endDate) return false;
  if (s.holidays === 'only') return c.holidays.has(date);
  if (s.holidays === 'except') return !c.holidays.has(date);
  return true;
}

/** The index of the first span that holds this local minute, or -1. */
export function spanAt(c: CompiledPolicy, t: LocalTime): number {
  for (let i = 0; i < c.spans.length; i++) {
    const s = c.spans[i]!;
    if (s.until > s.from) {
      if (t.minute >= s.from && t.minute < s.until && dayMatches(c, s, t.date, t.isoDay)) return i;
    } else {
      if (t.minute >= s.from && dayMatches(c, s, t.date, t.isoDay)) return i;
      if (t.minute < s.until && dayMatches(c, s, dayBefore(t.date), t.isoDay === 1 ? 7 : t.isoDay - 1)) return i;
    }
  }
  return -1;
}
