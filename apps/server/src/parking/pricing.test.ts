import { describe, expect, it } from 'vitest';
import { compilePolicy, presetPolicy, roundCents, type SessionPolicy } from '../pricing/index.ts';
import { toStoredHours, type PaidSchedule } from '../zones/index.ts';
import { priceOf as priceWindowOf, refundFor as refundWith } from './pricing.ts';

/**
 * The prices of the presets, as they were before price policies (issue 11's cases): each preset
 * now prices through its equal policy (pricing/preset.ts) and the engine, and must cost the same.
 */
const preset = (s: PaidSchedule, rateCents = 100): SessionPolicy => ({
  versionId: null,
  permits: [],
  policy: compilePolicy(presetPolicy({ ...s, rateCents, maxStayMinutes: 10_080 })),
});
const centsFor = (rate: number, minutes: number, discount = 0) => roundCents(rate * minutes, discount);
const paidMinutes = (s: PaidSchedule, tz: string, start: Date, minutes: number) =>
  priceWindowOf(preset(s), tz, start, 0, minutes).paidMinutes;
const priceOf = (z: PaidSchedule & { rateCents: number }, tz: string, start: Date, minutes: number, discount = 0) => {
  const p = priceWindowOf(preset(z, z.rateCents), tz, start, 0, minutes, discount);
  return { paidMinutes: p.paidMinutes, parkingCents: p.parkingCents, discountCents: p.discountCents };
};
const refundFor = (
  z: PaidSchedule & { rateCents: number },
  tz: string,
  s: { startedAt: Date; endsAt: Date; discountPercent: number; parkingCents: number; refundedCents: number },
  now: Date,
) => refundWith(preset(z, z.rateCents), tz, s, now);

const CHICAGO = 'America/Chicago';
const MON_SAT = [1, 2, 3, 4, 5, 6];
const ALL_WEEK = [1, 2, 3, 4, 5, 6, 7];
const schedule = (paidDays: number[], from: string, until: string): PaidSchedule => ({
  paidDays,
  ...toStoredHours(from, until)!,
});
/** 2025-06-02 is a Monday; Chicago is on CDT (UTC-5) then. */
const june = (day: number, hhmm: string) => new Date(`2025-06-${String(day).padStart(2, '0')}T${hhmm}:00-05:00`);
const meters = schedule(MON_SAT, '08:00', '18:00');

describe('centsFor: rate × minutes / 60, half-up to the cent', () => {
  it('rounds half up and keeps whole cents', () => {
    expect(centsFor(150, 1)).toBe(3); // 2.5 -> 3
    expect(centsFor(150, 60)).toBe(150);
    expect(centsFor(199, 23)).toBe(76); // 76.28 -> 76
    expect(centsFor(200, 23)).toBe(77); // 76.67 -> 77
    expect(centsFor(90, 1)).toBe(2); // 1.5 -> 2
    expect(centsFor(30, 1)).toBe(1); // 0.5 -> 1
    expect(centsFor(29, 1)).toBe(0); // 0.483 -> 0
    expect(centsFor(250, 0)).toBe(0);
  });

  it('is exact for large amounts (integer arithmetic only)', () => {
    expect(centsFor(99_999, 10_080)).toBe(16_799_832);
  });
});

describe('paidMinutes', () => {
  it('counts every minute inside the paid hours', () => {
    expect(paidMinutes(meters, CHICAGO, june(2, '09:00'), 60)).toBe(60);
    expect(paidMinutes(meters, CHICAGO, june(2, '09:17'), 23)).toBe(23);
  });

  it('costs nothing in free hours and on free days', () => {
    expect(paidMinutes(meters, CHICAGO, june(2, '18:00'), 120)).toBe(0);
    expect(paidMinutes(meters, CHICAGO, june(8, '12:00'), 120)).toBe(0); // Sunday
    expect(
      paidMinutes({ paidDays: [], paidFromMinute: 0, paidUntilMinute: 1440 }, CHICAGO, june(2, '12:00'), 600),
    ).toBe(0);
  });

  it('counts only the paid part of a session that starts free or ends free', () => {
    expect(paidMinutes(meters, CHICAGO, june(2, '07:30'), 60)).toBe(30); // 07:30-08:30
    expect(paidMinutes(meters, CHICAGO, june(2, '17:45'), 60)).toBe(15); // 17:45-18:45
  });

  it('follows an overnight session across midnight and into the next paid morning', () => {
    // Monday 17:00 to Tuesday 09:00: 17:00-18:00 and 08:00-09:00 are paid.
    expect(paidMinutes(meters, CHICAGO, june(2, '17:00'), 16 * 60)).toBe(120);
    const nightlife = schedule(ALL_WEEK, '22:00', '02:00');
    expect(paidMinutes(nightlife, CHICAGO, june(2, '21:00'), 6 * 60)).toBe(240); // 22:00-02:00
    // Saturday 17:00 to Monday 09:00: only Saturday 17-18 and Monday 08-09.
    expect(paidMinutes(meters, CHICAGO, june(7, '17:00'), 40 * 60)).toBe(120);
  });

  it('uses the zone clock, not UTC', () => {
    // 13:00 UTC on a Monday is 08:00 in Chicago: the paid hours start there.
    expect(paidMinutes(meters, CHICAGO, new Date('2025-06-02T12:00:00Z'), 120)).toBe(60);
    expect(paidMinutes(meters, 'America/New_York', new Date('2025-06-02T12:00:00Z'), 120)).toBe(120);
  });

  it('counts real minutes on the spring-forward night (the local hour 02:00-03:00 does not exist)', () => {
    const allDay = schedule(ALL_WEEK, '00:00', '24:00');
    // 2025-03-09 01:00 CST (07:00 UTC) + 3 real hours = 05:00 CDT: 180 paid minutes.
    expect(paidMinutes(allDay, CHICAGO, new Date('2025-03-09T07:00:00Z'), 180)).toBe(180);
    // Paid 03:00-05:00 local: from 01:00 CST, 60 real minutes reach 03:00 CDT, then 120 are paid.
    const early = schedule(ALL_WEEK, '03:00', '05:00');
    expect(paidMinutes(early, CHICAGO, new Date('2025-03-09T07:00:00Z'), 180)).toBe(120);
  });

  it('counts the repeated hour twice on the fall-back night', () => {
    // 2025-11-02: 01:00-02:00 happens twice. Paid 01:00-02:00 local: 120 real minutes are paid.
    const oneToTwo = schedule(ALL_WEEK, '01:00', '02:00');
    expect(paidMinutes(oneToTwo, CHICAGO, new Date('2025-11-02T05:00:00Z'), 240)).toBe(120); // 00:00 CDT + 4 h
  });

  it('keeps the seconds of the start (each minute is judged where it starts)', () => {
    expect(paidMinutes(meters, CHICAGO, new Date('2025-06-02T12:59:30Z'), 2)).toBe(1); // 07:59:30 and 08:00:30
  });

  it('refuses a negative or fractional number of minutes', () => {
    expect(() => paidMinutes(meters, CHICAGO, june(2, '09:00'), -1)).toThrow(RangeError);
    expect(() => paidMinutes(meters, CHICAGO, june(2, '09:00'), 1.5)).toThrow(RangeError);
  });
});

describe('priceOf and refundFor', () => {
  const zone = { ...meters, rateCents: 250 };

  it('prices the paid minutes only', () => {
    expect(priceOf(zone, CHICAGO, june(2, '17:00'), 120)).toEqual({
      paidMinutes: 60,
      parkingCents: 250,
      discountCents: 0,
    });
    expect(priceOf(zone, CHICAGO, june(2, '10:00'), 23)).toEqual({
      paidMinutes: 23,
      parkingCents: 96,
      discountCents: 0,
    }); // 95.83
  });

  it('gives back the unused whole minutes at the end, priced as bought', () => {
    const s = {
      startedAt: june(2, '10:00'),
      discountPercent: 0,
      endsAt: june(2, '11:00'),
      parkingCents: 250,
      refundedCents: 0,
    };
    // Stopped at 10:20:30: 39 whole minutes unused (10:21-11:00).
    expect(refundFor(zone, CHICAGO, s, new Date(june(2, '10:20').getTime() + 30_000))).toEqual({
      unusedMinutes: 39,
      refundCents: 163,
    });
    expect(refundFor(zone, CHICAGO, s, june(2, '11:00'))).toEqual({ unusedMinutes: 0, refundCents: 0 });
    expect(refundFor(zone, CHICAGO, s, june(2, '12:00'))).toEqual({ unusedMinutes: 0, refundCents: 0 });
  });

  it('refunds nothing for unused free minutes and never more than is left', () => {
    const evening = {
      startedAt: june(2, '17:00'),
      discountPercent: 0,
      endsAt: june(2, '19:00'),
      parkingCents: 250,
      refundedCents: 0,
    };
    expect(refundFor(zone, CHICAGO, evening, june(2, '18:00')).refundCents).toBe(0);
    const mostlyRefunded = {
      startedAt: june(2, '09:00'),
      discountPercent: 0,
      endsAt: june(2, '11:00'),
      parkingCents: 250,
      refundedCents: 240,
    };
    expect(refundFor(zone, CHICAGO, mostlyRefunded, june(2, '10:00')).refundCents).toBe(10);
  });

  it('takes the plan discount off rate × paid minutes, rounding half-up once', () => {
    // 250 less 10% = 225; 23 minutes: 95.83 × 0.9 = 86.25 -> 86, and the quote shows 96 - 86 = 10 off.
    expect(priceOf(zone, CHICAGO, june(2, '10:00'), 60, 10)).toEqual({
      paidMinutes: 60,
      parkingCents: 225,
      discountCents: 25,
    });
    expect(priceOf(zone, CHICAGO, june(2, '10:00'), 23, 10)).toEqual({
      paidMinutes: 23,
      parkingCents: 86,
      discountCents: 10,
    });
    // 199 × 45/60 = 149.25, × 0.9 = 134.325 -> 134.
    expect(centsFor(199, 45, 10)).toBe(134);
    // 150 × 1/60 = 2.5 -> 3 without discount; 2.25 -> 2 with 10% (rounding first then discounting would give 2.7 -> 3)
    expect(centsFor(150, 1, 10)).toBe(2);
    expect(centsFor(250, 60, 100)).toBe(0);
    // Free minutes stay free with a discount.
    expect(priceOf(zone, CHICAGO, june(2, '18:00'), 60, 10)).toEqual({
      paidMinutes: 0,
      parkingCents: 0,
      discountCents: 0,
    });
  });

  it('refunds unused minutes at the discounted price they were bought at', () => {
    const s = {
      startedAt: june(2, '10:00'),
      discountPercent: 10,
      endsAt: june(2, '11:00'),
      parkingCents: 225,
      refundedCents: 0,
    };
    // 30 unused minutes: 125 × 0.9 = 112.5 -> 113.
    expect(refundFor(zone, CHICAGO, s, june(2, '10:30'))).toEqual({ unusedMinutes: 30, refundCents: 113 });
  });
});
