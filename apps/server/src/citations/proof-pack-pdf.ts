import { formatMoney } from '@parkit/contract';
import { formatLocal, pdfPage } from '../history/index.ts';
import type { Language } from '../lib/language.ts';
import {
  anonymisedChecksText,
  checkOutcomeText,
  pastRetentionText,
  proofPackText,
  type ProofPackLabel,
} from './proof-pack-labels.ts';
import type { ProofPack } from './proof-pack-repository.ts';

/**
 * A driver's proof pack for a contest (docs/citations.md#the-proof-pack), written the
 * receipt's way (history's pdfPage): the citation, then the sessions, permits, visitor days and
 * plate checks of its plate that day, each a section of label and value rows; times in the
 * operator's time zone.
 */
export function proofPackPdf(p: ProofPack, lang: Language, currencySymbol: string, now: Date): Promise<Buffer> {
  const c = p.citation;
  const pdf = pdfPage({ Title: `ParkIt proof pack ${c.id}`, Subject: c.plate }, lang);
  const t = (s: ProofPackLabel) => proofPackText(lang, s);
  const at = (d: Date | null) => (d ? formatLocal(d, p.timeZone, lang) : '—');
  const money = (cents: number) => `${currencySymbol}${formatMoney(cents / 100)}`;
  const none = (list: unknown[]) => {
    if (list.length === 0) pdf.note(t('None found.'));
  };

  pdf.header(t('Proof pack'), `${t('Citation')} ${c.id} · ${p.operatorName}`);
  pdf.rows([
    [t('Citation #'), String(c.id)],
    [t('Zone'), c.zoneNumber],
    [t('Vehicle Plate #'), c.plate],
    [t('State'), c.plateState],
    [t('Violation'), `${c.violationCode} · ${c.violation}`],
    [t('Issued'), at(c.issuedAt)],
    [t('Officer ID'), c.officerId === null ? '—' : String(c.officerId)],
    [t('Officer'), c.officerName || '—'],
    [t('Location'), c.location || '—'],
    [t('Fine'), money(c.fineCents)],
  ]);

  pdf.section(`${t('Parking sessions that day')} (${p.day})`);
  none(p.sessions);
  for (const s of p.sessions) {
    pdf.rows([
      [t('Session ID'), String(s.id)],
      [t('Started'), at(s.startedAt)],
      [t('Ended'), at(s.endedAt)],
      [t('Amount Paid'), money(s.amountCents)],
      [t('Quote #'), s.quoteIds.join(', ') || '—'],
      [t('Receipt #'), s.receipt],
    ]);
    pdf.doc.moveDown(0.4);
  }

  pdf.section(t('Permits valid that day'));
  none(p.permits);
  for (const permit of p.permits)
    pdf.rows([
      [t('Permit #'), `${permit.id} · ${permit.typeName}`],
      [t('Valid from'), at(permit.validFrom)],
      [t('Valid until'), at(permit.validUntil)],
    ]);

  pdf.section(t('Visitor days'));
  none(p.visitorDays);
  for (const day of p.visitorDays)
    pdf.rows([
      [t('Visitor day #'), String(day.id)],
      [t('Day'), day.day],
      [t('Permit #'), String(day.permitId)],
    ]);

  pdf.section(t('Plate checks that day'));
  none(p.checks);
  pdf.rows(
    p.checks.map((k): [string, string] => [
      at(k.checkedAt),
      `${checkOutcomeText(lang, k.outcome)}${k.sessionId === null ? '' : ` (${t('session')} ${k.sessionId})`}`,
    ]),
  );
  if (p.anonymisedChecks > 0) pdf.note(anonymisedChecksText(lang, p.anonymisedChecks), 9);
  if (p.pastRetention) pdf.note(pastRetentionText(lang, p.retentionWeeks), 9);

  pdf.doc.moveDown(1);
  pdf.note(`${t('Times are local to the zone')} (${p.timeZone})`, 9);
  pdf.note(`${t('Made from ParkIt’s own records on')} ${at(now)}`, 9);
  return pdf.end();
}
