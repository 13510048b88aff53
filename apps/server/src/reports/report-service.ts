import {
  daysInRange,
  OPERATOR_REPORT_MESSAGES,
  type DayFigures,
  type OperatorDashboard,
  type OperatorReport,
} from '@parkit/contract';
import type { Executor } from '../db/client.ts';
import { HttpError } from '../lib/http-error.ts';
import {
  dailyFigures,
  operatorZones,
  reportFigures,
  runningByZone,
  DAY_HOURS,
  type FigureRow,
  type RollupRange,
  type ZoneRow,
} from './report-repository.ts';

/** The operator a dashboard or report is for: its id and time zone (its days). */
export interface ReportOperator {
  id: number;
  timezone: string;
}

/** The operator's calendar day of a moment, YYYY-MM-DD. */
export function localDay(at: Date, timezone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
}

/** The day `n` days after `day` (n may be negative). */
export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

/** Days from `from` to `to`, both included. */
const eachDay = (from: string, to: string) => Array.from({ length: daysInRange(from, to) }, (_, i) => addDays(from, i));

const n = (v: string | number | null | undefined) => Number(v ?? 0);

/** A figure row's money on the wire: Revenue = Parking + Fees - Refunds. */
function money(r: FigureRow | undefined) {
  const parking = n(r?.parking_cents);
  const fee = n(r?.fee_cents);
  const refunded = n(r?.refunded_cents);
  return {
    ParkingCents: parking,
    FeeCents: fee,
    RefundedCents: refunded,
    DiscountCents: n(r?.discount_cents),
    RevenueCents: parking + fee - refunded,
  };
}

const ratio = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 10_000) / 10_000 : 0);

function dayFigures(days: string[], rows: FigureRow[]): DayFigures[] {
  const byDay = new Map(rows.filter((r) => r.day !== null).map((r) => [r.day!, r]));
  return days.map((d) => {
    const r = byDay.get(d);
    return { Date: d, Sessions: n(r?.sessions), RevenueCents: money(r).RevenueCents };
  });
}

/** The dashboard: sessions running now per zone, today so far and the 30 days up to today. */
export async function dashboard(db: Executor, operator: ReportOperator, now = new Date()): Promise<OperatorDashboard> {
  const today = localDay(now, operator.timezone);
  const from = addDays(today, -29);
  const [zones, running, days] = await Promise.all([
    operatorZones(db, operator.id, []),
    runningByZone(db, operator.id, now),
    dailyFigures(db, { operatorId: operator.id, timezone: operator.timezone, from, to: today, zoneIds: [] }),
  ]);
  const runningIn = new Map(running.map((r) => [r.zone_id, n(r.n)]));
  const todayRow = days.find((d) => d.day === today);
  return {
    AsOf: now.toISOString(),
    Timezone: operator.timezone,
    RunningSessions: running.reduce((a, r) => a + n(r.n), 0),
    Today: { Sessions: n(todayRow?.sessions), ...money(todayRow) },
    Zones: zones
      .filter((z) => !z.retired || runningIn.has(z.id))
      .map((z) => {
        const r = runningIn.get(z.id) ?? 0;
        return {
          ZoneId: z.id,
          ZoneNumber: z.zone_number,
          Name: z.name,
          Latitude: n(z.lat),
          Longitude: n(z.lng),
          Capacity: n(z.capacity),
          Running: r,
          Occupancy: ratio(r, n(z.capacity)),
        };
      }),
    Trend: dayFigures(eachDay(from, today), days),
  };
}

/** The zones a report names, all of them the operator's (404 otherwise, as if they did not exist). */
export async function reportZones(db: Executor, operatorId: number, ids: readonly number[]): Promise<ZoneRow[]> {
  const zones = await operatorZones(db, operatorId, ids);
  if (ids.length && zones.length !== ids.length) throw new HttpError(404, OPERATOR_REPORT_MESSAGES.zoneNotFound);
  return zones;
}

/** The range a report reads, its zones checked. */
export async function reportRange(
  db: Executor,
  operator: ReportOperator,
  q: { from: string; to: string; zoneIds: readonly number[] },
): Promise<{ range: RollupRange; zones: ZoneRow[] }> {
  const zones = await reportZones(db, operator.id, q.zoneIds);
  return {
    range: { operatorId: operator.id, timezone: operator.timezone, from: q.from, to: q.to, zoneIds: q.zoneIds },
    zones,
  };
}

/** The report of a range and zone set: sessions, money, stay, turnover and occupancy. */
export async function report(
  db: Executor,
  operator: ReportOperator,
  q: { from: string; to: string; zoneIds: readonly number[] },
): Promise<OperatorReport> {
  const { range, zones } = await reportRange(db, operator, q);
  const rows = await reportFigures(db, range);
  const days = eachDay(q.from, q.to);
  const capacity = zones.reduce((a, z) => a + n(z.capacity), 0);
  const zoneRows = new Map(rows.filter((r) => r.zone_id !== null).map((r) => [n(r.zone_id), r]));
  const total = (key: keyof FigureRow) => [...zoneRows.values()].reduce((a, r) => a + n(r[key] as number), 0);
  const sessions = total('sessions');
  const weekdays = days.map((d) => new Date(`${d}T00:00:00Z`).getUTCDay() || 7);
  const whole = rows.find((r) => r.zone_id === null && r.dow === null && r.day === null);
  const byDow = new Map(rows.filter((r) => r.dow !== null).map((r) => [n(r.dow), n(r.occupied_seconds)]));
  const totalMoney = money({
    parking_cents: total('parking_cents'),
    fee_cents: total('fee_cents'),
    refunded_cents: total('refunded_cents'),
    discount_cents: total('discount_cents'),
  } as FigureRow);
  return {
    From: q.from,
    To: q.to,
    Timezone: operator.timezone,
    Days: days.length,
    Capacity: capacity,
    Sessions: sessions,
    ...totalMoney,
    AverageStayMinutes: sessions ? Math.round((total('stay_seconds') / sessions / 60) * 10) / 10 : 0,
    Turnover: ratio(sessions, capacity * days.length),
    Occupancy: ratio(total('occupied_seconds'), capacity * 86_400 * days.length),
    ByHourOfDay: Array.from({ length: 24 }, (_, h) => ({
      Hour: h,
      Occupancy: ratio(n(whole?.[`h${DAY_HOURS[h]}`]), capacity * 3600 * days.length),
    })),
    ByDayOfWeek: Array.from({ length: 7 }, (_, i) => ({
      IsoDay: i + 1,
      Occupancy: ratio(byDow.get(i + 1) ?? 0, capacity * 86_400 * weekdays.filter((w) => w === i + 1).length),
    })),
    ByDay: dayFigures(days, rows),
    ByZone: zones.map((z) => {
      const r = zoneRows.get(z.id);
      return {
        ZoneId: z.id,
        ZoneNumber: z.zone_number,
        Name: z.name,
        Capacity: n(z.capacity),
        Sessions: n(r?.sessions),
        ...money(r),
        Occupancy: ratio(n(r?.occupied_seconds), n(z.capacity) * 86_400 * days.length),
      };
    }),
  };
}
