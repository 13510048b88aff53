import { describe, expect, it } from 'vitest';
import {
  PRICING_MESSAGES,
  type AuditPage,
  type PolicyBodyInput,
  type PolicyDetail,
  type PolicySummary,
  type PolicyVersion,
  type PriceEvent,
  type PricePreview,
  type Quote,
} from '@parkit/contract';
import { as, expectRefused, registerAndSignIn } from '../../helpers.ts';
import { concurrently, statusCounts } from '../../concurrency.ts';
import { tableChecksums } from '../../guards/checksums.ts';
import { twoOperators } from '../../operator-helpers.ts';
import { addVehicle, addZone, credit, quote, startSession } from '../../parking-helpers.ts';

// An operator's prices in the console (docs/pricing.md): policies, versions with an effective
// time, the draft preview from the real engine, assignment to zones, events; roles, audit,
// another operator's ids, bad and hostile input, two versions published at once.
const {
  app,
  db,
  A,
  B,
  owner,
  ownerB,
  staff: { manager, analyst, officer },
} = await twoOperators('Other Prices Parking', ['manager', 'analyst', 'officer']);
const driver = await registerAndSignIn(app);
await credit(db, driver.memberId, 50_000);
const vehicle = await addVehicle(app, driver);

type Who = Parameters<typeof as>[1];
const send = (who: Who, method: 'GET' | 'POST', url: string, payload?: object) =>
  as(app, who, { method, url, ...(payload ? { payload } : {}) });

/** Weekdays 08:00-18:00: $2 the first hour, $3 each further hour; weekends $1.50 an hour, $6 a day at most. */
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
const allDay = (cents: number): PolicyBodyInput => ({
  Spans: [{ Id: 'all', Name: 'All day', Rate: [{ FromMinute: 0, CentsPerHour: cents }] }],
  MaxStayMinutes: 240,
});

let n = 0;
const create = (who: Who, body: PolicyBodyInput = allDay(100), operatorId = A, name = `Policy ${++n}`) =>
  send(who, 'POST', `/api/Operator/${operatorId}/Policies`, { Name: name, Body: body });
const made = async (body: PolicyBodyInput = allDay(100), who: Who = manager) => {
  const res = await create(who, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<PolicyVersion>();
};
const detail = async (policyId: number, operatorId = A, who: Who = owner) =>
  send(who, 'GET', `/api/Operator/${operatorId}/Policies/${policyId}`);
const lastAudit = async () =>
  (await send(owner, 'GET', `/api/Operator/${A}/Audit?limit=1`)).json<AuditPage>().Entries[0]!;
const inMinutes = (m: number) => new Date(Date.now() + m * 60_000).toISOString();

describe('policies and versions', () => {
  it('a manager creates a policy; it is audited, listed and read with its versions; an analyst reads it', async () => {
    const v = await made(weekdayProgressive);
    expect(v).toMatchObject({ Version: 1, Body: { MaxStayMinutes: 600 } });
    expect(await lastAudit()).toMatchObject({
      Action: 'policy.create',
      Entity: 'price_policy',
      EntityId: String(v.PolicyId),
      Before: null,
    });
    const list = (await send(analyst, 'GET', `/api/Operator/${A}/Policies`)).json<PolicySummary[]>();
    expect(list.find((p) => p.PolicyId === v.PolicyId)).toEqual({
      PolicyId: v.PolicyId,
      Name: v.Name,
      LatestVersion: 1,
      CurrentVersion: 1,
      ZoneCount: 0,
    });
    const got = await detail(v.PolicyId, A, analyst);
    expect(got.statusCode, got.body).toBe(200);
    expect(got.json<PolicyDetail>()).toEqual({
      PolicyId: v.PolicyId,
      Name: v.Name,
      CurrentVersion: 1,
      Versions: [v],
      ZoneIds: [],
    });
  });

  it('a version with a later effective time is the latest but not yet in force; an earlier one is refused', async () => {
    const v = await made();
    const later = inMinutes(60);
    const res = await send(manager, 'POST', `/api/Operator/${A}/Policies/${v.PolicyId}/Versions`, {
      EffectiveFrom: later,
      Body: allDay(400),
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json<PolicyVersion>()).toMatchObject({ Version: 2, EffectiveFrom: later });
    const entry = await lastAudit();
    expect(entry).toMatchObject({ Action: 'policy.version', EntityId: String(v.PolicyId) });
    expect(entry.Before).toMatchObject({ Version: 1 });
    expect(entry.After).toMatchObject({ Version: 2 });
    expect((await detail(v.PolicyId)).json<PolicyDetail>()).toMatchObject({ CurrentVersion: 1 });

    const before = await tableChecksums(db);
    const past = await send(manager, 'POST', `/api/Operator/${A}/Policies/${v.PolicyId}/Versions`, {
      EffectiveFrom: inMinutes(-60),
      Body: allDay(400),
    });
    expectRefused(past, 400, 'EffectiveFrom', PRICING_MESSAGES.effectivePast);
    expect(await tableChecksums(db)).toEqual(before);
  });

  it('two versions published at once are numbered one after the other, both kept', async () => {
    const v = await made();
    const results = await concurrently(2, (i) =>
      send(i ? owner : manager, 'POST', `/api/Operator/${A}/Policies/${v.PolicyId}/Versions`, {
        Body: allDay(500 + i),
      }),
    );
    expect(statusCounts(results)).toEqual({ 201: 2 });
    expect(results.map((r) => r.json<PolicyVersion>().Version).sort()).toEqual([2, 3]);
    const versions = (await detail(v.PolicyId)).json<PolicyDetail>().Versions;
    expect(versions.map((x) => x.Version)).toEqual([1, 2, 3]);
    expect(
      versions
        .map((x) => x.Body.Spans[0]!.Rate[0]!.CentsPerHour)
        .slice(1)
        .sort(),
    ).toEqual([500, 501]);
  });

  it('a name the operator has already is a 409; two creates of one name at once: one 201, one 409', async () => {
    const v = await made();
    expectRefused(await create(owner, allDay(1), A, v.Name), 409, 'Name', PRICING_MESSAGES.nameTaken);
    expect((await create(ownerB, allDay(1), B, v.Name)).statusCode).toBe(201);
    const results = await concurrently(2, () => create(manager, allDay(1), A, `Race ${process.pid}`));
    expect(statusCounts(results)).toEqual({ 201: 1, 409: 1 });
  });

  it('bad and hostile input is a 400 naming the field and changes nothing', async () => {
    const v = await made();
    const before = await tableChecksums(db);
    const span = weekdayProgressive.Spans[0]!;
    // A field of '' : the input guard refuses the whole body (a __proto__ key) before any schema.
    const cases: [object, string][] = [
      [{ Name: '  ', Body: allDay(1) }, 'Name'],
      [{ Name: "x'); drop table price_policies;--".repeat(5), Body: allDay(1) }, 'Name'],
      [
        { Name: 'Bad clock', Body: { ...weekdayProgressive, Spans: [{ ...span, From: '25:00' }] } },
        'Body.Spans.0.From',
      ],
      [{ Name: 'Same', Body: { ...weekdayProgressive, Spans: [{ ...span, Until: '08:00' }] } }, 'Body.Spans.0.Until'],
      [
        { Name: 'Steps', Body: { ...allDay(1), Spans: [{ ...span, Rate: [{ FromMinute: 30, CentsPerHour: 1 }] }] } },
        'Body.Spans.0.Rate.0.FromMinute',
      ],
      [{ Name: 'Negative', Body: allDay(-5) }, 'Body.Spans.0.Rate.0.CentsPerHour'],
      [{ Name: 'Huge', Body: allDay(1e12) }, 'Body.Spans.0.Rate.0.CentsPerHour'],
      [{ Name: 'Fraction', Body: allDay(1.5) }, 'Body.Spans.0.Rate.0.CentsPerHour'],
      [{ Name: 'Extra', Body: { ...allDay(1), Evil: true } }, 'Body'],
      [{ Name: 'Proto', Body: JSON.parse('{"__proto__":{"x":1},"Spans":[],"MaxStayMinutes":0}') }, ''],
      [{ Name: 'Twins', Body: { ...weekdayProgressive, Spans: [span, span] } }, 'Body.Spans'],
      [{ Name: 'When', EffectiveFrom: 'tomorrow', Body: allDay(1) }, 'EffectiveFrom'],
      [{ Name: 'No body' }, 'Body'],
    ];
    const wrong: string[] = [];
    for (const [payload, field] of cases) {
      const res = await send(manager, 'POST', `/api/Operator/${A}/Policies`, payload);
      const fields =
        res.statusCode === 400 ? res.json<{ errors?: { field: string }[] }>().errors?.map((e) => e.field) : [];
      if (res.statusCode !== 400 || (field !== '' && !fields?.includes(field)))
        wrong.push(`${field}: ${res.statusCode} ${res.body}`);
    }
    const version = await send(manager, 'POST', `/api/Operator/${A}/Policies/${v.PolicyId}/Versions`, {
      Body: { ...allDay(1), MaxStayMinutes: 'forever' },
    });
    expectRefused(version, 400, 'Body.MaxStayMinutes');
    expect(wrong).toEqual([]);
    expect(await tableChecksums(db)).toEqual(before);
  });

  it('an analyst or an officer reads but cannot change; a driver gets 403; nothing changes', async () => {
    const v = await made();
    const before = await tableChecksums(db);
    for (const who of [analyst, officer]) {
      expect((await create(who)).statusCode).toBe(403);
      const publish = `/api/Operator/${A}/Policies/${v.PolicyId}/Versions`;
      expect((await send(who, 'POST', publish, { Body: allDay(9) })).statusCode).toBe(403);
      expect((await detail(v.PolicyId, A, who)).statusCode).toBe(200);
    }
    expect((await send(driver, 'GET', `/api/Operator/${A}/Policies`)).statusCode).toBe(403);
    expect(await tableChecksums(db)).toEqual(before);
  });
});

describe('preview', () => {
  // Saturday 28 November 2026 17:30 in Austin (CST, UTC-6).
  const saturday = '2026-11-28T23:30:00.000Z';

  it('prices a draft by the real engine: "a 2-hour stay starting Saturday 17:30 costs $3", with its spans', async () => {
    const before = await tableChecksums(db);
    const res = await send(analyst, 'POST', `/api/Operator/${A}/Policies/Preview`, {
      Body: weekdayProgressive,
      StartsAt: saturday,
      DurationMinutes: 120,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<PricePreview>()).toEqual({
      StartsAt: saturday,
      EndsAt: '2026-11-29T01:30:00.000Z',
      DurationMinutes: 120,
      PaidMinutes: 120,
      Amount: 3,
      Refusal: null,
      Spans: [{ Name: 'Weekend', StartsAt: saturday, EndsAt: '2026-11-29T01:30:00.000Z', Minutes: 120, Amount: 3 }],
    });
    // Monday 17:00: the first hour in the weekday span ($2), then 18:00-19:00 in no span (free).
    const monday = await send(manager, 'POST', `/api/Operator/${A}/Policies/Preview`, {
      Body: weekdayProgressive,
      StartsAt: '2026-11-30T23:00:00.000Z',
      DurationMinutes: 120,
    });
    expect(monday.json<PricePreview>()).toMatchObject({ Amount: 2, PaidMinutes: 60 });
    expect(monday.json<PricePreview>().Spans.map((s) => [s.Name, s.Minutes, s.Amount])).toEqual([
      ['Weekday', 60, 2],
      [null, 60, 0],
    ]);
    // Tuesday 09:00 for 3 hours: $2 + $3 + $3.
    const tuesday = await send(manager, 'POST', `/api/Operator/${A}/Policies/Preview`, {
      Body: weekdayProgressive,
      StartsAt: '2026-12-01T15:00:00.000Z',
      DurationMinutes: 180,
    });
    expect(tuesday.json<PricePreview>().Amount).toBe(8);
    const long = await send(manager, 'POST', `/api/Operator/${A}/Policies/Preview`, {
      Body: weekdayProgressive,
      StartsAt: saturday,
      DurationMinutes: 601,
    });
    expect(long.json<PricePreview>().Refusal).not.toBeNull();
    expect(await tableChecksums(db)).toEqual(before);
  });

  it('a bad draft or stay is a 400 naming the field', async () => {
    const url = `/api/Operator/${A}/Policies/Preview`;
    const span = weekdayProgressive.Spans[0]!;
    expectRefused(
      await send(manager, 'POST', url, {
        Body: { ...weekdayProgressive, Spans: [{ ...span, Until: '8pm' }] },
        StartsAt: saturday,
        DurationMinutes: 60,
      }),
      400,
      'Body.Spans.0.Until',
    );
    expectRefused(
      await send(manager, 'POST', url, { Body: weekdayProgressive, StartsAt: 'Saturday', DurationMinutes: 60 }),
      400,
      'StartsAt',
    );
    expectRefused(
      await send(manager, 'POST', url, { Body: weekdayProgressive, StartsAt: saturday, DurationMinutes: 0 }),
      400,
      'DurationMinutes',
    );
    expectRefused(
      await send(manager, 'POST', url, {
        Body: weekdayProgressive,
        StartsAt: saturday,
        DurationMinutes: 60,
        UserClasses: ['vip'],
      }),
      400,
      'UserClasses.0',
    );
  });
});

describe('assigning a policy to zones', () => {
  it("prices the zones' new sessions by it; a running session keeps its price; audited", async () => {
    const [z1, z2] = [await addZone(db, `PR${process.pid % 1000}1`), await addZone(db, `PR${process.pid % 1000}2`)];
    const v = await made(allDay(600));
    const session = await startSession(app, driver, { zoneId: z1, vehicleId: vehicle, minutes: 60 });
    const res = await send(manager, 'POST', `/api/Operator/${A}/Policies/${v.PolicyId}/Zones`, {
      ZoneIds: [z2, z1, z2],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ PolicyId: v.PolicyId, ZoneIds: [z1, z2].sort((a, b) => a - b) });
    const entry = await lastAudit();
    expect(entry).toMatchObject({ Action: 'policy.assign', EntityId: String(v.PolicyId) });
    expect((await detail(v.PolicyId)).json<PolicyDetail>().ZoneIds).toEqual([z1, z2].sort((a, b) => a - b));

    const other = await addVehicle(app, driver);
    const q = await quote(app, driver, { ZoneId: z2, VehicleId: other, DurationMinutes: 60 });
    expect(q.json<Quote>().ParkingAmount).toBe(6);
    // The running session extends at the preset's $2.50 an hour it started with.
    const ext = await quote(app, driver, { SessionId: session.SessionId, DurationMinutes: 30 });
    expect(ext.statusCode, ext.body).toBe(200);
    expect(ext.json<Quote>().ParkingAmount).toBe(1.25);

    // A new version in force now prices the next quote, not the running session.
    const publish = await send(manager, 'POST', `/api/Operator/${A}/Policies/${v.PolicyId}/Versions`, {
      Body: allDay(1200),
    });
    expect(publish.statusCode).toBe(201);
    expect(
      (await quote(app, driver, { ZoneId: z2, VehicleId: other, DurationMinutes: 60 })).json<Quote>().ParkingAmount,
    ).toBe(12);
  });

  it("another operator's zone or policy is a 404 and changes nothing", async () => {
    const mineZone = await addZone(db, `PR${process.pid % 1000}3`);
    const theirs = (await create(ownerB, allDay(100), B)).json<PolicyVersion>();
    const v = await made();
    const theirZone = (
      await send(ownerB, 'POST', `/api/Operator/${B}/Zones`, {
        ZoneNumber: `PRB${process.pid % 1000}`,
        Name: 'Theirs',
        Address: '1 Their St',
        Latitude: 30.27,
        Longitude: -97.74,
        Capacity: 4,
        RatePerHour: 2,
        MaxStayMinutes: 60,
        PaidDays: [1, 2, 3, 4, 5],
        PaidFrom: '08:00',
        PaidUntil: '18:00',
      })
    ).json<{ ZoneId: number }>().ZoneId;
    const before = await tableChecksums(db);
    const assign = (policyId: number, ZoneIds: number[]) =>
      send(owner, 'POST', `/api/Operator/${A}/Policies/${policyId}/Zones`, { ZoneIds });
    expectRefused(await assign(v.PolicyId, [mineZone, theirZone]), 404, undefined, PRICING_MESSAGES.zonesNotFound);
    expectRefused(await assign(theirs.PolicyId, [mineZone]), 404);
    expectRefused(await detail(theirs.PolicyId), 404, undefined, PRICING_MESSAGES.policyNotFound);
    expectRefused(await detail(theirs.PolicyId, B), 404);
    expectRefused(
      await send(owner, 'POST', `/api/Operator/${A}/Policies/${theirs.PolicyId}/Versions`, { Body: allDay(1) }),
      404,
    );
    expectRefused(await send(owner, 'GET', `/api/Operator/${B}/Policies`), 404);
    expectRefused(await assign(v.PolicyId, []), 400, 'ZoneIds');
    expect(await tableChecksums(db)).toEqual(before);
  });
});

describe('events', () => {
  it('a manager creates, lists and cancels an event; a cancelled one prices nothing more; audited', async () => {
    const zone = await addZone(db, `PR${process.pid % 1000}4`);
    const base = await made(allDay(200));
    const flat = await made(allDay(1000));
    await send(manager, 'POST', `/api/Operator/${A}/Policies/${base.PolicyId}/Zones`, { ZoneIds: [zone] });
    const other = await addVehicle(app, driver);
    const price = async () =>
      (await quote(app, driver, { ZoneId: zone, VehicleId: other, DurationMinutes: 60 })).json<Quote>().ParkingAmount;
    expect(await price()).toBe(2);

    const res = await send(manager, 'POST', `/api/Operator/${A}/PriceEvents`, {
      Name: 'Match',
      StartsAt: inMinutes(-5),
      EndsAt: inMinutes(120),
      PolicyId: flat.PolicyId,
      ZoneIds: [zone],
    });
    expect(res.statusCode, res.body).toBe(201);
    const event = res.json<PriceEvent>();
    expect(event).toMatchObject({ Name: 'Match', PolicyId: flat.PolicyId, ZoneIds: [zone], CancelledAt: null });
    expect(await lastAudit()).toMatchObject({ Action: 'event.create', EntityId: String(event.EventId) });
    expect(await price()).toBe(10);
    const listed = (await send(analyst, 'GET', `/api/Operator/${A}/PriceEvents`)).json<PriceEvent[]>();
    expect(listed.map((e) => e.EventId)).toContain(event.EventId);
    expect((await send(ownerB, 'GET', `/api/Operator/${B}/PriceEvents`)).json<PriceEvent[]>()).toEqual([]);

    expect((await send(analyst, 'POST', `/api/Operator/${A}/PriceEvents/${event.EventId}/Cancel`)).statusCode).toBe(
      403,
    );
    expectRefused(await send(ownerB, 'POST', `/api/Operator/${B}/PriceEvents/${event.EventId}/Cancel`), 404);
    const cancelled = await send(manager, 'POST', `/api/Operator/${A}/PriceEvents/${event.EventId}/Cancel`);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json<PriceEvent>().CancelledAt).not.toBeNull();
    expect(await lastAudit()).toMatchObject({ Action: 'event.cancel', EntityId: String(event.EventId) });
    expect(await price()).toBe(2);
    expectRefused(
      await send(manager, 'POST', `/api/Operator/${A}/PriceEvents/${event.EventId}/Cancel`),
      409,
      'EventId',
      PRICING_MESSAGES.eventOver,
    );
  });

  it("bad windows, another operator's policy or zone: refused, nothing written", async () => {
    const zone = await addZone(db, `PR${process.pid % 1000}5`);
    const flat = await made(allDay(1000));
    const theirs = (await create(ownerB, allDay(100), B)).json<PolicyVersion>();
    const before = await tableChecksums(db);
    const event = (extra: object) =>
      send(manager, 'POST', `/api/Operator/${A}/PriceEvents`, {
        Name: 'Concert',
        StartsAt: inMinutes(60),
        EndsAt: inMinutes(180),
        PolicyId: flat.PolicyId,
        ZoneIds: [zone],
        ...extra,
      });
    expectRefused(await event({ EndsAt: inMinutes(30) }), 400, 'EndsAt', PRICING_MESSAGES.eventWindow);
    expectRefused(await event({ ZoneIds: [] }), 400, 'ZoneIds');
    expectRefused(await event({ Name: '' }), 400, 'Name');
    expectRefused(await event({ PolicyId: theirs.PolicyId }), 404);
    expectRefused(await event({ ZoneIds: [zone, 2_000_000_000] }), 404);
    expect(await tableChecksums(db)).toEqual(before);
  });
});

describe("drivers' Find Parking", () => {
  it("shows the rate of the zone's policy in force now (the quote's), not the preset's", async () => {
    const zone = await addZone(db, `PR${process.pid % 1000}6`, { rateCents: 250 });
    const shown = async () => {
      const one = (await send(driver, 'GET', `/api/Parking/Zones/${zone}`)).json<{ RatePerHour: number }>();
      const near = (
        await send(driver, 'GET', `/api/Parking/Zones/Nearby?lat=30.2672&lng=-97.7431&radius=500&limit=50`)
      ).json<{ ZoneId: number; RatePerHour: number; PaymentRequiredNow: boolean }[]>();
      const listed = near.find((z) => z.ZoneId === zone)!;
      return [one.RatePerHour, listed.RatePerHour, listed.PaymentRequiredNow];
    };
    expect(await shown()).toEqual([2.5, 2.5, true]);
    const v = await made(allDay(725));
    await send(manager, 'POST', `/api/Operator/${A}/Policies/${v.PolicyId}/Zones`, { ZoneIds: [zone] });
    expect(await shown()).toEqual([7.25, 7.25, true]);
    const other = await addVehicle(app, driver);
    expect(
      (await quote(app, driver, { ZoneId: zone, VehicleId: other, DurationMinutes: 60 })).json<Quote>().ParkingAmount,
    ).toBe(7.25);
    // Free all day now (a policy of no span): nothing to pay now.
    await send(manager, 'POST', `/api/Operator/${A}/Policies/${v.PolicyId}/Versions`, {
      Body: { Spans: [], MaxStayMinutes: 60 },
    });
    expect((await shown())[2]).toBe(false);
  });
});
