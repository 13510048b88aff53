import { csvLine } from '../lib/csv.ts';
import type { HourCsvRow, SessionCsvRow } from './report-repository.ts';

// The CSVs behind a report (docs/reports.md#csv): money in integer cents, times in UTC (ISO 8601),
// so a spreadsheet's sums are the report's figures to the cent.

const iso = (v: string | Date) => new Date(v).toISOString();
const num = (v: string | number) => Number(v);

export const SESSIONS_CSV_HEADER = [
  'SessionId',
  'ZoneNumber',
  'StartedAt',
  'EndedAt',
  'Status',
  'StayMinutes',
  'ParkingCents',
  'FeeCents',
  'RefundedCents',
  'DiscountCents',
  'RevenueCents',
] as const;

export function sessionCsvLine(r: SessionCsvRow): string {
  return csvLine([
    r.id,
    r.zone_number,
    iso(r.started_at),
    iso(r.ended_at),
    r.status,
    Math.round(num(r.stay_seconds) / 6) / 10,
    r.parking_cents,
    r.fee_cents,
    r.refunded_cents,
    num(r.discount_cents),
    r.parking_cents + r.fee_cents - r.refunded_cents,
  ]);
}

export const HOURS_CSV_HEADER = [
  'Hour',
  'ZoneNumber',
  'SessionsStarted',
  'StaySeconds',
  'ParkingCents',
  'FeeCents',
  'RefundedCents',
  'DiscountCents',
  'OccupiedSeconds',
] as const;

export function hourCsvLine(r: HourCsvRow): string {
  return csvLine([
    iso(r.hour),
    r.zone_number,
    num(r.sessions_started),
    num(r.stay_seconds),
    num(r.parking_cents),
    num(r.fee_cents),
    num(r.refunded_cents),
    num(r.discount_cents),
    num(r.occupied_seconds),
  ]);
}

export const csvHeader = (names: readonly string[]) => csvLine(names);
