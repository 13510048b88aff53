import { describe, expect, it } from 'vitest';
import i18n from '../../../lib/i18n.ts';
import { makeZone } from '../testing/zone-fixture.ts';
import { formatDistance, formatMaxStay, formatPaidHours, formatRate, paymentLabel } from './zone-format.ts';

const t = i18n.t.bind(i18n);

describe('zone formatting', () => {
  // [what, input, shown]: one row per case.
  const cases: [string, (t: typeof i18n.t) => string | null, string | null][] = [
    ['no distance', (t) => formatDistance(null, t), null],
    ['metres below 100', (t) => formatDistance(42.4, t), '42 m'],
    ['tens of metres below a kilometre', (t) => formatDistance(347.6, t), '350 m'],
    ['990 m just below', (t) => formatDistance(994, t), '990 m'],
    ['1 km from 995 m', (t) => formatDistance(996, t), '1 km'],
    ['one decimal below 10 km', (t) => formatDistance(1_234, t), '1.2 km'],
    ['whole kilometres from 10 km', (t) => formatDistance(14_420, t), '14 km'],
    ['a rate with two decimals', (t) => formatRate(2.5, t), '$2.50/hr'],
    ['a free rate', (t) => formatRate(0, t), '$0.00/hr'],
    ['a whole rate', (t) => formatRate(12, t), '$12.00/hr'],
    ['a stay of whole hours', (t) => formatMaxStay(120, t), '2 h max'],
    ['a stay under an hour', (t) => formatMaxStay(30, t), '30 min max'],
    ['a stay in hours and minutes', (t) => formatMaxStay(90, t), '1 h 30 min max'],
    ['a stay of a day', (t) => formatMaxStay(1440, t), '24 h max'],
  ];
  it.each(cases)('shows %s', (_what, format, shown) => {
    expect(format(t)).toBe(shown);
  });

  it('says free now, or until when payment is required', () => {
    expect(paymentLabel(makeZone({ PaymentRequiredNow: false, PaidUntilNow: null }), t)).toBe('Free now');
    expect(paymentLabel(makeZone({ PaymentRequiredNow: true, PaidUntilNow: '18:00' }), t)).toBe('Paid until 18:00');
    expect(paymentLabel(makeZone({ PaidUntil: '00:00', PaidUntilNow: '00:00' }), t)).toBe('Paid until midnight');
    expect(paymentLabel(makeZone({ PaidDays: [1, 2, 3, 4, 5, 6, 7], PaidFrom: '00:00', PaidUntil: '24:00', PaidUntilNow: '24:00' }), t)).toBe('Paid 24/7');
  });

  it('summarises the paid hours as day runs and times', () => {
    expect(formatPaidHours(makeZone(), t)).toBe('Mon–Sat, 08:00–18:00');
    expect(formatPaidHours(makeZone({ PaidDays: [1, 3, 5], PaidUntil: '00:00' }), t)).toBe('Mon, Wed, Fri, 08:00–midnight');
    expect(formatPaidHours(makeZone({ PaidDays: [7, 1, 2, 3, 4, 5, 6], PaidFrom: '00:00', PaidUntil: '24:00' }), t)).toBe('Every day, 24 hours');
    expect(formatPaidHours(makeZone({ PaidDays: [] }), t)).toBe('Always free');
  });

  it('speaks Hindi when chosen', async () => {
    await i18n.changeLanguage('hi');
    try {
      expect(paymentLabel(makeZone(), t)).toBe('18:00 तक सशुल्क');
      expect(formatMaxStay(120, t)).toBe('अधिकतम 2 घंटे');
      expect(formatDistance(1_234, t)).toBe('1.2 कि.मी.');
    } finally {
      await i18n.changeLanguage('en');
    }
  });
});
