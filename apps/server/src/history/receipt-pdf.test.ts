import { describe, expect, it } from 'vitest';
import { pdfText } from '../../test/support/pdf-text.ts';
import { receiptPdf, type ReceiptData } from './receipt-pdf.ts';

const receipt: ReceiptData = {
  sessionId: 4021,
  operatorName: 'City of Austin Parking',
  zoneNumber: '7012',
  address: '301 Congress Ave',
  city: 'Austin',
  state: 'TX',
  plateNumber: 'ABC1234',
  plateState: 'TX',
  vehicle: 'TOYOTA CAMRY',
  startedAt: new Date('2024-09-12T19:05:00Z'),
  endedAt: new Date('2024-09-12T19:28:00Z'),
  durationMinutes: 23,
  parkingCents: 298,
  feeCents: 25,
  totalCents: 323,
  paidVia: 'Wallet',
  paymentStatus: 'Paid',
  timeZone: 'America/Chicago',
  currencySymbol: '$',
};

describe('receiptPdf', () => {
  it('is one page with the operator, zone, address, plate, times, amounts, fee and method', async () => {
    const bytes = await receiptPdf(receipt, 'en');
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const { pages, text } = await pdfText(bytes);
    expect(pages).toBe(1);
    for (const s of [
      'City of Austin Parking',
      '7012',
      '301 Congress Ave, Austin, TX',
      'ABC1234',
      'TOYOTA CAMRY',
      '12 Sep 2024, 02:05 PM',
      '12 Sep 2024, 02:28 PM',
      '$2.98',
      '$0.25',
      '$3.23',
      'Wallet',
      'Paid',
      'Convenience Fee',
    ]) {
      expect(text).toContain(s);
    }
  });

  it('speaks Hindi with a Devanagari font, keeping the plate readable', async () => {
    const { pages, text } = await pdfText(await receiptPdf(receipt, 'hi'));
    expect(pages).toBe(1);
    expect(text).toContain('ABC1234');
    expect(text).toContain('$3.23');
    // PDF.js gives Devanagari in visual order (the i-matra before its consonant): look at words without it.
    expect(text).toContain('शुल्क');
    expect(text).toContain('भुगतान');
    expect(text).toContain('(America/Chicago)'); // Latin punctuation between Devanagari words
    expect(text).not.toContain('Convenience Fee');
  });

  it('speaks Spanish in Helvetica, accents and all', async () => {
    const { pages, text } = await pdfText(await receiptPdf(receipt, 'es'));
    expect(pages).toBe(1);
    for (const s of ['Recibo de estacionamiento', 'Id. de sesión', 'Dirección', 'Número de placa', 'Vehículo']) {
      expect(text).toContain(s);
    }
    expect(text).toContain('Duración (minutos)');
    expect(text).toContain('Estado del pago');
    expect(text).toContain('Pagado');
    expect(text).toContain('Gracias por estacionarse con ParkIt.');
    expect(text).toContain('ABC1234');
    expect(text).toContain('$3.23');
    expect(text).not.toContain('Convenience Fee');
  });
});
