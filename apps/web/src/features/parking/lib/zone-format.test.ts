import { describe, expect, it } from 'vitest';
import i18n from '../../../lib/i18n.ts';
import { moneyIn } from '../../../lib/money.ts';
import { makeZone } from '../testing/zone-fixture.ts';
import {
  formatDistance,
  formatMaxStay,
  formatPaidHours,
  formatRate,
  paymentLabel,
  type Translate,
} from './zone-format.ts';

const t = i18n.t.bind(i18n);

describe('zone formatting', () => {
  // [formatter, [input, shown] per case]: one table per formatter, one test body.
  const tables: [string, (n: number, t: Translate) => string | null, [number, string][]][] = [
    [
      'distance', // metres below 100; tens of metres below a kilometre; 990 m just below; 1 km from 995 m; one decimal below 10 km; whole kilometres from 10 km
      formatDistance,
      [
        [42.4, '42 m'],
        [347.6, '350 m'],
        [994, '990 m'],
        [996, '1 km'],
        [1_234, '1.2 km'],
        [14_420, '14 km'],
      ],
    ],
    [
      'rate',
      (n, t) => formatRate(n, t, moneyIn('$')),
      [
        [2.5, '$2.50/hr'],
        [0, '$0.00/hr'],
        [12, '$12.00/hr'],
      ],
    ],
    ['rate in another currency', (n, t) => formatRate(n, t, moneyIn('€')), [[2.5, '€2.50/hr']]],
    [
      'maximum stay',
      formatMaxStay,
      [
        [120, '2 h max'],
        [30, '30 min max'],
        [90, '1 h 30 min max'],
        [1440, '24 h max'],
      ],
    ],
  ];
  describe.each(tables)('a %s', (_what, format, rows) => {
    it.each(rows)('of %s shows as %s', (input, shown) => {
      expect(format(input, t)).toBe(shown);
    });
  });

  it('shows no distance where none is known', () => {
    expect(formatDistance(null, t)).toBeNull();
  });

  it('says free now, or until when payment is required', () => {
    expect(paymentLabel(makeZone({ PaymentRequiredNow: false, PaidUntilNow: null }), t)).toBe('Free now');
    expect(paymentLabel(makeZone({ PaymentRequiredNow: true, PaidUntilNow: '18:00' }), t)).toBe('Paid until 18:00');
    expect(paymentLabel(makeZone({ PaidUntil: '00:00', PaidUntilNow: '00:00' }), t)).toBe('Paid until midnight');
    expect(
      paymentLabel(
        makeZone({ PaidDays: [1, 2, 3, 4, 5, 6, 7], PaidFrom: '00:00', PaidUntil: '24:00', PaidUntilNow: '24:00' }),
        t,
      ),
    ).toBe('Paid 24/7');
  });

  it('summarises the paid hours as day runs and times', () => {
    expect(formatPaidHours(makeZone(), t)).toBe('Mon–Sat, 08:00–18:00');
    expect(formatPaidHours(makeZone({ PaidDays: [1, 3, 5], PaidUntil: '00:00' }), t)).toBe(
      'Mon, Wed, Fri, 08:00–midnight',
    );
    expect(
      formatPaidHours(makeZone({ PaidDays: [7, 1, 2, 3, 4, 5, 6], PaidFrom: '00:00', PaidUntil: '24:00' }), t),
    ).toBe('Every day, 24 hours');
    expect(formatPaidHours(makeZone({ PaidDays: [] }), t)).toBe('Always free');
  });

  it('groups a long distance as English does', () => {
    expect(formatDistance(123_456_789, t)).toBe('123,457 km');
  });

  it('speaks Hindi when chosen', async () => {
    await i18n.changeLanguage('hi');
    try {
      expect(paymentLabel(makeZone(), t)).toBe('18:00 तक सशुल्क');
      expect(formatMaxStay(120, t)).toBe('अधिकतम 2 घंटे');
      expect(formatMaxStay(90, t)).toBe('अधिकतम 1 घंटे 30 मिनट');
      expect(formatDistance(1_234, t)).toBe('1.2 कि.मी.');
      // A count in the language's grouping (lakh and crore).
      expect(formatDistance(123_456_789, t)).toBe('1,23,457 कि.मी.');
    } finally {
      await i18n.changeLanguage('en');
    }
  });
});
