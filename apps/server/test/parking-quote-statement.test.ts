// The start quote's one statement (parking/quote-statement.ts): when the process holds what prices
// it, one statement answers exactly what the step-by-step quoteStart answers; when anything it held
// is no longer so, or a rule refuses, it writes nothing (the route then asks quoteStart, which
// answers the precise refusal) and the next quote holds what the statement saw. PGlite and PostgreSQL.
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { ParkingSession, Quote } from '@parkit/contract';
import { queryRows } from '../src/db/client.ts';
import { permits, zones } from '../src/db/schema/index.ts';
import { quoteExtend, quoteStart } from '../src/parking/index.ts';
import { quoteExtendAnswered } from '../src/parking/quote-extend-statement.ts';
import { quoteStartAnswered } from '../src/parking/quote-statement.ts';
import { as, registerAndSignIn, type SignedIn } from './helpers.ts';
import { allDayPolicy, twoOperators } from './operator-helpers.ts';
import { addVehicle, addZone, credit, pay, quote, startSession } from './parking-helpers.ts';
import { recordStatements } from './support/statements.ts';

const { app, db, A, B, staff } = await twoOperators('Quote statement city B', ['manager'], {
  decorations: true,
});
const zone = await addZone(db, 'QST1', { maxStayMinutes: 240 }); // $2.50/h, the preset
const seen = recordStatements(db);

type Ask = { ZoneId: number; VehicleId: number; DurationMinutes: number };
const fast = (m: SignedIn, r: Ask, now = new Date()) => quoteStartAnswered(db, app.quoteInputs, m.memberId, r, now);
const quotes = async () =>
  (await queryRows<{ n: number }>(db, sql`select count(*)::int as n from parking_quotes`))[0]!.n;
const quoteRow = async (id: string) =>
  (
    await queryRows<Record<string, unknown>>(
      db,
      sql`select member_id, kind, zone_id, vehicle_id, starts_at, ends_at, duration_minutes, parking_cents, fee_cents,
            total_cents, discount_percent, policy_version_id, auto_start, expires_at, used_at, session_id, plate
          from parking_quotes where id = ${id}::uuid`,
    )
  )[0];
/** The same Quote but for its id. */
const terms = (q: Quote) => ({ ...q, QuoteId: 'any' });

/** Asks the statement until it answers (it reads the zone and the plans on its first call, and learns a version it did not hold). */
async function warm(m: SignedIn, r: Ask): Promise<void> {
  for (let i = 0; i < 3; i++) if (await fast(m, r)) return;
  throw new Error('the statement never answered');
}

/** One statement's quote beside quoteStart's at the same moment: equal but for the id, rows equal but for the id. */
async function expectSameAsStepByStep(m: SignedIn, r: Ask): Promise<Quote> {
  await warm(m, r);
  const now = new Date();
  seen.length = 0;
  const one = await fast(m, r, now);
  expect(seen).toHaveLength(1);
  expect(seen[0]).toMatch(/insert into parking_quotes/);
  expect(one).not.toBeNull();
  const step = await quoteStart(db, m.memberId, r, now);
  expect(terms(one!)).toEqual(terms(step));
  expect(await quoteRow(one!.QuoteId)).toEqual(await quoteRow(step.QuoteId));
  return one!;
}

async function member(cents = 5000) {
  const m = await registerAndSignIn(app);
  await credit(db, m.memberId, cents);
  return { m, car: await addVehicle(app, m) };
}

describe('POST /api/Parking/Quote for a new session in one statement', () => {
  it('answers what quoteStart answers, in one statement, for Basic (a fee) and Deluxe (a discount)', async () => {
    const { m, car } = await member(300);
    const basic = await expectSameAsStepByStep(m, { ZoneId: zone, VehicleId: car, DurationMinutes: 90 });
    expect(basic).toMatchObject({ ParkingAmount: 3.75, FeeAmount: 0.35, TotalAmount: 4.1, BalanceCovers: false });

    const { m: d, car: dCar } = await member();
    await db.execute(sql`insert into subscriptions (member_id, plan_id, status, current_period_start, current_period_end)
      select ${d.memberId}, id, 'active', now(), now() + interval '30 days' from plans where code = 'deluxe'`);
    const deluxe = await expectSameAsStepByStep(d, { ZoneId: zone, VehicleId: dCar, DurationMinutes: 90 });
    expect(deluxe).toMatchObject({ DiscountPercent: 10, ParkingAmount: 3.38, FeeAmount: 0, BalanceCovers: true });

    // The Max Payment Amount, read in the same statement.
    await db.execute(sql`insert into parking_options (member_id, max_payment_enabled, max_payment_cents)
      values (${d.memberId}, true, 200) on conflict (member_id) do update set max_payment_enabled = true, max_payment_cents = 200`);
    expect(await expectSameAsStepByStep(d, { ZoneId: zone, VehicleId: dCar, DurationMinutes: 30 })).toMatchObject({
      OverMaxPayment: false,
    });
    expect(await expectSameAsStepByStep(d, { ZoneId: zone, VehicleId: dCar, DurationMinutes: 60 })).toMatchObject({
      OverMaxPayment: true,
    });

    // Through the route: the same answer.
    const res = await quote(app, m, { ZoneId: zone, VehicleId: car, DurationMinutes: 90 });
    expect(res.statusCode, res.body).toBe(200);
    const { ParkingAmount, FeeAmount, TotalAmount, Balance, DurationMinutes, Spans } = basic;
    expect(res.json<Quote>()).toMatchObject({ ParkingAmount, FeeAmount, TotalAmount, Balance, DurationMinutes });
    expect(res.json<Quote>().Spans.map((s) => s.Amount)).toEqual(Spans.map((s) => s.Amount));
  });

  it('writes nothing when a rule refuses, and the route answers the step-by-step refusal', async () => {
    const { m, car } = await member();
    await warm(m, { ZoneId: zone, VehicleId: car, DurationMinutes: 30 });
    const { m: other, car: othersCar } = await member();
    const retired = await addZone(db, 'QST2');
    await fast(m, { ZoneId: retired, VehicleId: car, DurationMinutes: 30 }); // held before it retires
    await db.update(zones).set({ retiredAt: new Date() }).where(eq(zones.id, retired));
    const [ofB] = await db.select({ id: zones.id }).from(zones).where(eq(zones.operatorId, B)).limit(1);
    const bZone = ofB?.id ?? (await addZone(db, 'QSTB'));
    if (!ofB) await db.update(zones).set({ operatorId: B }).where(eq(zones.id, bZone));
    const parked = await addVehicle(app, m, 'QST PARK');
    await startSession(app, m, { zoneId: zone, vehicleId: parked, minutes: 30 });
    const permitCar = await addVehicle(app, m, 'QST-PMT');
    const [type] = await queryRows<{ id: number }>(
      db,
      sql`insert into permit_types (operator_id, kind, name, zone_ids, valid_months, price_cents, proof_required, max_plates, visitor_days_per_month)
          values (${A}, 'resident', 'QST residents', array[${zone}]::int[], 12, 0, false, 1, 0) returning id`,
    );
    await db.insert(permits).values({
      operatorId: A,
      typeId: type!.id,
      memberId: m.memberId,
      plates: ['QSTPMT'],
      zoneIds: [zone],
      status: 'active',
      priceCents: 0,
      validFrom: new Date(Date.now() - 3_600_000),
      validUntil: new Date(Date.now() + 3_600_000),
    });

    const cases: [string, Ask, number][] = [
      ['another member’s vehicle', { ZoneId: zone, VehicleId: othersCar, DurationMinutes: 30 }, 404],
      ['a parked vehicle', { ZoneId: zone, VehicleId: parked, DurationMinutes: 30 }, 409],
      ['a retired zone', { ZoneId: retired, VehicleId: car, DurationMinutes: 30 }, 409],
      ['another operator’s zone', { ZoneId: bZone, VehicleId: car, DurationMinutes: 30 }, 404],
      ['no such zone', { ZoneId: 999_999, VehicleId: car, DurationMinutes: 30 }, 404],
      ['past the maximum stay', { ZoneId: zone, VehicleId: car, DurationMinutes: 300 }, 400],
      ['a permit for the zone (this one parks free)', { ZoneId: zone, VehicleId: permitCar, DurationMinutes: 30 }, 409],
    ];
    for (const [what, r, status] of cases) {
      const before = await quotes();
      expect(await fast(m, r), what).toBeNull();
      expect(await quotes(), what).toBe(before);
      const res = await quote(app, m, r);
      expect(res.statusCode, `${what}: ${res.body}`).toBe(status);
    }
    // Another member's vehicle stays refused for the vehicle's owner's quote too: no quote of other's.
    expect(await fast(other, { ZoneId: zone, VehicleId: car, DurationMinutes: 30 })).toBeNull();
  });

  it('follows what changed: a zone edited, a policy in force, a plan’s fee; each first writes nothing, then answers anew', async () => {
    const { m, car } = await member();
    const z = await addZone(db, 'QST3', { maxStayMinutes: 240 });
    const r = { ZoneId: z, VehicleId: car, DurationMinutes: 60 };
    await warm(m, r);

    await db.update(zones).set({ rateCents: 400 }).where(eq(zones.id, z));
    let before = await quotes();
    expect(await fast(m, r)).toBeNull();
    expect(await quotes()).toBe(before);
    expect(await expectSameAsStepByStep(m, r)).toMatchObject({ RatePerHour: 4, ParkingAmount: 4 });

    const v = await allDayPolicy(app, staff.manager, A, {
      name: 'QST all day',
      zoneIds: [z],
      rates: [
        [0, 300],
        [60, 600],
      ],
      maxStayMinutes: 180,
    });
    before = await quotes();
    expect(await fast(m, { ...r, DurationMinutes: 90 })).toBeNull();
    expect(await quotes()).toBe(before);
    const progressive = await expectSameAsStepByStep(m, { ...r, DurationMinutes: 90 });
    expect(progressive).toMatchObject({ ParkingAmount: 6, MaxMoreMinutes: 180 });
    const [version] = await queryRows<{ id: number }>(
      db,
      sql`select id from price_policy_versions where policy_id = ${v.PolicyId} and version = ${v.Version}`,
    );
    expect((await quoteRow(progressive.QuoteId))?.policy_version_id).toBe(version!.id);

    // A new version of the zone's policy, in force now: the zone's row is unchanged.
    const published = await as(app, staff.manager, {
      method: 'POST',
      url: `/api/Operator/${A}/Policies/${v.PolicyId}/Versions`,
      payload: {
        Body: { ...v.Body, Spans: [{ ...v.Body.Spans[0]!, Rate: [{ FromMinute: 0, CentsPerHour: 500 }] }] },
      },
    });
    expect(published.statusCode, published.body).toBe(201);
    before = await quotes();
    expect(await fast(m, { ...r, DurationMinutes: 90 })).toBeNull();
    expect(await quotes()).toBe(before);
    expect(await expectSameAsStepByStep(m, { ...r, DurationMinutes: 90 })).toMatchObject({ ParkingAmount: 7.5 });

    await db.execute(sql`update plans set convenience_fee_cents = convenience_fee_cents + 10 where code = 'basic'`);
    try {
      before = await quotes();
      expect(await fast(m, r)).toBeNull();
      expect(await quotes()).toBe(before);
      expect(await expectSameAsStepByStep(m, r)).toMatchObject({ FeeAmount: 0.45 });
    } finally {
      await db.execute(sql`update plans set convenience_fee_cents = convenience_fee_cents - 10 where code = 'basic'`);
    }
  });

  it('prices each zone by its own policy, and a zone of no policy by its preset, with other zones’ policies newer', async () => {
    const { m, car } = await member();
    const own = await addZone(db, 'QST5', { maxStayMinutes: 240 });
    await allDayPolicy(app, staff.manager, A, {
      name: 'QST own',
      zoneIds: [own],
      rates: [[0, 120]],
      maxStayMinutes: 240,
    });
    // Newer policies of other zones: a zone's version must not be taken for another's.
    const other = await addZone(db, 'QST6', { maxStayMinutes: 240 });
    await allDayPolicy(app, staff.manager, A, {
      name: 'QST other',
      zoneIds: [other],
      rates: [[0, 900]],
      maxStayMinutes: 90,
    });
    const preset = await addZone(db, 'QST7', { maxStayMinutes: 240 });
    expect(await expectSameAsStepByStep(m, { ZoneId: own, VehicleId: car, DurationMinutes: 60 })).toMatchObject({
      ParkingAmount: 1.2,
    });
    expect(await expectSameAsStepByStep(m, { ZoneId: preset, VehicleId: car, DurationMinutes: 60 })).toMatchObject({
      ParkingAmount: 2.5,
      MaxMoreMinutes: 240,
    });
  });
});

describe('POST /api/Parking/Quote for more minutes in one statement', () => {
  const more = (m: SignedIn, SessionId: number, DurationMinutes: number, now = new Date()) =>
    quoteExtendAnswered(db, app.sessionTerms, m.memberId, { SessionId, DurationMinutes }, now);

  it('answers what quoteExtend answers, in one statement, for a session this process started or extended', async () => {
    const { m, car } = await member();
    const s = await startSession(app, m, { zoneId: zone, vehicleId: car, minutes: 60 });
    for (const minutes of [30, 45]) {
      const now = new Date();
      seen.length = 0;
      const one = await more(m, s.SessionId, minutes, now);
      expect(seen).toHaveLength(1);
      expect(seen[0]).toMatch(/insert into parking_quotes/);
      expect(one).not.toBeNull();
      const step = await quoteExtend(db, m.memberId, { SessionId: s.SessionId, DurationMinutes: minutes }, now);
      expect(terms(one!)).toEqual(terms(step));
      expect(await quoteRow(one!.QuoteId)).toEqual(await quoteRow(step.QuoteId));
    }
    // Extended by its quote (Extend's statement): the next quote starts at the new end, still in one statement.
    const q = await more(m, s.SessionId, 30);
    const e = await pay(app, m, 'Extend', { QuoteId: q!.QuoteId });
    expect(e.statusCode, e.body).toBe(200);
    const next = await more(m, s.SessionId, 15);
    expect(next).toMatchObject({ StartsAt: e.json<ParkingSession>().EndsAt, DurationMinutes: 15, MaxMoreMinutes: 150 });
  });

  it('writes nothing when the session is not as held or the minutes do not fit, and the route answers quoteExtend’s', async () => {
    const { m, car } = await member();
    const { m: other } = await member();
    const s = await startSession(app, m, { zoneId: zone, vehicleId: car, minutes: 60 });
    const cases: [string, SignedIn, number, number][] = [
      ['another member’s session', other, s.SessionId, 404],
      ['past the maximum stay', m, 200, 400],
    ];
    for (const [what, who, minutes, status] of cases) {
      const before = await quotes();
      expect(await more(who, s.SessionId, minutes), what).toBeNull();
      expect(await quotes(), what).toBe(before);
      const res = await quote(app, who, { SessionId: s.SessionId, DurationMinutes: minutes });
      expect(res.statusCode, `${what}: ${res.body}`).toBe(status);
    }
    // Changed elsewhere (an operator's correction of its money): quoteExtend prices it as it is.
    await db.execute(sql`update parking_sessions set discount_percent = 10 where id = ${s.SessionId}`);
    const before = await quotes();
    expect(await more(m, s.SessionId, 30)).toBeNull();
    expect(await quotes()).toBe(before);
    const res = await quote(app, m, { SessionId: s.SessionId, DurationMinutes: 30 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Quote>()).toMatchObject({ DiscountPercent: 10, DurationMinutes: 30 });
    expect(res.json<Quote>().DiscountAmount).toBeGreaterThan(0);
  });
});
