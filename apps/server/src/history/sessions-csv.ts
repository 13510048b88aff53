import { csvField } from '../lib/csv.ts';
import type { ReceiptData } from './receipt-pdf.ts';

/** The filtered history as CSV (RFC 4180) for expense reports: a receipt's facts, the amount paid and the status. */
export type CsvSession = Pick<
  ReceiptData,
  | 'sessionId'
  | 'startedAt'
  | 'endedAt'
  | 'durationMinutes'
  | 'zoneNumber'
  | 'address'
  | 'city'
  | 'state'
  | 'plateNumber'
  | 'plateState'
  | 'feeCents'
  | 'paidVia'
> & { amountCents: number; status: string };

export const CSV_HEADER = [
  'SessionId',
  'StartedAt',
  'EndedAt',
  'DurationMinutes',
  'ZoneNumber',
  'Address',
  'City',
  'State',
  'PlateNumber',
  'PlateState',
  'AmountPaid',
  'FeeAmount',
  'PaidVia',
  'Status',
] as const;

const amount = (cents: number) => (cents / 100).toFixed(2);

export function csvRow(s: CsvSession): string {
  return (
    [
      s.sessionId,
      s.startedAt.toISOString(),
      s.endedAt.toISOString(),
      s.durationMinutes,
      s.zoneNumber,
      s.address,
      s.city,
      s.state,
      s.plateNumber,
      s.plateState,
      amount(s.amountCents),
      amount(s.feeCents),
      s.paidVia,
      s.status,
    ]
      .map(csvField)
      .join(',') + '\r\n'
  );
}

export const csvHeaderLine = () => CSV_HEADER.join(',') + '\r\n';
