import { describe, expect, it } from 'vitest';
import { acceptsDigitKey, formatDate, formatDateLong, formatTime } from './format.ts';

describe('formatDate (DD-MMM-YYYY)', () => {
  it('formats a calendar day without shifting it by time zone', () => {
    expect(formatDate('2024-09-12')).toBe('12-Sep-2024');
    expect(formatDate('2024-01-05')).toBe('05-Jan-2024');
  });
  it('formats an instant in local time', () => {
    expect(formatDate(new Date(2025, 11, 31, 23, 59))).toBe('31-Dec-2025');
  });
  it.each([undefined, null, '', '   ', '0000-00-00', '0000-00-00 00:00:00', 'not a date', '2024-02-30', {}, NaN])(
    'answers NA for %s',
    (v) => expect(formatDate(v)).toBe('NA'),
  );
});

describe('formatDateLong (DD MMM YYYY) and formatTime (hh:mm A)', () => {
  it('formats day and time', () => {
    const d = new Date(2024, 8, 12, 14, 5);
    expect(formatDateLong(d)).toBe('12 Sep 2024');
    expect(formatTime(d)).toBe('02:05 PM');
  });
  it('uses 12 for midnight and noon', () => {
    expect(formatTime(new Date(2024, 0, 1, 0, 7))).toBe('12:07 AM');
    expect(formatTime(new Date(2024, 0, 1, 12, 0))).toBe('12:00 PM');
  });
  it('reads a date with a time as that instant, only a bare YYYY-MM-DD as a calendar day', () => {
    // Local date-times, so the test holds in every time zone.
    expect(formatTime('2024-09-12T14:05:00')).toBe('02:05 PM');
    expect(formatDateLong('2024-09-12T23:59:00')).toBe('12 Sep 2024');
    expect(formatTime('2024-09-12')).toBe('12:00 AM');
  });
  it('answers empty for no date', () => {
    expect(formatDateLong('')).toBe('');
    expect(formatTime(null)).toBe('');
  });
});

describe('acceptsDigitKey', () => {
  it('takes digits and refuses anything else', () => {
    expect(acceptsDigitKey('', '7')).toBe(true);
    expect(acceptsDigitKey('12', 'a')).toBe(false);
    expect(acceptsDigitKey('12', '-')).toBe(false);
    expect(acceptsDigitKey('12', ' ')).toBe(false);
  });
  it('refuses a key once the field already holds more than 11 characters', () => {
    expect(acceptsDigitKey('12345678901', '2')).toBe(true); // 11 held: still accepted
    expect(acceptsDigitKey('123456789012', '3')).toBe(false); // 12 held: refused
  });
  it('lets editing keys through', () => {
    expect(acceptsDigitKey('123456789012', 'Backspace')).toBe(true);
    expect(acceptsDigitKey('1', 'Tab')).toBe(true);
  });
});
