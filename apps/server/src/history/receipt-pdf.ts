import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import PDFDocument from 'pdfkit';
import { formatMoney } from '@parkit/contract';
import { formatLocal } from './local-time.ts';
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

// Hindi needs a Devanagari font: Noto Sans Devanagari, shipped by an npm package (no download).
// Its 'devanagari' file holds the Devanagari glyphs; Latin text (plates, amounts) uses Helvetica.
const require = createRequire(import.meta.url);
let devanagari: Buffer | null = null;
function devanagariFont(): Buffer {
  devanagari ??= readFileSync(
    require.resolve('@fontsource/noto-sans-devanagari/files/noto-sans-devanagari-devanagari-400-normal.woff'),
  );
  return devanagari;
}

// The Devanagari file has no Latin glyphs (not even parentheses): text is split into runs, each
// in the font that has its letters.
const DEVANAGARI_RUN = /([\u0900-\u097F\u200C\u200D]+(?:\s+[\u0900-\u097F\u200C\u200D]+)*)/;

/** One A4 page: the operator, zone, address, plate, times, amounts, fee and payment method. */
export function receiptPdf(r: ReceiptData, lang: ReceiptLanguage): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: 56,
    info: { Title: `ParkIt receipt ${r.sessionId}`, Author: 'ParkIt', Subject: r.plateNumber },
  });
  if (lang === 'hi') doc.registerFont('deva', devanagariFont());
  const t = (s: string) => receiptText(lang, s);
  /** Writes text whose Devanagari runs use the Devanagari font and everything else Helvetica. */
  const write = (
    s: string,
    size: number,
    color: string,
    at?: { x: number; y: number; width: number },
    bold = false,
  ) => {
    const runs = s.split(DEVANAGARI_RUN).filter((run) => run !== '');
    doc.fontSize(size).fillColor(color);
    runs.forEach((run, i) => {
      doc.font(DEVANAGARI_RUN.test(run) && lang === 'hi' ? 'deva' : bold ? 'Helvetica-Bold' : 'Helvetica');
      const opts = { continued: i < runs.length - 1, ...(at ? { width: at.width } : {}) };
      if (i === 0 && at) doc.text(run, at.x, at.y, opts);
      else doc.text(run, opts);
    });
  };
  const money = (cents: number) => `${r.currencySymbol}${formatMoney(cents / 100)}`;

  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  write('ParkIt', 26, '#0f766e', undefined, true);
  write(t('Parking Receipt'), 16, '#0f172a');
  doc.moveDown(0.3);
  write(r.operatorName, 11, '#475569');
  doc.moveDown(1);

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
  const labelX = 56;
  const valueX = 230;
  for (const [label, value] of rows) {
    const y = doc.y;
    write(label, 11, '#475569', { x: labelX, y, width: valueX - labelX - 12 });
    const afterLabel = doc.y;
    write(value, 11, '#0f172a', { x: valueX, y, width: 300 }, label === t('Amount Paid'));
    doc.y = Math.max(afterLabel, doc.y) + 6;
  }
  doc.moveDown(1);
  write(`${t('Times are local to the zone')} (${r.timeZone})`, 9, '#64748b', { x: labelX, y: doc.y, width: 480 });
  doc.moveDown(0.5);
  write(t('Thank you for parking with ParkIt.'), 11, '#0f172a', { x: labelX, y: doc.y, width: 480 });
  doc.end();
  return done;
}
