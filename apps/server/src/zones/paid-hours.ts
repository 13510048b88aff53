import { localTimeAt } from '../lib/local-clock.ts';

/**
 * When a zone charges: on its paid ISO weekdays, from paid_from to paid_until local time (minutes
 * after local midnight). Outside those hours parking is free. Stored form:
 * - from in 0..1439, until in 1..1440; 0..1440 is "all day";
 * - until < from crosses midnight (22:00-02:00 belongs to the day it starts on).
 * Local time comes from Intl with the operator's IANA time zone, so DST is handled by the runtime.
 */

export interface PaidSchedule {
  /** ISO weekdays (1 = Monday .. 7 = Sunday). Empty: never paid. */
  paidDays: readonly number[];
  paidFromMinute: number;
  paidUntilMinute: number;
}

export interface PaymentStatus {
  paidNow: boolean;
  /** 'HH:MM' local time when the current paid period ends; null when free now or paid for 24 h or more. */
  paidUntil: string | null;
}

const DAY = 1440;
const WEEK = 7 * DAY;
const CLOCK = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** 'HH:MM' (00:00..23:59, or '24:00' when allowed) to minutes after midnight; null when malformed. */
export function parseClock(value: string, allow24 = false): number | null {
  if (allow24 && value === '24:00') return DAY;
  const m = CLOCK.exec(value);
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
}

/** Minutes after midnight to 'HH:MM'; 1440 (midnight at the end of the day) reads '00:00'. */
export function formatClock(minute: number): string {
  const m = ((minute % DAY) + DAY) % DAY;
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}

/**
 * Paid hours as written in the demo data and import files to the stored minutes. '00:00'-'24:00'
 * is all day; an until of '00:00' after a later from means midnight; until before from crosses
 * midnight. Null when either is malformed or they are equal (ambiguous: nothing or everything).
 */
export function toStoredHours(from: string, until: string): { paidFromMinute: number; paidUntilMinute: number } | null {
  const f = parseClock(from);
  const u = parseClock(until, true);
  if (f === null || u === null || f === u) return null;
  return { paidFromMinute: f, paidUntilMinute: u === 0 ? DAY : u };
}

/** The stored hours back to 'HH:MM' for the API: all day is '00:00'-'24:00', midnight otherwise '00:00'. */
export function storedHoursToClock(s: Pick<PaidSchedule, 'paidFromMinute' | 'paidUntilMinute'>): {
  from: string;
  until: string;
} {
  const allDay = s.paidFromMinute === 0 && s.paidUntilMinute === DAY;
  return { from: formatClock(s.paidFromMinute), until: allDay ? '24:00' : formatClock(s.paidUntilMinute) };
}

const lastLocal = new Map<string, { epochMinute: number; local: { isoDay: number; minute: number } }>();

/**
 * The local ISO weekday and minute after local midnight of an instant in a time zone. Remembered
 * per time zone for the current minute (every zone of an answer shares it: issue 9).
 */
export function localTime(now: Date, timeZone: string): { isoDay: number; minute: number } {
  const epochMinute = Math.floor(now.getTime() / 60_000);
  const last = lastLocal.get(timeZone);
  if (last?.epochMinute === epochMinute) return last.local;
  const local = readLocalTime(now, timeZone);
  lastLocal.set(timeZone, { epochMinute, local });
  return local;
}

function readLocalTime(now: Date, timeZone: string): { isoDay: number; minute: number } {
  const { isoDay, minute } = localTimeAt(now.getTime(), timeZone);
  return { isoDay, minute };
}

/** Paid intervals in minutes of the week (Monday 00:00 = 0), sorted; may run past the week's end. */
export function weekWindows(s: PaidSchedule): [number, number][] {
  const length =
    s.paidUntilMinute > s.paidFromMinute
      ? s.paidUntilMinute - s.paidFromMinute
      : DAY - s.paidFromMinute + s.paidUntilMinute;
  return [...new Set(s.paidDays)]
    .filter((d) => d >= 1 && d <= 7)
    .sort((a, b) => a - b)
    .map((d): [number, number] => {
      const start = (d - 1) * DAY + s.paidFromMinute;
      return [start, start + length];
    });
}

/**
 * The paid windows of last week, this week and next week, in minutes of this week: a window that
 * began last Sunday still runs on Monday. Empty: never paid.
 */
export function paidTimeline(s: PaidSchedule): [number, number][] {
  const windows = weekWindows(s);
  return [
    ...windows.map(([a, b]): [number, number] => [a - WEEK, b - WEEK]),
    ...windows,
    ...windows.map(([a, b]): [number, number] => [a + WEEK, b + WEEK]),
  ];
}

/** Whether payment is required at `now` and, if so, until when (local 'HH:MM'). */
export function paymentStatus(s: PaidSchedule, timeZone: string, now: Date): PaymentStatus {
  return statusOnTimeline(paidTimeline(s), timeZone, now);
}

/** paymentStatus() on a timeline made once (paidTimeline): a zone shown again and again (zone-view.ts). */
export function statusOnTimeline(
  timeline: readonly (readonly [number, number])[],
  timeZone: string,
  now: Date,
): PaymentStatus {
  if (timeline.length === 0) return { paidNow: false, paidUntil: null };
  const { isoDay, minute } = localTime(now, timeZone);
  const t = (isoDay - 1) * DAY + minute;
  const current = timeline.find(([a, b]) => a <= t && t < b);
  if (!current) return { paidNow: false, paidUntil: null };
  // Follow windows that start where (or before) the previous one ends: one continuous paid period.
  let end = current[1];
  for (const [a, b] of timeline) if (a <= end && b > end) end = b;
  return { paidNow: true, paidUntil: end - t >= DAY ? null : formatClock(end) };
}
