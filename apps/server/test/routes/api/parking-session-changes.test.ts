// Extend, Stop, Amend and Auto Start; Quote and Start are in parking-sessions.test.ts.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  PARKING_MESSAGES,
  type ActiveSessions,
  type ParkingSession,
  type Quote,
  type StopResponse,
} from '@parkit/contract';
import { as, buildTestApp, registerAndSignIn } from '../../helpers.ts';
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

const { app, database } = await buildTestApp();
const db = database.db;
const alice = await registerAndSignIn(app);
const bob = await registerAndSignIn(app);
/** Extend, Stop and Amend park their own cars (a member keeps at most 10). */
const carol = await registerAndSignIn(app);
const zoneA = await addZone(db, '7101'); // $2.50/h, all day, 2 h max
const zoneB = await addZone(db, '7102', { rateCents: 400, maxStayMinutes: 240 });
await credit(db, alice.memberId, 10_000);
await credit(db, bob.memberId, 10_000);
await credit(db, carol.memberId, 10_000);

const { snapshot, post, expectLedgerMatches } = parkingProbes(app, db);
/** Amend moves money: it takes an Idempotency-Key like Start and Extend. */
const amend = (who: typeof alice, payload: unknown, key: string | null = randomUUID()) =>
  post(who, 'Amend', payload, key === null ? {} : { 'idempotency-key': key });

describe('Extend, Stop, Amend', () => {
  it('extends without a second fee, up to the maximum stay across extensions', async () => {
    const car = await addVehicle(app, carol);
    const s = await startSession(app, carol, { zoneId: zoneA, vehicleId: car, minutes: 60 });
    const q = await quote(app, carol, { SessionId: s.SessionId, DurationMinutes: 30 });
    expect(q.statusCode, q.body).toBe(200);
    const eq = q.json<Quote>();
    expect(eq).toMatchObject({
      FeeAmount: 0,
      ParkingAmount: 1.25,
      TotalAmount: 1.25,
      StartsAt: s.EndsAt,
      MaxMoreMinutes: 60,
    });
    const before = (await walletState(db, carol.memberId)).balance;
    const ext = await pay(app, carol, 'Extend', { QuoteId: eq.QuoteId });
    expect(ext.statusCode, ext.body).toBe(200);
    const e = ext.json<ParkingSession>();
    expect(e).toMatchObject({ DurationMinutes: 90, AmountPaid: 4.1, EndsAt: eq.EndsAt });
    expect((await expectLedgerMatches(carol.memberId)).balance).toBe(before - 125);
    // 30 more minutes reach the 2-hour maximum; 45 pass it.
    expect((await quote(app, carol, { SessionId: s.SessionId, DurationMinutes: 45 })).statusCode).toBe(400);
    const last = (await quote(app, carol, { SessionId: s.SessionId, DurationMinutes: 30 })).json<Quote>();
    // A quote made before another extension no longer applies.
    const stale = (await quote(app, carol, { SessionId: s.SessionId, DurationMinutes: 15 })).json<Quote>();
    expect((await pay(app, carol, 'Extend', { QuoteId: last.QuoteId })).statusCode).toBe(200);
    const refused = await pay(app, carol, 'Extend', { QuoteId: stale.QuoteId });
    expect(refused.statusCode).toBe(409);
    const full = await quote(app, carol, { SessionId: s.SessionId, DurationMinutes: 15 });
    expect(full.statusCode).toBe(409);
    expect(full.json().message).toBe(PARKING_MESSAGES.maxStayReached);
  });

  it('stops now and refunds the unused whole minutes to the wallet, as a refund', async () => {
    const car = await addVehicle(app, carol);
    const s = await startSession(app, carol, { zoneId: zoneA, vehicleId: car, minutes: 60 });
    // As if parked 20.5 minutes ago: 39 whole minutes are unused.
    await db.execute(
      sql`update parking_sessions set started_at = started_at - interval '1230 seconds', ends_at = ends_at - interval '1230 seconds' where id = ${s.SessionId}`,
    );
    const before = (await walletState(db, carol.memberId)).balance;
    const res = await post(carol, 'Stop', { SessionId: s.SessionId });
    expect(res.statusCode, res.body).toBe(200);
    const r = res.json<StopResponse>();
    expect(r.UnusedMinutes).toBe(39);
    expect(r.RefundAmount).toBe(1.63); // 250 × 39 / 60 = 162.5 → 163
    expect(r).toMatchObject({ Status: 'Ended', DurationMinutes: 21, AmountPaid: 1.22 });
    expect(r.EndedAt).not.toBeNull();
    const w = await expectLedgerMatches(carol.memberId);
    expect(w.balance).toBe(before + 163);
    expect(w.entries.at(-1)).toEqual({ kind: 'refund', amount: 163 });
    // Twice, or at once: one refund only.
    const again = await Promise.all([
      post(carol, 'Stop', { SessionId: s.SessionId }),
      post(carol, 'Stop', { SessionId: s.SessionId }),
    ]);
    expect(again.map((x) => x.statusCode)).toEqual([409, 409]);
    expect((await walletState(db, carol.memberId)).balance).toBe(before + 163);
    // Gone from Active, still readable as a receipt.
    const active = (await as(app, carol, { method: 'GET', url: '/api/Parking/Active' })).json<ActiveSessions>();
    expect(active.Sessions.map((x) => x.SessionId)).not.toContain(s.SessionId);
  });

  it('amends the plate or zone within 5 minutes, charging or refunding the difference; later it refuses', async () => {
    const car = await addVehicle(app, carol);
    const right = await addVehicle(app, carol);
    const s = await startSession(app, carol, { zoneId: zoneA, vehicleId: car, minutes: 60 });
    const res = await amend(carol, { SessionId: s.SessionId, VehicleId: right });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<ParkingSession>()).toMatchObject({ VehicleId: right, AmountPaid: 2.85 });
    // The first car is free again.
    expect((await quote(app, carol, { ZoneId: zoneA, VehicleId: car, DurationMinutes: 15 })).statusCode).toBe(200);
    const before = (await walletState(db, carol.memberId)).balance;
    const moved = await amend(carol, { SessionId: s.SessionId, ZoneId: zoneB });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json<ParkingSession>()).toMatchObject({ ZoneId: zoneB, ZoneNumber: '7102', AmountPaid: 4.35 });
    expect((await expectLedgerMatches(carol.memberId)).balance).toBe(before - 150);
    const back = await amend(carol, { SessionId: s.SessionId, ZoneId: zoneA });
    expect(back.json<ParkingSession>().AmountPaid).toBe(2.85);
    expect((await expectLedgerMatches(carol.memberId)).balance).toBe(before);

    // Without an Idempotency-Key: 400 and nothing changes; one key sent twice moves the money once;
    // the same key with another body is a 422.
    const unkeyed = await snapshot();
    const noKey = await amend(carol, { SessionId: s.SessionId, ZoneId: zoneB }, null);
    expect(noKey.statusCode).toBe(400);
    expect(noKey.json().errors[0].field).toBe('Idempotency-Key');
    expect(await snapshot()).toEqual(unkeyed);
    const key = randomUUID();
    const twice = await Promise.all([
      amend(carol, { SessionId: s.SessionId, ZoneId: zoneB }, key),
      amend(carol, { SessionId: s.SessionId, ZoneId: zoneB }, key),
    ]);
    expect(twice.map((r) => r.statusCode).sort()).toContain(200);
    expect(twice.every((r) => r.statusCode === 200 || r.statusCode === 409)).toBe(true);
    expect((await expectLedgerMatches(carol.memberId)).balance).toBe(before - 150);
    expect((await amend(carol, { SessionId: s.SessionId, ZoneId: zoneA }, key)).statusCode).toBe(422);
    expect((await amend(carol, { SessionId: s.SessionId, ZoneId: zoneA })).json<ParkingSession>().AmountPaid).toBe(
      2.85,
    );
    expect((await expectLedgerMatches(carol.memberId)).balance).toBe(before);

    await db.execute(
      sql`update parking_sessions set started_at = started_at - interval '6 minutes' where id = ${s.SessionId}`,
    );
    const late = await amend(carol, { SessionId: s.SessionId, VehicleId: car });
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe(PARKING_MESSAGES.amendTooLate);
  });

  it('refuses bad input and another member’s session on Stop, Amend and Session with no change', async () => {
    const bobs = await startSession(app, bob, { zoneId: zoneB, vehicleId: await addVehicle(app, bob), minutes: 30 });
    const mine = await addVehicle(app, carol);
    const before = await snapshot();
    expect((await post(carol, 'Stop', { SessionId: bobs.SessionId })).statusCode).toBe(404);
    expect((await amend(carol, { SessionId: bobs.SessionId, VehicleId: mine })).statusCode).toBe(404);
    expect((await as(app, carol, { method: 'GET', url: `/api/Parking/Session/${bobs.SessionId}` })).statusCode).toBe(
      404,
    );
    // Bob cannot move his session onto Alice's car.
    expect((await amend(bob, { SessionId: bobs.SessionId, VehicleId: mine })).statusCode).toBe(404);
    for (const payload of [
      {},
      { SessionId: 'x' },
      { SessionId: -3 },
      { SessionId: 1.5 },
      { SessionId: 1, Extra: true },
      null,
    ]) {
      expect((await post(carol, 'Stop', payload)).statusCode, JSON.stringify(payload)).toBe(400);
    }
    for (const payload of [
      { SessionId: bobs.SessionId },
      { SessionId: 'x', VehicleId: 1 },
      { SessionId: 1, ZoneId: {} },
    ]) {
      expect((await amend(carol, payload)).statusCode, JSON.stringify(payload)).toBe(400);
    }
    for (const id of ['abc', '0', '-1', '1.5', '99999999999']) {
      expect((await as(app, carol, { method: 'GET', url: `/api/Parking/Session/${id}` })).statusCode, id).toBe(400);
    }
    expect(await snapshot()).toEqual(before);
  });
});

describe('POST /api/Parking/AutoStartQuote', () => {
  it('says why not when Auto Start is off or there is no vehicle, and quotes the default vehicle and duration when on', async () => {
    const dana = await registerAndSignIn(app);
    await credit(db, dana.memberId, 5000);
    const ask = () => post(dana, 'AutoStartQuote', { ZoneId: zoneB });
    expect((await ask()).json()).toMatchObject({ Enabled: false, Reason: 'Off', Quote: null });
    await as(app, dana, { method: 'POST', url: '/api/Account/ParkingOptions', payload: { AutoStartParking: true } });
    expect((await ask()).json()).toMatchObject({ Enabled: false, Reason: 'NoVehicle' });
    const car = await addVehicle(app, dana);
    await addVehicle(app, dana);
    const res = await ask();
    expect(res.statusCode, res.body).toBe(200);
    const auto = res.json();
    expect(auto).toMatchObject({
      Enabled: true,
      Reason: null,
      VehicleId: car,
      Quote: { DurationMinutes: 60, TotalAmount: 4.35 },
    });
    const started = await pay(app, dana, 'Start', { QuoteId: auto.Quote.QuoteId });
    expect(started.statusCode, started.body).toBe(201);
    expect(started.json<ParkingSession>()).toMatchObject({
      AutoSessionUsed: true,
      VehicleId: car,
      DurationMinutes: 60,
    });
    expect((await ask()).json()).toMatchObject({ Enabled: false, Reason: 'VehicleParked' });
    expect((await post(dana, 'AutoStartQuote', { ZoneId: 2_000_000_000 })).statusCode).toBe(404);
    expect((await post(dana, 'AutoStartQuote', { ZoneId: 'x' })).statusCode).toBe(400);
  });
});
