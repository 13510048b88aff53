import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PolicyBody, USER_CLASSES, type UserClass } from '@parkit/contract';
import { compilePolicy } from './compiled-policy.ts';
import { type HeldPermit } from './driver-rates.ts';
import { priceWindow } from './engine.ts';

/**
 * The engine against a reference written from the rules of docs/pricing.md, not from the engine:
 * it walks the stay minute by minute, reads each minute's local clock with another Intl format,
 * finds the first span that holds it and adds up the bill with plain loops.
 */

const ZONES = ['America/Chicago', 'Europe/London', 'Asia/Kolkata', 'Australia/Lord_Howe', 'UTC'];
const MINUTE = 60_000;

const readers = new Map<string, Intl.DateTimeFormat>();
function localOf(ms: number, timeZone: string) {
  let r = readers.get(timeZone);
  if (!r) {
    // sv-SE prints 'YYYY-MM-DD HH:MM': another path through Intl than the engine's parts.
    r = new Intl.DateTimeFormat('sv-SE', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    readers.set(timeZone, r);
  }
  const text = r.format(ms);
  const date = text.slice(0, 10);
  const minute = Number(text.slice(11, 13)) * 60 + Number(text.slice(14, 16));
  const weekday = new Date(`${date}T12:00:00Z`).getUTCDay(); // 0 = Sunday
  return { date, minute, isoDay: weekday === 0 ? 7 : weekday };
}

function previousDate(date: string): { date: string; isoDay: number } {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 1);
  const w = d.getUTCDay();
  return { date: d.toISOString().slice(0, 10), isoDay: w === 0 ? 7 : w };
}

const toMinute = (clock: string) => Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3));

/** Resident, visitor and business permits are the class "permit"; disabled and EV their own. */
const CLASS_OF_KIND: Record<HeldPermit['kind'], UserClass> = {
  resident: 'permit',
  visitor: 'permit',
  business: 'permit',
  disabled: 'disabled',
  ev: 'ev',
};

/**
 * A span's rate for this driver, from the rules: with permits, each permit's rule is the one naming
 * its type, else its kind, else its class; a permit without a rule, or exempt, parks free; else the
 * first permit's own rate. Without permits, the first rule of a class the driver is in.
 */
function rateFor(span: PolicyBody['Spans'][number], classes: ReadonlySet<UserClass>, permits: readonly HeldPermit[]) {
  if (permits.length > 0) {
    let own: PolicyBody['Spans'][number]['Rate'] | null = null;
    for (const p of permits) {
      const rule =
        span.UserClasses.find((c) => c.PermitTypeId === p.typeId) ??
        span.UserClasses.find((c) => c.PermitKind === p.kind) ??
        span.UserClasses.find((c) => c.UserClass === CLASS_OF_KIND[p.kind]);
      if (!rule || rule.Exempt) return [];
      if (own === null) own = rule.Rate!;
    }
    return own!;
  }
  const own = span.UserClasses.find((c) => c.UserClass !== undefined && classes.has(c.UserClass));
  return own ? (own.Exempt ? [] : own.Rate!) : span.Rate;
}

function reference(
  body: PolicyBody,
  timeZone: string,
  startMs: number,
  from: number,
  to: number,
  classes: ReadonlySet<UserClass>,
  permits: readonly HeldPermit[],
  discount: number,
): { cents: number; paidMinutes: number; stretchCents: number } {
  const bill = (minutes: number) => {
    const tally: Map<number, Map<string, number>> = new Map();
    const paid = new Map<number, number>();
    let paidMinutes = 0;
    const onDay = (span: PolicyBody['Spans'][number], date: string, isoDay: number) =>
      (span.Days === undefined || span.Days.includes(isoDay)) &&
      (span.DaysOfMonth === undefined || span.DaysOfMonth.includes(new Date(`${date}T12:00:00Z`).getUTCDate())) &&
      (span.Months === undefined || span.Months.includes(new Date(`${date}T12:00:00Z`).getUTCMonth() + 1)) &&
      (span.StartDate === undefined || date >= span.StartDate) &&
      (span.EndDate === undefined || date <= span.EndDate) &&
      (span.Holidays === undefined || (span.Holidays === 'only') === body.Holidays.includes(date));
    for (let i = 0; i < minutes; i++) {
      const here = localOf(startMs + i * MINUTE, timeZone);
      const index = body.Spans.findIndex((span) => {
        const a = toMinute(span.From ?? '00:00');
        let b = toMinute(span.Until ?? '24:00');
        if (b === 0) b = 1440;
        if (a < b) return here.minute >= a && here.minute < b && onDay(span, here.date, here.isoDay);
        if (here.minute >= a) return onDay(span, here.date, here.isoDay);
        const y = previousDate(here.date);
        return here.minute < b && onDay(span, y.date, y.isoDay);
      });
      if (index < 0) continue;
      const span = body.Spans[index]!;
      if (i < span.FreeMinutes) continue;
      const rate = rateFor(span, classes, permits);
      if (rate.length === 0) continue;
      let k = 0;
      rate.forEach((r, j) => {
        if (r.FromMinute <= i) k = j;
      });
      const key = `${here.date} ${k}`;
      const t = tally.get(index) ?? new Map<string, number>();
      t.set(key, (t.get(key) ?? 0) + 1);
      tally.set(index, t);
      if (rate[k]!.CentsPerHour > 0) {
        paid.set(index, (paid.get(index) ?? 0) + 1);
        paidMinutes++;
      }
    }
    let sixtieths = 0;
    for (const [index, t] of tally) {
      const span = body.Spans[index]!;
      const rate = rateFor(span, classes, permits);
      const perDay = new Map<string, number>();
      for (const [key, n] of t) {
        const [date, k] = key.split(' ');
        const units = Math.ceil(n / span.IncrementMinutes);
        perDay.set(date!, (perDay.get(date!) ?? 0) + units * span.IncrementMinutes * rate[Number(k)]!.CentsPerHour);
      }
      let sum = 0;
      for (const v of perDay.values()) sum += span.MaxDayCents === undefined ? v : Math.min(v, 60 * span.MaxDayCents);
      if (span.MaxSessionCents !== undefined) sum = Math.min(sum, 60 * span.MaxSessionCents);
      if (span.MinSessionCents !== undefined && (paid.get(index) ?? 0) > 0)
        sum = Math.max(sum, 60 * span.MinSessionCents);
      sixtieths += sum;
    }
    return { sixtieths, paidMinutes };
  };
  const whole = bill(to);
  const before = bill(from);
  const d = whole.sixtieths - before.sixtieths;
  // Half-up to the cent on the exact fraction d × (100 - discount) / 6000.
  const cents = Math.floor((d * (100 - discount)) / 6000 + 0.5 + 1e-9);
  return {
    cents,
    paidMinutes: whole.paidMinutes - before.paidMinutes,
    stretchCents: Math.floor(d / 60 + 0.5 + 1e-9),
  };
}

const clock = fc
  .tuple(fc.integer({ min: 0, max: 23 }), fc.constantFrom(0, 15, 30, 45, 7))
  .map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`);
const rate = fc.array(fc.integer({ min: 0, max: 900 }), { minLength: 1, maxLength: 3 }).chain((cph) =>
  fc
    .uniqueArray(fc.integer({ min: 1, max: 300 }), { minLength: cph.length - 1, maxLength: cph.length - 1 })
    .map((starts) => {
      const from = [0, ...starts.sort((a, b) => a - b)];
      return cph.map((c, i) => ({ FromMinute: from[i]!, CentsPerHour: c }));
    }),
);
const date = fc.integer({ min: 0, max: 40 }).map((d) => new Date(Date.UTC(2026, 2, 1 + d)).toISOString().slice(0, 10));
const span = (i: number) =>
  fc.record(
    {
      Id: fc.constant(`s${i}`),
      Name: fc.constant(`Span ${i}`),
      Days: fc.uniqueArray(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 7 }),
      DaysOfMonth: fc.uniqueArray(fc.integer({ min: 1, max: 31 }), { minLength: 1, maxLength: 25 }),
      Months: fc.uniqueArray(fc.integer({ min: 2, max: 4 }), { minLength: 1, maxLength: 3 }),
      From: clock,
      Until: fc.oneof(clock, fc.constant('24:00')),
      StartDate: date,
      EndDate: date,
      Holidays: fc.constantFrom('only' as const, 'except' as const),
      Rate: rate,
      IncrementMinutes: fc.constantFrom(1, 5, 15, 60),
      FreeMinutes: fc.constantFrom(0, 10, 30),
      MinSessionCents: fc.integer({ min: 0, max: 300 }),
      MaxSessionCents: fc.integer({ min: 300, max: 3000 }),
      MaxDayCents: fc.integer({ min: 300, max: 2000 }),
      UserClasses: fc.constantFrom(
        [],
        [{ UserClass: 'disabled' as const, Exempt: true }],
        [{ UserClass: 'ev' as const, Exempt: false, Rate: [{ FromMinute: 0, CentsPerHour: 50 }] }],
        [
          { PermitTypeId: 7, Exempt: false, Rate: [{ FromMinute: 0, CentsPerHour: 75 }] },
          {
            UserClass: 'permit' as const,
            Exempt: false,
            Rate: [
              { FromMinute: 0, CentsPerHour: 30 },
              { FromMinute: 45, CentsPerHour: 90 },
            ],
          },
        ],
        [
          { PermitKind: 'resident' as const, Exempt: true },
          { PermitTypeId: 8, Exempt: false, Rate: [{ FromMinute: 0, CentsPerHour: 125 }] },
          { UserClass: 'ev' as const, Exempt: false, Rate: [{ FromMinute: 0, CentsPerHour: 40 }] },
        ],
      ),
    },
    {
      requiredKeys: ['Id', 'Name', 'Rate', 'IncrementMinutes', 'FreeMinutes', 'UserClasses'],
    },
  );
const body = fc
  .record({
    Spans: fc.integer({ min: 0, max: 4 }).chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => span(i)))),
    Holidays: fc.uniqueArray(date, { maxLength: 5 }),
  })
  .map((b) => PolicyBody.safeParse({ ...b, MaxStayMinutes: 10_080 }))
  .filter((r) => r.success)
  .map((r) => r.data!);

describe('the quote engine against the minute-by-minute reference', () => {
  it('prices any policy, stay and window alike', () => {
    fc.assert(
      fc.property(
        body,
        fc.constantFrom(...ZONES),
        // Spring 2026: both DST changes of Chicago and London, Lord Howe's half hour.
        fc.integer({ min: Date.UTC(2026, 2, 1), max: Date.UTC(2026, 3, 5) }),
        fc.integer({ min: 1, max: 3000 }),
        fc.integer({ min: 0, max: 3000 }),
        fc.subarray([...USER_CLASSES]),
        // No permit, or some of: a business permit of type 7, a resident one of type 8, an EV one of type 9.
        fc.subarray<HeldPermit>([
          { id: 1, typeId: 7, kind: 'business' },
          { id: 2, typeId: 8, kind: 'resident' },
          { id: 3, typeId: 9, kind: 'ev' },
        ]),
        fc.constantFrom(0, 10),
        (policy, tz, startRaw, a, b, cls, permits, discount) => {
          const startMs = Math.floor(startRaw / MINUTE) * MINUTE;
          const [from, to] = a <= b ? [a, b] : [b, a];
          const classes = new Set(cls);
          const got = priceWindow(compilePolicy(policy), tz, startMs, from, to, {
            discountPercent: discount,
            classes,
            permits,
          });
          const want = reference(policy, tz, startMs, from, to, classes, permits, discount);
          expect(got.parkingCents).toBe(want.cents);
          expect(got.paidMinutes).toBe(want.paidMinutes);
          expect(got.stretches.reduce((s, x) => s + x.cents, 0)).toBe(want.stretchCents);
          expect(got.stretches.reduce((s, x) => s + x.endMinute - x.startMinute, 0)).toBe(to - from);
        },
      ),
      { numRuns: 200 },
    );
  });
});
