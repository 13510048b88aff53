/** Date and input formats of docs/product.md#formats-and-limits, shared by every screen. */
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

const pad = (n: number) => String(n).padStart(2, '0');

/** A date-only string (YYYY-MM-DD) is a calendar day, not UTC midnight; anything else is an instant. */
function toDate(value: unknown): Date | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value;
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  if (typeof value === 'string') {
    // '' and every 0000-00-00 form are invalid dates below (month 00 is no month).
    const s = value.trim();
    const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
    if (day) {
      const d = new Date(Number(day[1]), Number(day[2]) - 1, Number(day[3]));
      return d.getMonth() === Number(day[2]) - 1 ? d : null;
    }
  }
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** DD-MMM-YYYY, or 'NA' for empty, invalid or 0000-00-00. */
export function formatDate(value: unknown): string {
  const d = toDate(value);
  return d ? `${pad(d.getDate())}-${MONTHS[d.getMonth()]}-${d.getFullYear()}` : 'NA';
}

/** DD MMM YYYY, or '' when there is no date. */
export function formatDateLong(value: unknown): string {
  const d = toDate(value);
  return d ? `${pad(d.getDate())} ${MONTHS[d.getMonth()]} ${d.getFullYear()}` : '';
}

/** hh:mm A (12-hour clock), or '' when there is no time. */
export function formatTime(value: unknown): string {
  const d = toDate(value);
  if (!d) return '';
  const h = d.getHours() % 12 || 12;
  return `${pad(h)}:${pad(d.getMinutes())} ${d.getHours() < 12 ? 'AM' : 'PM'}`;
}

export const DIGIT_FIELD_LIMIT = 11;

/**
 * Digit-only inputs (phone, zip): a key is refused when it is not a digit, or once the field
 * already holds more than 11 characters (docs/product.md#formats-and-limits, kept as written). Editing keys pass.
 */
export function acceptsDigitKey(current: string, key: string): boolean {
  if (key.length !== 1) return true; // Backspace, Tab, arrows…
  return /[0-9]/.test(key) && current.length <= DIGIT_FIELD_LIMIT; // key is one character here
}
