import { describe, expect, it } from 'vitest';
import {
  formatClock,
  localTime,
  parseClock,
  paymentStatus,
  storedHoursToClock,
  toStoredHours,
  type PaidSchedule,
} from './paid-hours.ts';

const CHICAGO = 'America/Chicago';
const MON_SAT = [1, 2, 3, 4, 5, 6];
const ALL_WEEK = [1, 2, 3, 4, 5, 6, 7];
const schedule = (paidDays: number[], from: string, until: string): PaidSchedule => ({
  paidDays,
  ...toStoredHours(from, until)!,
});
/** 2025-06-02 is a Monday; Chicago is on CDT (UTC-5) then. */
const june = (day: number, hhmm: string) => new Date(`2025-06-${String(day).padStart(2, '0')}T${hhmm}:00-05:00`);

describe('clock times', () => {
  it('parses HH:MM and formats minutes back', () => {
    expect(parseClock('08:30')).toBe(510);
    expect(parseClock('23:59')).toBe(1439);
    expect(parseClock('24:00')).toBeNull();
    expect(parseClock('24:00', true)).toBe(1440);
    for (const bad of ['8:00', '25:00', '12:60', '', '12:00 ', 'noon']) expect(parseClock(bad)).toBeNull();
    expect(formatClock(510)).toBe('08:30');
    expect(formatClock(1440)).toBe('00:00');
  });

  it('stores midnight as 1440 and keeps hours that cross midnight', () => {
    expect(toStoredHours('08:00', '18:00')).toEqual({ paidFromMinute: 480, paidUntilMinute: 1080 });
    expect(toStoredHours('08:00', '00:00')).toEqual({ paidFromMinute: 480, paidUntilMinute: 1440 });
    expect(toStoredHours('00:00', '24:00')).toEqual({ paidFromMinute: 0, paidUntilMinute: 1440 });
    expect(toStoredHours('22:00', '02:00')).toEqual({ paidFromMinute: 1320, paidUntilMinute: 120 });
    expect(toStoredHours('08:00', '08:00')).toBeNull();
    expect(toStoredHours('00:00', '00:00')).toBeNull();
    expect(toStoredHours('24:00', '08:00')).toBeNull();
  });

  it('shows all day as 00:00-24:00 and midnight otherwise as 00:00', () => {
    expect(storedHoursToClock({ paidFromMinute: 0, paidUntilMinute: 1440 })).toEqual({ from: '00:00', until: '24:00' });
    expect(storedHoursToClock({ paidFromMinute: 480, paidUntilMinute: 1440 })).toEqual({
      from: '08:00',
      until: '00:00',
    });
  });
});

describe('localTime', () => {
  it('reads the weekday and minute in the operator time zone, not UTC', () => {
    // Tuesday 03:00 UTC is still Monday 22:00 in Chicago (CDT).
    expect(localTime(new Date('2025-06-03T03:00:00Z'), CHICAGO)).toEqual({ isoDay: 1, minute: 22 * 60 });
    // Winter: CST is UTC-6.
    expect(localTime(new Date('2025-01-05T06:30:00Z'), CHICAGO)).toEqual({ isoDay: 7, minute: 30 });
  });

  it('follows daylight saving time', () => {
    // 2025-03-09 02:00 CST jumps to 03:00 CDT: 08:30 UTC is 03:30 local, a Sunday.
    expect(localTime(new Date('2025-03-09T08:30:00Z'), CHICAGO)).toEqual({ isoDay: 7, minute: 210 });
    expect(localTime(new Date('2025-03-09T07:30:00Z'), CHICAGO)).toEqual({ isoDay: 7, minute: 90 });
  });
});

describe('paymentStatus', () => {
  const meters = schedule(MON_SAT, '08:00', '18:00');

  it('is paid inside the hours on a paid day, until the end of the hours', () => {
    expect(paymentStatus(meters, CHICAGO, june(2, '12:00'))).toEqual({ paidNow: true, paidUntil: '18:00' });
    expect(paymentStatus(meters, CHICAGO, june(2, '08:00'))).toEqual({ paidNow: true, paidUntil: '18:00' });
  });

  it('is free before, at the end of, and after the hours, and on unpaid days', () => {
    expect(paymentStatus(meters, CHICAGO, june(2, '07:59')).paidNow).toBe(false);
    expect(paymentStatus(meters, CHICAGO, june(2, '18:00'))).toEqual({ paidNow: false, paidUntil: null });
    expect(paymentStatus(meters, CHICAGO, june(8, '12:00')).paidNow).toBe(false); // Sunday
  });

  it('uses the local day, not the UTC day', () => {
    // Sunday 23:30 UTC is Sunday 18:30 local: free; Saturday 23:00 UTC is Saturday 18:00 local: free.
    const evening = schedule(MON_SAT, '10:00', '00:00');
    expect(paymentStatus(evening, CHICAGO, new Date('2025-06-08T03:30:00Z'))).toEqual({
      paidNow: true,
      paidUntil: '00:00',
    }); // Sat 22:30
    expect(paymentStatus(evening, CHICAGO, new Date('2025-06-08T23:30:00Z')).paidNow).toBe(false); // Sun 18:30
  });

  it('follows hours that cross midnight, also from Sunday into Monday', () => {
    const late = schedule([7], '22:00', '02:00');
    expect(paymentStatus(late, CHICAGO, june(8, '23:00'))).toEqual({ paidNow: true, paidUntil: '02:00' });
    expect(paymentStatus(late, CHICAGO, june(9, '01:00'))).toEqual({ paidNow: true, paidUntil: '02:00' });
    expect(paymentStatus(late, CHICAGO, june(9, '02:00')).paidNow).toBe(false);
    expect(paymentStatus(late, CHICAGO, june(2, '01:00')).paidNow).toBe(true); // the same window, one week on
    expect(paymentStatus(late, CHICAGO, june(3, '01:00')).paidNow).toBe(false); // Monday night is not paid
  });

  it('joins back-to-back days into one period and gives no end time past 24 hours', () => {
    const allDay = schedule(MON_SAT, '00:00', '24:00');
    expect(paymentStatus(allDay, CHICAGO, june(7, '10:00'))).toEqual({ paidNow: true, paidUntil: '00:00' }); // Saturday
    expect(paymentStatus(allDay, CHICAGO, june(3, '10:00'))).toEqual({ paidNow: true, paidUntil: null }); // Tuesday: paid to Sunday
    expect(paymentStatus(schedule(ALL_WEEK, '00:00', '24:00'), CHICAGO, june(3, '10:00'))).toEqual({
      paidNow: true,
      paidUntil: null,
    });
  });

  it('is never paid without paid days', () => {
    expect(
      paymentStatus({ paidDays: [], paidFromMinute: 0, paidUntilMinute: 1440 }, CHICAGO, june(3, '10:00')),
    ).toEqual({ paidNow: false, paidUntil: null });
  });
});
