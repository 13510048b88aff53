import { describe, expect, it } from 'vitest';
import { PolicyBody, type PolicyBodyInput } from '@parkit/contract';
import { compilePolicy } from './compiled-policy.ts';
import { type HeldPermit } from './driver-rates.ts';
import { priceWindow } from './engine.ts';
import { presetPolicy } from './preset.ts';

const CHICAGO = 'America/Chicago';
const at = (iso: string) => Date.parse(iso);
type SpanInput = PolicyBodyInput['Spans'][number];
const policy = (spans: SpanInput[], extra: Partial<PolicyBodyInput> = {}) =>
  compilePolicy(PolicyBody.parse({ Spans: spans, MaxStayMinutes: 10_080, ...extra }));
const hourly = (cph: number) => [{ FromMinute: 0, CentsPerHour: cph }];
const allDay = (cph: number, more: Partial<SpanInput> = {}): SpanInput => ({
  Id: 'all',
  Name: 'All day',
  Rate: hourly(cph),
  ...more,
});
const stretches = (p: ReturnType<typeof priceWindow>) =>
  p.stretches.map((s) => [s.name, s.endMinute - s.startMinute, s.cents]);

describe('DST in America/Chicago', () => {
  it('spring forward: the missing hour is not charged, real minutes are', () => {
    // 2026-03-08 02:00 CST becomes 03:00 CDT. 01:00 CST is 07:00Z.
    const p = policy([{ Id: 'night', Name: 'Night', From: '01:00', Until: '03:00', Rate: hourly(600) }]);
    const got = priceWindow(p, CHICAGO, at('2026-03-08T07:00:00Z'), 0, 120);
    expect(got.paidMinutes).toBe(60); // 01:00-01:59 CST; 03:00-03:59 CDT is outside the span
    expect(got.parkingCents).toBe(600);
    expect(stretches(got)).toEqual([
      ['Night', 60, 600],
      [null, 60, 0],
    ]);
    // An all-day rate charges the two real hours, not the three the clock shows.
    expect(priceWindow(policy([allDay(200)]), CHICAGO, at('2026-03-08T07:00:00Z'), 0, 120).parkingCents).toBe(400);
  });

  it('fall back: the repeated hour is charged twice', () => {
    // 2026-11-01 02:00 CDT becomes 01:00 CST. 00:00 CDT is 05:00Z.
    const p = policy([{ Id: 'late', Name: 'Late', From: '01:00', Until: '02:00', Rate: hourly(600) }]);
    const got = priceWindow(p, CHICAGO, at('2026-11-01T05:00:00Z'), 0, 180);
    expect(got.paidMinutes).toBe(120);
    expect(got.parkingCents).toBe(1200);
    expect(stretches(got)).toEqual([
      [null, 60, 0],
      ['Late', 120, 1200],
    ]);
  });
});

describe('spans, midnight and days', () => {
  it('a stay across midnight moves from a Friday-night span to Saturday', () => {
    const p = policy([
      { Id: 'fri-night', Name: 'Friday night', Days: [5], From: '22:00', Until: '02:00', Rate: hourly(300) },
      { Id: 'saturday', Name: 'Saturday', Days: [6], Rate: hourly(100) },
    ]);
    // Friday 2026-06-05 23:00 CDT (04:00Z) for 4 hours.
    const got = priceWindow(p, CHICAGO, at('2026-06-06T04:00:00Z'), 0, 240);
    expect(got.parkingCents).toBe(900 + 100);
    expect(stretches(got)).toEqual([
      ['Friday night', 180, 900],
      ['Saturday', 60, 100],
    ]);
  });

  it('days of the month and months choose their spans (the second Monday of June)', () => {
    const p = policy([
      {
        Id: 'second-monday',
        Name: 'Second Monday',
        Days: [1],
        DaysOfMonth: [8, 9, 10, 11, 12, 13, 14],
        Months: [6],
        Rate: hourly(900),
      },
      allDay(100),
    ]);
    expect(priceWindow(p, CHICAGO, at('2026-06-08T15:00:00Z'), 0, 60).parkingCents).toBe(900);
    expect(priceWindow(p, CHICAGO, at('2026-06-01T15:00:00Z'), 0, 60).parkingCents).toBe(100);
    expect(priceWindow(p, CHICAGO, at('2026-07-13T15:00:00Z'), 0, 60).parkingCents).toBe(100);
  });

  it('holidays and dates choose their spans', () => {
    const p = policy(
      [
        { Id: 'holiday', Name: 'Holiday', Holidays: 'only', Rate: hourly(0) },
        { Id: 'season', Name: 'Season', StartDate: '2026-12-01', EndDate: '2026-12-31', Rate: hourly(500) },
        allDay(200),
      ],
      { Holidays: ['2026-12-25'] },
    );
    expect(priceWindow(p, CHICAGO, at('2026-12-25T15:00:00Z'), 0, 60).parkingCents).toBe(0);
    expect(priceWindow(p, CHICAGO, at('2026-12-24T15:00:00Z'), 0, 60).parkingCents).toBe(500);
    expect(priceWindow(p, CHICAGO, at('2027-01-04T15:00:00Z'), 0, 60).parkingCents).toBe(200);
  });
});

describe('rates, increments, fees', () => {
  const progressive = policy([
    allDay(0, {
      Rate: [
        { FromMinute: 0, CentsPerHour: 200 },
        { FromMinute: 60, CentsPerHour: 300 },
      ],
    }),
  ]);
  const start = at('2026-06-08T14:00:00Z');

  it('progressive: the first hour, then each further hour, by the minutes of the stay', () => {
    expect(priceWindow(progressive, CHICAGO, start, 0, 150).parkingCents).toBe(200 + 450);
    // An extension continues where the stay is: no second first hour.
    expect(priceWindow(progressive, CHICAGO, start, 150, 210).parkingCents).toBe(300);
    expect(priceWindow(progressive, CHICAGO, start, 30, 90).parkingCents).toBe(100 + 150);
  });

  it('the maximum per day holds on each of two days', () => {
    const p = policy([allDay(200, { MaxDayCents: 1000 })]);
    // Monday 2026-06-08 20:00 CDT for 24 hours: 4 h on Monday (800), 20 h on Tuesday (capped 1000).
    expect(priceWindow(p, CHICAGO, at('2026-06-09T01:00:00Z'), 0, 1440).parkingCents).toBe(1800);
    const capped = policy([allDay(200, { MaxDayCents: 1000, MaxSessionCents: 1500 })]);
    expect(priceWindow(capped, CHICAGO, at('2026-06-09T01:00:00Z'), 0, 1440).parkingCents).toBe(1500);
  });

  it('free minutes come first', () => {
    const p = policy([allDay(200, { FreeMinutes: 15 })]);
    expect(priceWindow(p, CHICAGO, start, 0, 60).parkingCents).toBe(150);
    const short = priceWindow(p, CHICAGO, start, 0, 10);
    expect([short.parkingCents, short.paidMinutes]).toEqual([0, 0]);
  });

  it('billing increments round each started increment up, once', () => {
    const p = policy([allDay(200, { IncrementMinutes: 15 })]);
    expect(priceWindow(p, CHICAGO, start, 0, 16).parkingCents).toBe(100);
    expect(priceWindow(p, CHICAGO, start, 16, 17).parkingCents).toBe(0); // already paid for
    expect(priceWindow(p, CHICAGO, start, 16, 31).parkingCents).toBe(50);
  });

  it('a minimum fee per session applies once the stay pays', () => {
    const p = policy([allDay(200, { MinSessionCents: 300 })]);
    expect(priceWindow(p, CHICAGO, start, 0, 30).parkingCents).toBe(300);
    expect(priceWindow(p, CHICAGO, start, 0, 120).parkingCents).toBe(400);
  });

  it('user classes: exempt, or priced apart', () => {
    const p = policy([
      allDay(200, {
        UserClasses: [
          { UserClass: 'disabled', Exempt: true },
          { UserClass: 'ev', Exempt: false, Rate: hourly(100) },
        ],
      }),
    ]);
    expect(priceWindow(p, CHICAGO, start, 0, 60, { classes: new Set(['disabled']) }).parkingCents).toBe(0);
    expect(priceWindow(p, CHICAGO, start, 0, 60, { classes: new Set(['ev']) }).parkingCents).toBe(100);
    expect(priceWindow(p, CHICAGO, start, 0, 60).parkingCents).toBe(200);
  });

  it('permit holders: the rule of the type, else of the kind, else of the class; none or exempt parks free', () => {
    const p = policy([
      allDay(200, {
        UserClasses: [
          { PermitTypeId: 7, Exempt: false, Rate: hourly(50) },
          { PermitKind: 'business', Exempt: false, Rate: hourly(80) },
          { UserClass: 'permit', Exempt: false, Rate: hourly(120) },
          { PermitKind: 'disabled', Exempt: true },
        ],
      }),
    ]);
    const held = (typeId: number, kind: HeldPermit['kind']) => [{ id: typeId, typeId, kind }];
    const cents = (permits: HeldPermit[]) => priceWindow(p, CHICAGO, start, 0, 60, { permits }).parkingCents;
    expect(cents(held(7, 'business'))).toBe(50);
    expect(cents(held(3, 'business'))).toBe(80);
    expect(cents(held(3, 'resident'))).toBe(120);
    expect(cents(held(4, 'disabled'))).toBe(0);
    expect(cents(held(5, 'ev'))).toBe(0); // no rule for EV permits: a permit for the zone parks free
    // Two permits: one that parks free wins; else the first one's own rate.
    expect(cents([...held(7, 'business'), ...held(4, 'disabled')])).toBe(0);
    expect(cents([...held(3, 'resident'), ...held(7, 'business')])).toBe(120);
    expect(cents([])).toBe(200);
  });

  it('the plan discount is taken off once, rounded half-up', () => {
    const got = priceWindow(policy([allDay(250)]), CHICAGO, start, 0, 7, { discountPercent: 10 });
    // 250 x 7 / 60 = 29.17; less 10 % = 26.25 -> 26; the discount took 29 - 26.
    expect([got.parkingCents, got.discountCents]).toEqual([26, 3]);
  });

  it('refuses a stay longer than the policy or a span allows', () => {
    expect(priceWindow(policy([allDay(200)], { MaxStayMinutes: 120 }), CHICAGO, start, 0, 121).refusal).toBe('maxStay');
    expect(priceWindow(policy([allDay(200, { MaxStayMinutes: 60 })]), CHICAGO, start, 0, 61).refusal).toBe('maxStay');
    expect(priceWindow(policy([allDay(200, { MaxStayMinutes: 60 })]), CHICAGO, start, 0, 60).refusal).toBeNull();
  });
});

describe('presets as policies', () => {
  it('price as the presets did: the rate times the paid minutes, rounded once', () => {
    const meters = compilePolicy(
      presetPolicy({
        rateCents: 199,
        maxStayMinutes: 240,
        paidDays: [1, 2, 3, 4, 5, 6],
        paidFromMinute: 480,
        paidUntilMinute: 1080,
      }),
    );
    // Monday 2025-06-02 17:37 CDT for 60 minutes: 23 paid minutes at $1.99 = 76.28 -> 76.
    const got = priceWindow(meters, CHICAGO, at('2025-06-02T22:37:00Z'), 0, 60);
    expect([got.paidMinutes, got.parkingCents]).toEqual([23, 76]);
    // Sunday is free.
    expect(priceWindow(meters, CHICAGO, at('2025-06-01T15:00:00Z'), 0, 60).paidMinutes).toBe(0);
  });
});
