import { csvField } from '../lib/csv.ts';
import type { Language } from '../lib/language.ts';
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

/** The header in the reader's language; English keeps the field names above. */
const HEADERS: Record<Exclude<Language, 'en'>, Record<(typeof CSV_HEADER)[number], string>> = {
  hi: {
    SessionId: 'सत्र आईडी',
    StartedAt: 'शुरू',
    EndedAt: 'समाप्त',
    DurationMinutes: 'अवधि (मिनट)',
    ZoneNumber: 'ज़ोन',
    Address: 'पता',
    City: 'शहर',
    State: 'राज्य',
    PlateNumber: 'वाहन प्लेट #',
    PlateState: 'प्लेट का राज्य',
    AmountPaid: 'भुगतान की गई राशि',
    FeeAmount: 'सुविधा शुल्क',
    PaidVia: 'भुगतान माध्यम',
    Status: 'स्थिति',
  },
  es: {
    SessionId: 'Id. de sesión',
    StartedAt: 'Inicio',
    EndedAt: 'Fin',
    DurationMinutes: 'Duración (minutos)',
    ZoneNumber: 'Zona',
    Address: 'Dirección',
    City: 'Ciudad',
    State: 'Estado',
    PlateNumber: 'Número de placa',
    PlateState: 'Estado de la placa',
    AmountPaid: 'Monto pagado',
    FeeAmount: 'Cargo por servicio',
    PaidVia: 'Pagado con',
    Status: 'Estado de la sesión',
  },
};

export const csvHeaderLine = (lang: Language = 'en') =>
  (lang === 'en' ? [...CSV_HEADER] : CSV_HEADER.map((h) => HEADERS[lang][h])).map(csvField).join(',') + '\r\n';
