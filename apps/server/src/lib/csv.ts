/**
 * One CSV field (RFC 4180): quoted when it needs it, and spreadsheet formulas defused: a cell
 * starting with = + - @ (or a tab/CR) is prefixed with ' so an address like "=HYPERLINK(...)"
 * stays text (OWASP CSV injection). Numbers are written as they are.
 */
export function csvField(value: string | number): string {
  let s = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
