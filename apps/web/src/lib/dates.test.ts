import { afterEach, describe, expect, it } from 'vitest';
import { formatDate, formatDateLong, formatTime } from './dates.ts';
import { setLanguage } from './i18n.ts';

const at = new Date(2026, 10, 27, 20, 5);

describe('dates and times in the reader’s language', () => {
  afterEach(() => setLanguage('en'));

  it("English: the spec's formats letter for letter", () => {
    expect(formatDate(at)).toBe('27-Nov-2026');
    expect(formatDateLong(at)).toBe('27 Nov 2026');
    expect(formatTime(at)).toBe('08:05 PM');
    expect(formatDate('')).toBe('NA');
    expect(formatDateLong(null)).toBe('');
  });

  it('Hindi: the same fields as Intl writes them in Hindi', async () => {
    await setLanguage('hi');
    expect(formatDateLong(at)).toBe(
      new Intl.DateTimeFormat('hi', { day: '2-digit', month: 'short', year: 'numeric' }).format(at),
    );
    expect(formatDateLong(at)).toMatch(/^27 \S*नव\S* 2026$/);
    expect(formatTime(at)).toMatch(/^08:05 /);
    expect(formatTime(at)).not.toContain('PM');
    // A calendar day is that day wherever the phone is.
    expect(formatDate('2026-11-27')).toMatch(/^27 /);
    expect(formatDate('0000-00-00')).toBe('NA');
    expect(formatTime('')).toBe('');
  });

  it('Spanish: the same fields as Intl writes them in US Spanish (es-US)', async () => {
    await setLanguage('es');
    expect(formatDateLong(at)).toBe(
      new Intl.DateTimeFormat('es-US', { day: '2-digit', month: 'short', year: 'numeric' }).format(at),
    );
    expect(formatDateLong(at)).toMatch(/^27 nov\.? 2026$/);
    expect(formatTime(at)).toMatch(/^08:05 p\.\s?m\.$/);
    expect(formatDate('2026-11-27')).toMatch(/^27 /);
    expect(formatDate('0000-00-00')).toBe('NA');
  });
});
