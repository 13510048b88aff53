import i18n from '../../../lib/i18n.ts';
import { describe, expect, it } from 'vitest';
import { moneyIn } from '../../../lib/money.ts';
import { formatKm, formatMinutes, sessionAmount } from './session-format.ts';

const t = i18n.t.bind(i18n);

describe('session formats', () => {
  it('shows the paid amount with two decimals', () => {
    expect(sessionAmount({ AmountPaid: 3.2 }, moneyIn('$'))).toBe('$3.20');
    expect(sessionAmount({ AmountPaid: 3.2 }, moneyIn('₹'))).toBe('₹3.20');
  });
  it('writes durations and distances', () => {
    expect(formatMinutes(23, t)).toBe('23 min');
    expect(formatMinutes(120, t)).toBe('2 h');
    expect(formatMinutes(95, t)).toBe('1 h 35 min');
    expect(formatKm(420, t)).toBe('420 m');
    expect(formatKm(2345, t)).toBe('2.3 km');
    expect(formatKm(23_456, t)).toBe('23 km');
  });
  it("groups and writes a distance's digits as the reader's language does", async () => {
    expect(formatKm(1_234_567, t)).toBe('1,235 km');
    expect(formatKm(123_456_789, t)).toBe('123,457 km');
    await i18n.changeLanguage('hi');
    try {
      expect(formatKm(123_456_789, t)).toMatch(/^1,23,457 /);
      expect(formatKm(2345, t)).toMatch(/^2\.3 /);
    } finally {
      await i18n.changeLanguage('en');
    }
  });
});
