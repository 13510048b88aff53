/**
 * One CSV field: quoted when it needs it, and spreadsheet formulas defused: a cell starting with
 * = + - @ (or a tab/CR) is prefixed with ' so an address like "=HYPERLINK(...)" stays text (OWASP
 * CSV injection). Every CSV the server writes (the history's, the operator's reports) uses it.
 */
export function csvField(value: string | number): string {
  let s = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** One CSV line (CRLF, RFC 4180). */
export const csvLine = (fields: readonly (string | number)[]) => fields.map(csvField).join(',') + '\r\n';
