import { describe, expect, it } from 'vitest';
import { PolicyBody, type PolicyBodyInput } from '@parkit/contract';
import { paymentStatus } from '../zones/index.ts';
import { compilePolicy } from './compiled-policy.ts';
import { rateNow } from './rate-now.ts';
import { presetPolicy, type Preset } from './preset.ts';

// Find Parking's "paid now, until when" by the zone's price policy (one rule with the quote), never
// by the preset columns; for a preset's own policy, the same answer as the preset's paid hours.
const CHICAGO = 'America/Chicago';
type SpanInput = PolicyBodyInput['Spans'][number];
const policy = (spans: SpanInput[]) => compilePolicy(PolicyBody.parse({ Spans: spans, MaxStayMinutes: 600 }));
const hourly = (cph: number) => [{ FromMinute: 0, CentsPerHour: cph }];
const now = (c: ReturnType<typeof policy>, iso: string) => rateNow(c, CHICAGO, Date.parse(iso));

// Friday 27 November 2026; Chicago is UTC-6.
describe('rateNow: paid now and until when, by the policy', () => {
  const journey = policy([
    {
      Id: 'wd',
      Name: 'Weekday',
      Days: [1, 2, 3, 4, 5],
      From: '08:00',
      Until: '18:00',
      Rate: [
        { FromMinute: 0, CentsPerHour: 200 },
        { FromMinute: 60, CentsPerHour: 300 },
      ],
    },
    { Id: 'we', Name: 'Weekend', Days: [6, 7], From: '10:00', Until: '16:00', Rate: hourly(150) },
  ]);

  it('a weekday span ends at its end; a weekend one at its own', () => {
    expect(now(journey, '2026-11-27T23:00:00Z')).toMatchObject({ paidNow: true, rateCents: 200, paidUntil: '18:00' });
    expect(now(journey, '2026-11-28T17:00:00Z')).toMatchObject({ paidNow: true, rateCents: 150, paidUntil: '16:00' });
  });

  it('free now: no end', () => {
    expect(now(journey, '2026-11-28T01:00:00Z')).toMatchObject({ paidNow: false, paidUntil: null });
  });

  it('spans that follow one another are one paid period; across midnight too', () => {
    const day = policy([
      { Id: 'a', Name: 'Morning', From: '08:00', Until: '12:00', Rate: hourly(200) },
      { Id: 'b', Name: 'Afternoon', From: '12:00', Until: '20:00', Rate: hourly(300) },
    ]);
    expect(now(day, '2026-11-27T15:00:00Z').paidUntil).toBe('20:00');
    const night = policy([{ Id: 'n', Name: 'Night', Days: [5], From: '20:00', Until: '02:00', Rate: hourly(100) }]);
    expect(now(night, '2026-11-28T05:00:00Z')).toMatchObject({ paidNow: true, paidUntil: '02:00' });
  });

  it('paid around the clock: no end within a day', () => {
    expect(now(policy([{ Id: 'x', Name: 'All day', Rate: hourly(100) }]), '2026-11-27T23:00:00Z').paidUntil).toBe(null);
  });

  it('a span at a rate of zero is free', () => {
    const zero = policy([
      { Id: 'a', Name: 'Paid', From: '08:00', Until: '12:00', Rate: hourly(200) },
      { Id: 'z', Name: 'Free lunch', From: '12:00', Until: '13:00', Rate: hourly(0) },
      { Id: 'b', Name: 'Paid again', From: '13:00', Until: '18:00', Rate: hourly(200) },
    ]);
    expect(now(zero, '2026-11-27T15:00:00Z').paidUntil).toBe('12:00');
  });

  it("for a preset's policy: the preset's own answer, hour by hour across a week and a DST night", () => {
    const preset: Preset = {
      rateCents: 250,
      maxStayMinutes: 120,
      paidDays: [1, 2, 3, 4, 5, 6],
      paidFromMinute: 8 * 60,
      paidUntilMinute: 18 * 60 + 30,
    };
    const c = compilePolicy(PolicyBody.parse(presetPolicy(preset)));
    for (const start of ['2026-11-23T00:17:00Z', '2026-03-07T00:17:00Z']) {
      for (let h = 0; h < 7 * 24; h++) {
        const t = new Date(Date.parse(start) + h * 3_600_000);
        const mine = rateNow(c, CHICAGO, t.getTime());
        const theirs = paymentStatus(preset, CHICAGO, t);
        expect([t.toISOString(), mine.paidNow, mine.paidUntil]).toEqual([
          t.toISOString(),
          theirs.paidNow,
          theirs.paidUntil,
        ]);
      }
    }
  });
});
