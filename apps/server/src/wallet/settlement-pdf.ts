import PDFDocument from 'pdfkit';
import { formatMoney, type StatementDetail } from '@parkit/contract';

/**
 * A statement as a PDF (A4, the shape of history/receipt-pdf.ts, with the same library): the
 * operator, the period, its totals, then one row per line it covers. Lines run onto more pages.
 */
export function statementPdf(s: StatementDetail, operatorName: string, currencySymbol: string): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: 56,
    info: { Title: `ParkIt statement ${s.StatementId}`, Author: 'ParkIt', Subject: operatorName },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const money = (amount: number) => `${amount < 0 ? '-' : ''}${currencySymbol}${formatMoney(Math.abs(amount))}`;

  doc.font('Helvetica-Bold').fontSize(26).fillColor('#0f766e').text('ParkIt');
  doc.font('Helvetica').fontSize(16).fillColor('#0f172a').text('Settlement statement');
  doc.fontSize(11).fillColor('#475569').text(operatorName);
  doc.moveDown(1);
  const rows: [string, string][] = [
    ['Statement', String(s.StatementId)],
    ['Period', `${s.Period === 'day' ? 'Day' : 'Month'} from ${s.Start}`],
    ['Covers money moved before', s.CutOff],
    ['Issued', `${s.IssuedAt} by ${s.IssuedBy}`],
    ['Gross', money(s.Gross)],
    ['Refunds', money(-s.Refunds)],
    ['Platform fees', money(-s.Fees)],
    ['Net', money(s.Net)],
  ];
  for (const [label, value] of rows) {
    const y = doc.y;
    doc.font('Helvetica').fontSize(11).fillColor('#475569').text(label, 56, y, { width: 170 });
    const after = doc.y;
    doc
      .font(label === 'Net' ? 'Helvetica-Bold' : 'Helvetica')
      .fillColor('#0f172a')
      .text(value, 240, y, { width: 300 });
    doc.y = Math.max(after, doc.y) + 4;
  }
  doc.moveDown(1);
  doc.font('Helvetica-Bold').fontSize(12).fillColor('#0f172a').text(`Lines (${s.Lines.length})`, 56);
  doc.moveDown(0.3);
  const cols = [56, 140, 210, 280, 370, 440];
  const line = (cells: string[], bold = false) => {
    if (doc.y > doc.page.height - 80) doc.addPage();
    const y = doc.y;
    doc
      .font(bold ? 'Helvetica-Bold' : 'Helvetica')
      .fontSize(9)
      .fillColor('#0f172a');
    cells.forEach((c, i) => doc.text(c, cols[i] ?? 56, y, { width: 110, lineBreak: false }));
    doc.y = y + 14;
  };
  line(['Source', 'Id', 'Session', 'Amount', 'Fee', 'At'], true);
  for (const l of s.Lines)
    line([l.Source, String(l.SourceId), String(l.SessionId), money(l.Amount), money(l.Fee), l.At.slice(0, 16)]);
  doc.end();
  return done;
}
