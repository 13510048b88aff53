import { formatMoney } from '@parkit/contract';
import { formatLocal } from '../lib/local-time.ts';
import { pdfPage } from '../lib/pdf-layout.ts';
import { receiptText, type ReceiptLanguage } from './receipt-labels.ts';

/** Everything a receipt prints; amounts in integer cents. */
export interface ReceiptData {
  sessionId: number;
  operatorName: string;
  zoneNumber: string;
  address: string;
  city: string;
  state: string;
  plateNumber: string;
  plateState: string;
  vehicle: string;
  startedAt: Date;
  endedAt: Date;
  durationMinutes: number;
  parkingCents: number;
  feeCents: number;
  totalCents: number;
  paidVia: string;
  paymentStatus: string;
  timeZone: string;
  currencySymbol: string;
}

/** One A4 page: the operator, zone, address, plate, times, amounts, fee and payment method. */
export function receiptPdf(r: ReceiptData, lang: ReceiptLanguage): Promise<Buffer> {
  const pdf = pdfPage({ Title: `ParkIt receipt ${r.sessionId}`, Subject: r.plateNumber }, lang);
  const t = (s: string) => receiptText(lang, s);
  const money = (cents: number) => `${r.currencySymbol}${formatMoney(cents / 100)}`;

  pdf.header(t('Parking Receipt'), r.operatorName);
  const rows: [string, string][] = [
    [t('Session ID'), String(r.sessionId)],
    [t('Operator'), r.operatorName],
    [t('Zone'), r.zoneNumber],
    [t('Address'), `${r.address}, ${r.city}, ${r.state}`],
    [t('Vehicle Plate #'), r.plateNumber],
    [t('State'), r.plateState],
    [t('Vehicle'), r.vehicle],
    [t('Started'), formatLocal(r.startedAt, r.timeZone, lang)],
    [t('Ended'), formatLocal(r.endedAt, r.timeZone, lang)],
    [t('Duration (Minutes)'), String(r.durationMinutes)],
    [t('Parking Amount'), money(r.parkingCents)],
    [t('Convenience Fee'), money(r.feeCents)],
    [t('Amount Paid'), money(r.totalCents)],
    [t('Paid Via'), r.paidVia],
    [t('Payment Status'), t(r.paymentStatus)],
  ];
  pdf.rows(rows, (label) => label === t('Amount Paid'));
  pdf.doc.moveDown(1);
  pdf.note(`${t('Times are local to the zone')} (${r.timeZone})`, 9);
  pdf.doc.moveDown(0.5);
  pdf.note(t('Thank you for parking with ParkIt.'));
  return pdf.end();
}
