import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { PARKING_MESSAGES, type ActiveSessions, type ParkingSession, type Quote } from '@parkit/contract';
import { queryRows } from '../../../src/db/client.ts';
import { as, buildTestApp, MANY_REQUESTS, registerAndSignIn } from '../../helpers.ts';
import {
  addVehicle,
  addZone,
  credit,
  parkingProbes,
  pay,
  quote,
  startSession,
  walletState,
} from '../../parking-helpers.ts';

// 50 concurrent Starts from one member: past the money route limit (MONEY_RATE_LIMIT).
const { app, database } = await buildTestApp(MANY_REQUESTS);
const db = database.db;
const alice = await registerAndSignIn(app);
const bob = await registerAndSignIn(app);
const zoneA = await addZone(db, '7101'); // $2.50/h, all day, 2 h max
const zoneB = await addZone(db, '7102', { rateCents: 400, maxStayMinutes: 240 });
const freeZone = await addZone(db, '7103', { paidDays: [] });
await credit(db, alice.memberId, 10_000);
await credit(db, bob.memberId, 10_000);
const bobCar = await addVehicle(app, bob);

const { snapshot, post, expectLedgerMatches } = parkingProbes(app, db);

describe('POST /api/Parking/Quote', () => {
  it('prices the paid minutes at the zone rate plus the plan fee, held 5 minutes', async () => {
    const car = await addVehicle(app, alice);
    const before = Date.now();
    const res = await quote(app, alice, { ZoneId: zoneA, VehicleId: car, DurationMinutes: 60 });
    expect(res.statusCode, res.body).toBe(200);
    const q = res.json<Quote>();
    expect(q).toMatchObject({
      DurationMinutes: 60,
      RatePerHour: 2.5,
      PaidMinutes: 60,
      ParkingAmount: 2.5,
      FeeAmount: 0.35,
      TotalAmount: 2.85,
      BalanceCovers: true,
      OverMaxPayment: false,
    });
    expect(Date.parse(q.EndsAt) - Date.parse(q.StartsAt)).toBe(60 * 60_000);
    expect(Date.parse(q.ExpiresAt) - Date.parse(q.StartsAt)).toBe(5 * 60_000);
    expect(Date.parse(q.StartsAt)).toBeGreaterThanOrEqual(before - 1000);
    // 23 minutes: 250 × 23 / 60 = 95.83 → 96 cents.
    const odd = (await quote(app, alice, { ZoneId: zoneA, VehicleId: car, DurationMinutes: 23 })).json<Quote>();
    expect(odd.ParkingAmount).toBe(0.96);
    expect(odd.TotalAmount).toBe(1.31);
  });

  it('refuses a duration past the maximum stay and a zone that is free for the whole time', async () => {
    const car = await addVehicle(app, alice);
    const long = await quote(app, alice, { ZoneId: zoneA, VehicleId: car, DurationMinutes: 121 });
    expect(long.statusCode).toBe(400);
    expect(long.json()).toMatchObject({ message: PARKING_MESSAGES.maxStay, errors: [{ field: 'DurationMinutes' }] });
    const free = await quote(app, alice, { ZoneId: freeZone, VehicleId: car, DurationMinutes: 60 });
    expect(free.statusCode).toBe(409);
    expect(free.json().message).toBe(PARKING_MESSAGES.zoneFree);
  });

  it('refuses missing, wrong-typed, oversized and hostile input with a 400 and stores nothing', async () => {
    const car = await addVehicle(app, alice);
    const before = await snapshot();
    const bad: unknown[] = [
      {},
      { ZoneId: zoneA, VehicleId: car },
      { ZoneId: zoneA, DurationMinutes: 60 },
      { VehicleId: car, DurationMinutes: 60 },
      { ZoneId: zoneA, VehicleId: car, DurationMinutes: '60' },
      { ZoneId: zoneA, VehicleId: car, DurationMinutes: 0 },
      { ZoneId: zoneA, VehicleId: car, DurationMinutes: -15 },
      { ZoneId: zoneA, VehicleId: car, DurationMinutes: 12.5 },
      { ZoneId: zoneA, VehicleId: car, DurationMinutes: 1e9 },
      { ZoneId: zoneA, VehicleId: car, DurationMinutes: null },
      { ZoneId: 'abc', VehicleId: car, DurationMinutes: 60 },
      { ZoneId: zoneA, VehicleId: true, DurationMinutes: 60 },
      { ZoneId: -1, VehicleId: car, DurationMinutes: 60 },
      { ZoneId: 99_999_999_999, VehicleId: car, DurationMinutes: 60 },
      { ZoneId: "1' OR '1'='1", VehicleId: car, DurationMinutes: 60 },
      { ZoneId: zoneA, VehicleId: car, SessionId: 1, DurationMinutes: 60 },
      { ZoneId: zoneA, VehicleId: car, DurationMinutes: 60, Price: 0 },
      [],
      'x'.repeat(10_000),
    ];
    for (const payload of bad) {
      const res = await quote(app, alice, payload);
      expect([400, 415], JSON.stringify(payload).slice(0, 80)).toContain(res.statusCode);
      expect(res.json().message).toEqual(expect.any(String));
    }
    expect(await snapshot()).toEqual(before);
  });

  it('answers 404 for another member’s vehicle, an unknown zone and another member’s session', async () => {
    const car = await addVehicle(app, alice);
    expect((await quote(app, alice, { ZoneId: zoneA, VehicleId: bobCar, DurationMinutes: 60 })).statusCode).toBe(404);
    expect((await quote(app, alice, { ZoneId: 2_000_000_000, VehicleId: car, DurationMinutes: 60 })).statusCode).toBe(
      404,
    );
    const bobs = await startSession(app, bob, { zoneId: zoneA, vehicleId: bobCar, minutes: 30 });
    expect((await quote(app, alice, { SessionId: bobs.SessionId, DurationMinutes: 15 })).statusCode).toBe(404);
    await post(bob, 'Stop', { SessionId: bobs.SessionId });
  });

  it('needs a signed-in member', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/Parking/Quote',
      payload: { ZoneId: zoneA, VehicleId: 1, DurationMinutes: 60 },
    });
    expect(res.statusCode).toBe(401);
  });
});

describe('POST /api/Parking/Start', () => {
  it('starts the quoted session, charges the quoted total once and shows it', async () => {
    const car = await addVehicle(app, alice);
    const before = await walletState(db, alice.memberId);
    const q = (await quote(app, alice, { ZoneId: zoneA, VehicleId: car, DurationMinutes: 60 })).json<Quote>();
    const key = randomUUID();
    const res = await pay(app, alice, 'Start', { QuoteId: q.QuoteId }, key);
    expect(res.statusCode, res.body).toBe(201);
    const s = res.json<ParkingSession>();
    expect(s).toMatchObject({
      ZoneId: zoneA,
      ZoneNumber: '7101',
      Address: '7101 Congress Ave',
      City: 'Austin',
      State: 'TX',
      VehicleId: car,
      VehicleMake: 'Toyota',
      VehicleModel: 'Camry',
      PlateState: 'TX',
      DurationMinutes: 60,
      AmountPaid: 2.85,
      PaidVia: 'Wallet',
      PaymentStatus: 'Paid',
      AutoSessionUsed: false,
      AutoExtendedUsed: false,
      Status: 'Active',
      EndedAt: null,
    });
    expect(Date.parse(s.EndsAt) - Date.parse(s.StartedAt)).toBe(60 * 60_000);
    const after = await expectLedgerMatches(alice.memberId);
    expect(after.balance).toBe(before.balance - 285);
    expect(after.entries.at(-1)).toEqual({ kind: 'parking', amount: -285 });

    // The same key again: the first answer, nothing charged again.
    const again = await pay(app, alice, 'Start', { QuoteId: q.QuoteId }, key);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json<ParkingSession>().SessionId).toBe(s.SessionId);
    // A new key for a spent quote: refused.
    const spent = await pay(app, alice, 'Start', { QuoteId: q.QuoteId });
    expect(spent.statusCode).toBe(409);
    expect(spent.json().message).toBe(PARKING_MESSAGES.quoteUsed);
    expect((await walletState(db, alice.memberId)).balance).toBe(after.balance);

    // Shown by Active and Session/{id}.
    const active = (await as(app, alice, { method: 'GET', url: '/api/Parking/Active' })).json<ActiveSessions>();
    expect(active.Sessions.map((x) => x.SessionId)).toContain(s.SessionId);
    expect(Math.abs(Date.parse(active.ServerTime) - Date.now())).toBeLessThan(5000);
    const one = await as(app, alice, { method: 'GET', url: `/api/Parking/Session/${s.SessionId}` });
    expect(one.json<ParkingSession>().SessionId).toBe(s.SessionId);
    expect(one.headers['cache-control']).toBe('no-store');
  });

  it('keeps one active session per vehicle (409 naming the session)', async () => {
    const car = await addVehicle(app, alice);
    const first = await startSession(app, alice, { zoneId: zoneA, vehicleId: car, minutes: 30 });
    const res = await quote(app, alice, { ZoneId: zoneB, VehicleId: car, DurationMinutes: 30 });
    expect(res.statusCode).toBe(409);
    expect(res.json().errors[0].message).toContain(`session ${first.SessionId}`);
    expect(res.json().SessionId).toBe(first.SessionId);
  });

  it('refuses an expired quote, another member’s quote, a bad QuoteId and a missing Idempotency-Key, changing nothing', async () => {
    const car = await addVehicle(app, alice);
    const q = (await quote(app, alice, { ZoneId: zoneA, VehicleId: car, DurationMinutes: 30 })).json<Quote>();
    const before = await snapshot();
    expect((await pay(app, alice, 'Start', { QuoteId: q.QuoteId }, null)).statusCode).toBe(400);
    expect((await pay(app, bob, 'Start', { QuoteId: q.QuoteId })).statusCode).toBe(404);
    for (const payload of [
      {},
      { QuoteId: 'nope' },
      { QuoteId: 12 },
      { QuoteId: randomUUID(), Extra: 1 },
      { QuoteId: `${randomUUID()}\u0000` },
    ]) {
      expect((await pay(app, alice, 'Start', payload)).statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect((await pay(app, alice, 'Start', { QuoteId: randomUUID() })).statusCode).toBe(404);
    expect((await pay(app, alice, 'Extend', { QuoteId: q.QuoteId })).statusCode).toBe(404); // a start quote is not an extension
    await db.execute(sql`update parking_quotes set expires_at = now() - interval '1 second' where id = ${q.QuoteId}`);
    const expired = await pay(app, alice, 'Start', { QuoteId: q.QuoteId });
    expect(expired.statusCode).toBe(409);
    expect(expired.json().message).toBe(PARKING_MESSAGES.quoteExpired);
    expect(await snapshot()).toEqual(before);
  });

  it('refuses a short balance with 402 and writes nothing; the quote still works after Add Money', async () => {
    const poor = await registerAndSignIn(app);
    const car = await addVehicle(app, poor);
    await credit(db, poor.memberId, 100);
    const qr = (await quote(app, poor, { ZoneId: zoneA, VehicleId: car, DurationMinutes: 60 })).json<Quote>();
    expect(qr).toMatchObject({ Balance: 1, BalanceCovers: false, TotalAmount: 2.85 });
    const before = await snapshot();
    const res = await pay(app, poor, 'Start', { QuoteId: qr.QuoteId });
    expect(res.statusCode).toBe(402);
    expect(res.json().errors[0].field).toBe('Balance');
    expect(await snapshot()).toEqual(before);
    await credit(db, poor.memberId, 500);
    expect((await pay(app, poor, 'Start', { QuoteId: qr.QuoteId })).statusCode).toBe(201);
    expect((await expectLedgerMatches(poor.memberId)).balance).toBe(600 - 285);
  });

  it('asks to confirm a total above Max Payment Amount', async () => {
    const capped = await registerAndSignIn(app);
    const car = await addVehicle(app, capped);
    await credit(db, capped.memberId, 5000);
    await as(app, capped, {
      method: 'POST',
      url: '/api/Account/ParkingOptions',
      payload: { MaxPaymentEnabled: true, MaxPaymentAmount: 2 },
    });
    const q = (await quote(app, capped, { ZoneId: zoneA, VehicleId: car, DurationMinutes: 60 })).json<Quote>();
    expect(q.OverMaxPayment).toBe(true);
    const refused = await pay(app, capped, 'Start', { QuoteId: q.QuoteId });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(PARKING_MESSAGES.overMaxPayment);
    expect((await pay(app, capped, 'Start', { QuoteId: q.QuoteId, ConfirmOverMax: true })).statusCode).toBe(201);
  });

  it('50 concurrent starts of one quote: one session, one charge, ledger == balance', async () => {
    const racer = await registerAndSignIn(app);
    const car = await addVehicle(app, racer);
    await credit(db, racer.memberId, 5000);
    const q = (await quote(app, racer, { ZoneId: zoneA, VehicleId: car, DurationMinutes: 60 })).json<Quote>();
    const results = await Promise.all(
      Array.from({ length: 50 }, () => pay(app, racer, 'Start', { QuoteId: q.QuoteId })),
    );
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 201)).toHaveLength(1);
    expect(codes.every((c) => c === 201 || c === 409)).toBe(true);
    const rows = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from parking_sessions where member_id = ${racer.memberId}`,
    );
    expect(rows[0]?.n).toBe(1);
    const w = await expectLedgerMatches(racer.memberId);
    expect(w.entries.filter((e) => e.kind === 'parking')).toEqual([{ kind: 'parking', amount: -285 }]);
    expect(w.balance).toBe(5000 - 285);

    // 50 at once with one key: one session, and every answer is that session.
    const q2 = (
      await quote(app, racer, { ZoneId: zoneB, VehicleId: await addVehicle(app, racer), DurationMinutes: 30 })
    ).json<Quote>();
    const key = randomUUID();
    const same = await Promise.all(
      Array.from({ length: 50 }, () => pay(app, racer, 'Start', { QuoteId: q2.QuoteId }, key)),
    );
    const ok = same.filter((r) => r.statusCode === 201).map((r) => r.json<ParkingSession>().SessionId);
    expect(new Set(ok).size).toBe(1);
    expect(same.every((r) => r.statusCode === 201 || r.statusCode === 409)).toBe(true);
    expect((await expectLedgerMatches(racer.memberId)).entries.filter((e) => e.kind === 'parking')).toHaveLength(2);
  });
});
