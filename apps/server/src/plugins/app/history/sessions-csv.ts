/** The filtered history as CSV (RFC 4180) for expense reports. */
export interface CsvSession {
  sessionId: number;
  startedAt: Date;
  endedAt: Date;
  durationMinutes: number;
  zoneNumber: string;
  address: string;
  city: string;
  state: string;
  plateNumber: string;
  plateState: string;
  amountCents: number;
  feeCents: number;
  paidVia: string;
  status: string;
}

export const CSV_HEADER = [
  'SessionId', 'StartedAt', 'EndedAt', 'DurationMinutes', 'ZoneNumber', 'Address', 'City', 'State',
  'PlateNumber', 'PlateState', 'AmountPaid', 'FeeAmount', 'PaidVia', 'Status',
] as const;

/**
 * Quotes a field when it needs it, and defuses spreadsheet formulas: a cell starting with = + - @
 * (or a tab/CR) is prefixed with ' so an address like "=HYPERLINK(...)" stays text (OWASP CSV injection).
 */
export function csvField(value: string | number): string {
  let s = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

const amount = (cents: number) => (cents / 100).toFixed(2);

export function csvRow(s: CsvSession): string {
  return [
    s.sessionId, s.startedAt.toISOString(), s.endedAt.toISOString(), s.durationMinutes, s.zoneNumber, s.address,
    s.city, s.state, s.plateNumber, s.plateState, amount(s.amountCents), amount(s.feeCents), s.paidVia, s.status,
  ].map(csvField).join(',') + '\r\n';
}

export const csvHeaderLine = () => CSV_HEADER.join(',') + '\r\n';
