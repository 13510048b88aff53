import type { StatementDetail } from '@parkit/contract';
import type { Language } from '../lib/language.ts';
import { PDF_MARGIN, pdfPage } from '../lib/pdf-layout.ts';
import { settlementMoney, settlementText, settlementTime, type SettlementLabel } from './settlement-labels.ts';

/** What a statement's PDF prints besides the statement: whose it is, in which zone and currency. */
export interface StatementPdfOptions {
  operatorName: string;
  timeZone: string;
  currencySymbol: string;
}

/**
 * A statement as a PDF (the one layout, lib/pdf-layout.ts, as the receipt): the operator, the
 * period, its totals, then one row per line it covers, running onto more pages. Labels, dates
 * and amounts in the console's language; Hindi in Noto Sans Devanagari.
 */
export function statementPdf(s: StatementDetail, o: StatementPdfOptions, lang: Language): Promise<Buffer> {
  const pdf = pdfPage({ Title: `ParkIt statement ${s.StatementId}`, Subject: o.operatorName }, lang);
  const t = (label: SettlementLabel) => settlementText(lang, label);
  const money = (amount: number) => settlementMoney(lang, amount, o.currencySymbol);
  const time = (iso: string) => settlementTime(lang, iso, o.timeZone);

  pdf.header(t('Settlement statement'), o.operatorName);
  pdf.rows(
    [
      [t('Statement'), String(s.StatementId)],
      [t('Period'), `${t(s.Period === 'day' ? 'Day' : 'Month')} ${t('from')} ${s.Start}`],
      [t('Covers money moved before'), time(s.CutOff)],
      [t('Issued'), `${time(s.IssuedAt)} ${t('by')} ${s.IssuedBy}`],
      [t('Gross'), money(s.Gross)],
      [t('Refunds'), money(-s.Refunds)],
      [t('Platform fees'), money(-s.Fees)],
      [t('Net'), money(s.Net)],
    ],
    (label) => label === t('Net'),
  );
  pdf.section(`${t('Lines')} (${s.Lines.length})`);
  const cols = [PDF_MARGIN, 140, 200, 260, 340, 410];
  const line = (cells: string[], bold = false) => {
    if (pdf.doc.y > pdf.doc.page.height - 80) pdf.doc.addPage();
    const y = pdf.doc.y;
    cells.forEach((c, i) => {
      const x = cols[i] ?? PDF_MARGIN;
      pdf.write(c, 9, '#0f172a', { x, y, width: (cols[i + 1] ?? 540) - x - 4 }, bold);
    });
    pdf.doc.y = y + 14;
  };
  line([t('Source'), t('Id'), t('Session'), t('Amount'), t('Fee'), t('At')], true);
  for (const l of s.Lines)
    line([l.Source, String(l.SourceId), String(l.SessionId), money(l.Amount), money(l.Fee), time(l.At)]);
  pdf.doc.moveDown(1);
  pdf.note(`${t('Times are local to the operator')} (${o.timeZone})`, 9);
  return pdf.end();
}
