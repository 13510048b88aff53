import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { amountToCents, centsToAmount, formatMoney } from './money.ts';

describe('formatMoney', () => {
  it('shows exactly two decimals in en-US style', () => {
    expect(formatMoney(3.23)).toBe('3.23');
    expect(formatMoney(5)).toBe('5.00');
    expect(formatMoney('1234.5')).toBe('1,234.50');
    expect(formatMoney(0.005)).toBe('0.01');
  });
  it.each([undefined, null, '', 'abc', NaN, Infinity, {}, []])('shows 0.00 for %s', (v) =>
    expect(formatMoney(v)).toBe('0.00'),
  );
});

describe('cents and amounts', () => {
  it('parses decimal amounts with at most two places', () => {
    expect(amountToCents('12.34')).toBe(1234);
    expect(amountToCents('12.3')).toBe(1230);
    expect(amountToCents('12')).toBe(1200);
    expect(amountToCents(0.1 + 0.2)).toBe(30);
    expect(amountToCents('-1.50')).toBe(-150);
  });
  it('refuses what is not an amount', () => {
    for (const bad of ['', 'abc', '1.234', '1e3', '1,000', ' . ', NaN, Infinity]) expect(amountToCents(bad)).toBeNull();
  });
  it('round-trips every cent amount', () => {
    fc.assert(
      fc.property(fc.integer({ min: -10_000_000, max: 10_000_000 }), (cents) => {
        expect(amountToCents(centsToAmount(cents))).toBe(cents);
        expect(amountToCents(centsToAmount(cents).toFixed(2))).toBe(cents);
      }),
    );
  });
  it('refuses cents that are not safe integers', () => {
    expect(() => centsToAmount(1.5)).toThrow(RangeError);
  });
});
