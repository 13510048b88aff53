import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  type ParkingSession,
  type PolicyBodyInput,
  type Quote,
  type StopResponse,
  PRICING_MESSAGES,
} from '@parkit/contract';
import { operators, parkingSessions, pricePolicyVersions, zones } from '../../src/db/schema/index.ts';
import { HttpError } from '../../src/lib/http-error.ts';
import {
  adoptPresetPolicies,
  assignPolicy,
  createPriceEvent,
  listPolicyVersions,
  listPriceEvents,
  presetPolicy,
  previewPrice,
  savePolicyVersion,
  type Preset,
} from '../../src/pricing/index.ts';
import { queryRows } from '../../src/db/client.ts';
import { seedDemoZones } from '../../src/seeds/demo-zones.ts';
import { defaultOperatorId } from '../../src/zones/index.ts';
import { count } from '../concurrency.ts';
import { as, buildTestApp, registerAndSignIn } from '../helpers.ts';
import { addVehicle, addZone, credit, pay, quote, startSession } from '../parking-helpers.ts';

const { app, database } = await buildTestApp();
const db = database.db;
const mine = await defaultOperatorId(db);
const [rival] = await db
  .insert(operators)
  .values({ name: 'Rival', city: 'Austin', state: 'TX', lat: 30.2672, lng: -97.7431, timezone: 'America/Chicago' })
  .returning();
const theirs = rival!.id;

const allDay = (cents: number, more: Record<string, unknown> = {}): PolicyBodyInput => ({
  Spans: [{ Id: 'all', Name: 'All day', Rate: [{ FromMinute: 0, CentsPerHour: cents }], ...more }],
  MaxStayMinutes: 240,
});
const weekdayProgressive: PolicyBodyInput = {
  Spans: [
    {
      Id: 'weekday',
      Name: 'Weekday',
      Days: [1, 2, 3, 4, 5],
      From: '08:00',
      Until: '18:00',
      Rate: [
        { FromMinute: 0, CentsPerHour: 200 },
        { FromMinute: 60, CentsPerHour: 300 },
      ],
    },
    { Id: 'weekend', Name: 'Weekend', Days: [6, 7], Rate: [{ FromMinute: 0, CentsPerHour: 150 }], MaxDayCents: 600 },
  ],
  MaxStayMinutes: 600,
};

/** The refusal a domain function throws, as status and first field. */
async function refusal(p: Promise<unknown>): Promise<[number, string | undefined]> {
  try {
    await p;
  } catch (err) {
    if (err instanceof HttpError) return [err.statusCode, err.errors?.[0]?.field];
    throw err;
  }
  throw new Error('not refused');
}

const versions = () => count(db, sql`select count(*) from price_policy_versions`);

describe('policy versions', () => {
  it('creates a policy, adds versions, lists them; refuses bad bodies and the past and writes nothing', async () => {
    const now = new Date();
    const v1 = await savePolicyVersion(db, mine, null, { Name: 'Downtown', Body: weekdayProgressive }, now);
    expect([v1.Version, v1.Name, v1.EffectiveFrom]).toEqual([1, 'Downtown', now.toISOString()]);
    const later = new Date(now.getTime() + 3_600_000).toISOString();
    const v2 = await savePolicyVersion(db, mine, v1.PolicyId, { EffectiveFrom: later, Body: allDay(300) }, now);
    expect([v2.Version, v2.EffectiveFrom]).toEqual([2, later]);
    expect((await listPolicyVersions(db, mine, v1.PolicyId))?.map((v) => v.Version)).toEqual([1, 2]);

    const before = await versions();
    const bad = { ...weekdayProgressive, Spans: [{ ...weekdayProgressive.Spans[0]!, From: '25:00' }] };
    expect(await refusal(savePolicyVersion(db, mine, v1.PolicyId, { Body: bad }, now))).toEqual([
      400,
      'Body.Spans.0.From',
    ]);
    const steps = allDay(100, { Rate: [{ FromMinute: 30, CentsPerHour: 1 }] });
    expect(await refusal(savePolicyVersion(db, mine, v1.PolicyId, { Body: steps }, now))).toEqual([
      400,
      'Body.Spans.0.Rate.0.FromMinute',
    ]);
    const past = new Date(now.getTime() - 3_600_000).toISOString();
    expect(
      await refusal(savePolicyVersion(db, mine, v1.PolicyId, { EffectiveFrom: past, Body: allDay(1) }, now)),
    ).toEqual([400, 'EffectiveFrom']);
    expect(await refusal(savePolicyVersion(db, mine, null, { Body: allDay(1) }, now))).toEqual([400, 'Name']);
    expect(await refusal(savePolicyVersion(db, mine, null, { Name: 'Downtown', Body: allDay(1) }, now))).toEqual([
      409,
      'Name',
    ]);
    expect(await versions()).toBe(before);
  });

  it("another operator's policy is not found, for every function", async () => {
    const now = new Date();
    const p = await savePolicyVersion(db, theirs, null, { Name: 'Theirs', Body: allDay(100) }, now);
    const before = await versions();
    expect(await refusal(savePolicyVersion(db, mine, p.PolicyId, { Body: allDay(1) }, now))).toEqual([404, undefined]);
    expect(await listPolicyVersions(db, mine, p.PolicyId)).toBeNull();
    const ask = { StartsAt: now.toISOString(), DurationMinutes: 60 };
    expect(await refusal(previewPrice(db, mine, { policyId: p.PolicyId }, ask))).toEqual([404, undefined]);
    const zone = await addZone(db, '2901');
    expect(await assignPolicy(db, mine, zone, p.PolicyId)).toBe(false);
    expect(await assignPolicy(db, theirs, zone, p.PolicyId)).toBe(false);
    const event = {
      Name: 'Match',
      StartsAt: now.toISOString(),
      EndsAt: later(now, 60),
      PolicyId: p.PolicyId,
      ZoneIds: [zone],
    };
    expect(await refusal(createPriceEvent(db, mine, event))).toEqual([404, undefined]);
    expect(await refusal(createPriceEvent(db, theirs, event))).toEqual([404, undefined]);
    expect(await versions()).toBe(before);
    const [z] = await db.select({ p: zones.pricePolicyId }).from(zones).where(eq(zones.id, zone));
    expect(z?.p).toBeNull();
  });

  it('numbers concurrent versions of one policy one by one (the policy row is locked)', async () => {
    const now = new Date();
    const p = await savePolicyVersion(db, mine, null, { Name: 'Busy', Body: allDay(100) }, now);
    const saved = await Promise.all(
      Array.from({ length: 6 }, (_, i) => savePolicyVersion(db, mine, p.PolicyId, { Body: allDay(100 + i) }, now)),
    );
    expect(saved.map((v) => v.Version).sort((a, b) => a - b)).toEqual([2, 3, 4, 5, 6, 7]);
  });
});

const later = (from: Date, minutes: number) => new Date(from.getTime() + minutes * 60_000).toISOString();

describe('preview', () => {
  it('prices "a 2-hour stay at 17:30 on a Saturday" by a saved policy, a named version or a draft', async () => {
    const now = new Date();
    const p = await savePolicyVersion(db, mine, null, { Name: 'Preview', Body: weekdayProgressive }, now);
    // Saturday 2026-06-06 17:30 in Chicago (CDT) is 22:30Z: 2 hours of the weekend rate, capped at $6 a day.
    const saturday = { StartsAt: '2026-06-06T22:30:00Z', DurationMinutes: 120 };
    const got = await previewPrice(db, mine, { policyId: p.PolicyId, version: 1 }, saturday);
    expect([got.Amount, got.PaidMinutes, got.Refusal]).toEqual([3, 120, null]);
    expect(got.Spans.map((s) => [s.Name, s.Minutes, s.Amount])).toEqual([['Weekend', 120, 3]]);
    // Monday 2026-06-08 17:30 CDT: 30 minutes of the first hour ($1), then free evening.
    const monday = await previewPrice(
      db,
      mine,
      { body: weekdayProgressive },
      { StartsAt: '2026-06-08T22:30:00Z', DurationMinutes: 120 },
    );
    expect(monday.Spans.map((s) => [s.Name, s.Minutes, s.Amount])).toEqual([
      ['Weekday', 30, 1],
      [null, 90, 0],
    ]);
    const long = await previewPrice(
      db,
      mine,
      { body: weekdayProgressive },
      { StartsAt: saturday.StartsAt, DurationMinutes: 601 },
    );
    expect(long.Refusal).not.toBeNull();
    expect(await refusal(previewPrice(db, mine, { body: { Spans: [] } }, saturday))).toEqual([400, 'MaxStayMinutes']);
    expect(
      await refusal(previewPrice(db, mine, { policyId: p.PolicyId }, { StartsAt: 'Saturday', DurationMinutes: 1 })),
    ).toEqual([400, 'StartsAt']);
  });
});

describe('the driver’s quote under policies', () => {
  const driver = async () => {
    const who = await registerAndSignIn(app);
    await credit(db, who.memberId, 100_000);
    return { who, vehicle: await addVehicle(app, who) };
  };
  const quoted = async (who: Awaited<ReturnType<typeof driver>>['who'], body: Record<string, number>) => {
    const res = await quote(app, who, body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Quote>();
  };

  it('a preset zone costs the same before and after it adopts its preset policy, and the answer lists the spans', async () => {
    const zone = await addZone(db, '2902', { rateCents: 199 });
    const { who, vehicle } = await driver();
    const before = await quoted(who, { ZoneId: zone, VehicleId: vehicle, DurationMinutes: 37 });
    expect(await adoptPresetPolicies(db)).toBeGreaterThan(0);
    expect(await adoptPresetPolicies(db)).toBe(0);
    const [z] = await db.select({ p: zones.pricePolicyId }).from(zones).where(eq(zones.id, zone));
    expect(z?.p).not.toBeNull();
    const after = await quoted(who, { ZoneId: zone, VehicleId: vehicle, DurationMinutes: 37 });
    expect([after.ParkingAmount, after.PaidMinutes]).toEqual([before.ParkingAmount, before.PaidMinutes]);
    expect(after.ParkingAmount).toBe(1.23); // 199 x 37 / 60 = 122.7
    expect(after.Spans.map((s) => [s.Name, s.Minutes, s.Amount])).toEqual([['Paid hours', 37, 1.23]]);
  });

  it('adopts the presets of the demo zones in one batch: every zone a policy equal to its preset', async () => {
    expect(await seedDemoZones(db, theirs, 300)).toBe(300);
    expect(await adoptPresetPolicies(db)).toBeGreaterThanOrEqual(300);
    expect(await count(db, sql`select count(*) from zones where price_policy_id is null`)).toBe(0);
    const pairs = await queryRows<{ zone: Record<string, unknown>; body: unknown }>(
      db,
      sql`select json_build_object('rateCents', z.rate_cents, 'maxStayMinutes', z.max_stay_minutes, 'paidDays', z.paid_days,
            'paidFromMinute', z.paid_from_minute, 'paidUntilMinute', z.paid_until_minute) as zone, v.body
          from zones z join price_policy_versions v on v.policy_id = z.price_policy_id and v.version = 1`,
    );
    expect(pairs.length).toBeGreaterThanOrEqual(300);
    for (const { zone, body } of pairs) expect(body).toEqual(presetPolicy(zone as unknown as Preset));
  });

  it('a new version prices new sessions; a running session keeps its version for Extend and Stop', async () => {
    const now = new Date();
    const zone = await addZone(db, '2903');
    const p = await savePolicyVersion(db, mine, null, { Name: 'Versioned', Body: allDay(600) }, now);
    expect(await assignPolicy(db, mine, zone, p.PolicyId)).toBe(true);
    const { who, vehicle } = await driver();
    const s = await startSession(app, who, { zoneId: zone, vehicleId: vehicle, minutes: 60 });
    expect(s.ParkingAmount).toBe(6);
    const [row] = await db
      .select({ v: parkingSessions.policyVersionId })
      .from(parkingSessions)
      .where(eq(parkingSessions.id, s.SessionId));
    const [v1] = await db
      .select({ id: pricePolicyVersions.id })
      .from(pricePolicyVersions)
      .where(eq(pricePolicyVersions.policyId, p.PolicyId));
    expect(row?.v).toBe(v1?.id);

    await savePolicyVersion(db, mine, p.PolicyId, { Body: allDay(1200) }, new Date());
    const other = await driver();
    expect(
      (await quoted(other.who, { ZoneId: zone, VehicleId: other.vehicle, DurationMinutes: 60 })).ParkingAmount,
    ).toBe(12);
    // The running session: 30 more minutes at its own $6 an hour.
    const more = await quoted(who, { SessionId: s.SessionId, DurationMinutes: 30 });
    expect(more.ParkingAmount).toBe(3);
    const extended = await pay(app, who, 'Extend', { QuoteId: more.QuoteId });
    expect(extended.statusCode, extended.body).toBe(200);
    expect(extended.json<ParkingSession>().ParkingAmount).toBe(9);
    const stopped = await as(app, who, {
      method: 'POST',
      url: '/api/Parking/Stop',
      payload: { SessionId: s.SessionId },
    });
    expect(stopped.statusCode, stopped.body).toBe(200);
    // About 89 unused minutes at $6 an hour, not at the new $12.
    const refund = stopped.json<StopResponse>().RefundAmount;
    expect(refund).toBeGreaterThan(8.5);
    expect(refund).toBeLessThanOrEqual(9);
  });

  it('an event prices sessions started in its window in its zones; a no-return period refuses a quick return', async () => {
    const now = new Date();
    const zone = await addZone(db, '2904');
    const elsewhere = await addZone(db, '2905');
    const base = await savePolicyVersion(
      db,
      mine,
      null,
      { Name: 'Base', Body: allDay(200, { NoReturnMinutes: 60 }) },
      now,
    );
    const flat = await savePolicyVersion(db, mine, null, { Name: 'Match day', Body: allDay(1000) }, now);
    expect(await assignPolicy(db, mine, zone, base.PolicyId)).toBe(true);
    expect(await assignPolicy(db, mine, elsewhere, base.PolicyId)).toBe(true);
    const { who, vehicle } = await driver();
    expect((await quoted(who, { ZoneId: zone, VehicleId: vehicle, DurationMinutes: 60 })).ParkingAmount).toBe(2);

    const event = await createPriceEvent(db, mine, {
      Name: 'Match',
      StartsAt: later(now, -5),
      EndsAt: later(now, 120),
      PolicyId: flat.PolicyId,
      ZoneIds: [zone, zone],
    });
    expect(event.ZoneIds).toEqual([zone]);
    expect((await listPriceEvents(db, mine, now)).map((e) => e.Name)).toEqual(['Match']);
    expect(await listPriceEvents(db, theirs, now)).toEqual([]);
    expect((await quoted(who, { ZoneId: zone, VehicleId: vehicle, DurationMinutes: 60 })).ParkingAmount).toBe(10);
    expect((await quoted(who, { ZoneId: elsewhere, VehicleId: vehicle, DurationMinutes: 60 })).ParkingAmount).toBe(2);
    const backwards = {
      Name: 'Backwards',
      StartsAt: event.EndsAt,
      EndsAt: event.StartsAt,
      PolicyId: flat.PolicyId,
      ZoneIds: [zone],
    };
    expect(await refusal(createPriceEvent(db, mine, backwards))).toEqual([400, 'EndsAt']);

    const s = await startSession(app, who, { zoneId: elsewhere, vehicleId: vehicle, minutes: 30 });
    await as(app, who, { method: 'POST', url: '/api/Parking/Stop', payload: { SessionId: s.SessionId } });
    const back = await quote(app, who, { ZoneId: elsewhere, VehicleId: vehicle, DurationMinutes: 30 });
    expect(back.statusCode).toBe(409);
    expect(back.json<{ message: string }>().message).toBe(PRICING_MESSAGES.noReturn);
  });
});
