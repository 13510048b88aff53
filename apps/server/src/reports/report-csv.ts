import { csvLine } from '../lib/csv.ts';
import type { Language } from '../lib/language.ts';
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

type SessionsColumn = (typeof SESSIONS_CSV_HEADER)[number];
type HoursColumn = (typeof HOURS_CSV_HEADER)[number];

/** The headers in the reader's language; English keeps the field names above (a pipeline's keys). */
const HEADERS: Record<Exclude<Language, 'en'>, Record<SessionsColumn | HoursColumn, string>> = {
  hi: {
    SessionId: 'सत्र आईडी',
    ZoneNumber: 'ज़ोन',
    StartedAt: 'शुरू (UTC)',
    EndedAt: 'समाप्त (UTC)',
    Status: 'स्थिति',
    StayMinutes: 'ठहराव (मिनट)',
    ParkingCents: 'पार्किंग (सेंट)',
    FeeCents: 'सुविधा शुल्क (सेंट)',
    RefundedCents: 'रिफ़ंड (सेंट)',
    DiscountCents: 'छूट (सेंट)',
    RevenueCents: 'राजस्व (सेंट)',
    Hour: 'घंटा (UTC)',
    SessionsStarted: 'शुरू हुए सत्र',
    StaySeconds: 'ठहराव (सेकंड)',
    OccupiedSeconds: 'भरे रहने का समय (सेकंड)',
  },
  es: {
    SessionId: 'Id. de sesión',
    ZoneNumber: 'Zona',
    StartedAt: 'Inicio (UTC)',
    EndedAt: 'Fin (UTC)',
    Status: 'Estado de la sesión',
    StayMinutes: 'Estancia (minutos)',
    ParkingCents: 'Estacionamiento (centavos)',
    FeeCents: 'Cargo por servicio (centavos)',
    RefundedCents: 'Reembolsado (centavos)',
    DiscountCents: 'Descuento (centavos)',
    RevenueCents: 'Ingresos (centavos)',
    Hour: 'Hora (UTC)',
    SessionsStarted: 'Sesiones iniciadas',
    StaySeconds: 'Estancia (segundos)',
    OccupiedSeconds: 'Ocupación (segundos)',
  },
};

/** A CSV's header line in the reader's language (the console's Accept-Language). */
export const csvHeader = (names: readonly (SessionsColumn | HoursColumn)[], lang: Language = 'en') =>
  csvLine(lang === 'en' ? names : names.map((n) => HEADERS[lang][n]));
