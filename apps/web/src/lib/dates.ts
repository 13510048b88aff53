import { formatDate as specDate, formatDateLong as specDateLong, formatTime as specTime } from '@parkit/contract';
import i18n, { LOCALES } from './i18n.ts';

/**
 * Dates and times on screen, in the reader's language. English keeps the spec's formats
 * letter for letter (docs/product.md#formats-and-limits: 'DD-MMM-YYYY', 'DD MMM YYYY', 'hh:mm A');
 * another language gets Intl's form of the same fields in its locale ("27 नव॰ 2026", "08:05 pm"; es-US
 * "27 nov 2026", "08:05 p.m."). Nothing to show
 * stays as the spec has it ('NA', '').
 */

const made = new Map<string, Intl.DateTimeFormat>();
/** Made on first use and kept (the first Intl formatter of a page is slow to make: issue 9). */
function intl(kind: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${i18n.language}:${kind}`;
  let f = made.get(key);
  if (!f) made.set(key, (f = new Intl.DateTimeFormat(LOCALES[i18n.language], options)));
  return f;
}

function localised(value: unknown, spec: (v: unknown) => string, kind: string, options: Intl.DateTimeFormatOptions) {
  const english = spec(value);
  if (i18n.language === 'en' || english === '' || english === 'NA') return english;
  return intl(kind, options).format(value instanceof Date ? value : new Date(asInstant(value)));
}

/** A date-only string is a calendar day in the phone's time, as the spec's formatters read it. */
function asInstant(value: unknown): string | number {
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value.trim())) return `${value.trim()}T00:00:00`;
  return value as string | number;
}

/** DD-MMM-YYYY in English. */
export const formatDate = (value: unknown) =>
  localised(value, specDate, 'date', { day: '2-digit', month: 'short', year: 'numeric' });

/** DD MMM YYYY in English. */
export const formatDateLong = (value: unknown) =>
  localised(value, specDateLong, 'long', { day: '2-digit', month: 'short', year: 'numeric' });

/** hh:mm A in English. */
export const formatTime = (value: unknown) =>
  localised(value, specTime, 'time', { hour: '2-digit', minute: '2-digit' });
