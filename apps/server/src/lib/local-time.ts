import { LOCALES, type Language } from './language.ts';

/**
 * The 'DD MMM YYYY, hh:mm A' of docs/product.md#formats-and-limits in a zone's own time zone: a receipt shows the time on
 * the street sign, wherever the server runs.
 */
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

export function formatLocal(instant: Date, timeZone: string, lang: Language = 'en'): string {
  if (lang !== 'en') return localDate(instant, timeZone, lang);
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: 'numeric',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hour12: true,
  }).formatToParts(instant);
  const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  const month = MONTHS[Number(get('month')) - 1] ?? '';
  const hour = get('hour').padStart(2, '0');
  return `${get('day')} ${month} ${get('year')}, ${hour}:${get('minute')} ${get('dayPeriod').toUpperCase()}`;
}

/** Another language: Intl's form of the same fields in its locale ('27 nov 2026, 08:05 p.m.'). */
function localDate(instant: Date, timeZone: string, lang: Language): string {
  return new Intl.DateTimeFormat(LOCALES[lang], {
    timeZone,
    day: '2-digit',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hour12: true,
  }).format(instant);
}
