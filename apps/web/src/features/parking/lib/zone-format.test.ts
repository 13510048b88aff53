import { describe, expect, it } from 'vitest';
import i18n from '../../../lib/i18n.ts';
import { makeZone } from '../testing/zone-fixture.ts';
import { formatDistance, formatMaxStay, formatPaidHours, formatRate, paymentLabel } from './zone-format.ts';

const t = i18n.t.bind(i18n);

describe('zone formatting', () => {
  it('shows distance in metres below a kilometre and in kilometres above', () => {
    expect(formatDistance(null, t)).toBeNull();
    expect(formatDistance(42.4, t)).toBe('42 m');
    expect(formatDistance(347.6, t)).toBe('350 m');
    expect(formatDistance(994, t)).toBe('990 m');
    expect(formatDistance(996, t)).toBe('1 km');
    expect(formatDistance(1_234, t)).toBe('1.2 km');
    expect(formatDistance(14_420, t)).toBe('14 km');
  });

  it('shows the hourly rate with two decimals and the maximum stay in hours and minutes', () => {
    expect(formatRate(2.5, t)).toBe('$2.50/hr');
    expect(formatRate(0, t)).toBe('$0.00/hr');
    expect(formatRate(12, t)).toBe('$12.00/hr');
    expect(formatMaxStay(120, t)).toBe('2 h max');
    expect(formatMaxStay(30, t)).toBe('30 min max');
    expect(formatMaxStay(90, t)).toBe('1 h 30 min max');
    expect(formatMaxStay(1440, t)).toBe('24 h max');
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
