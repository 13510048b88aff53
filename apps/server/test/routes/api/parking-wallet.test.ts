// Parking on the wallet's features (issue 11's gaps): auto-reload covering a short balance at
// Start and Extend, and the Deluxe plan's zone discount in the price.
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { ParkingSession, Quote, StopResponse } from '@parkit/contract';
import { queryRows } from '../../../src/db/client.ts';
import { outbox } from '../../../src/db/schema/index.ts';
import { as, buildTestApp, MANY_REQUESTS, registerAndSignIn, type SignedIn } from '../../helpers.ts';
import { addVehicle, addZone, credit, pay, quote, startSession, walletState } from '../../parking-helpers.ts';
import { addCard, CARDS } from '../../wallet/helpers.ts';

const { app, database } = await buildTestApp(MANY_REQUESTS);
const db = database.db;
const zone = await addZone(db, '7301'); // $2.50/h, all day, 2 h max: 60 minutes = 2.50 + 0.35 fee
const pricey = await addZone(db, '7302', { rateCents: 400, maxStayMinutes: 240 });

/** A member with a card and auto-reload on (Default Add Amount, trigger 0: only a short payment reloads). */
async function withAutoReload(addAmount: number, card: string = CARDS.ok): Promise<SignedIn> {
  const m = await registerAndSignIn(app);
  await addCard(app, m, card);
  const res = await as(app, m, {
    method: 'POST',
    url: '/api/Account/AutoReload',
    payload: { AutoReload: true, DefaultAddAmount: addAmount, MinBalance: 0 },
  });
  expect(res.statusCode, res.body).toBe(200);
  return m;
}

const expectLedgerMatches = async (memberId: number) => {
  const w = await walletState(db, memberId);
  expect(w.ledger).toBe(w.balance);
  return w;
};
const reloads = async (memberId: number) =>
  (await walletState(db, memberId)).entries.filter((e) => e.kind === 'auto-reload');

describe('auto-reload covering a short balance', () => {
  it('the quote says auto-reload covers it; Start tops up Default Add Amount first, then pays, once', async () => {
    const m = await withAutoReload(10);
    await credit(db, m.memberId, 100);
    const car = await addVehicle(app, m);
    const q = (await quote(app, m, { ZoneId: zone, VehicleId: car, DurationMinutes: 60 })).json<Quote>();
    expect(q).toMatchObject({
      Balance: 1,
      TotalAmount: 2.85,
      BalanceCovers: false,
      AutoReloadCovers: true,
      AutoReloadAmount: 10,
    });
    const key = randomUUID();
    const res = await pay(app, m, 'Start', { QuoteId: q.QuoteId }, key);
    expect(res.statusCode, res.body).toBe(201);
    const w = await expectLedgerMatches(m.memberId);
    expect(w.entries.map((e) => [e.kind, e.amount])).toEqual([
      ['adjustment', 100],
      ['auto-reload', 1000],
      ['parking', -285],
    ]);
    expect(w.balance).toBe(100 + 1000 - 285);
    // The retry with the same key: the same session, no second reload or charge.
    const again = await pay(app, m, 'Start', { QuoteId: q.QuoteId }, key);
    expect(again.statusCode).toBe(201);
    expect(again.json<ParkingSession>().SessionId).toBe(res.json<ParkingSession>().SessionId);
    expect(await reloads(m.memberId)).toHaveLength(1);
    const texts = await db.select().from(outbox).where(eq(outbox.recipient, m.phone));
    expect(texts.filter((t) => t.body.includes('auto-reload added $10.00'))).toHaveLength(1);
  });

  it('Extend is covered the same way', async () => {
    const m = await withAutoReload(5);
    await credit(db, m.memberId, 285);
    const s = await startSession(app, m, { zoneId: zone, vehicleId: await addVehicle(app, m), minutes: 60 });
    expect((await walletState(db, m.memberId)).balance).toBe(0);
    const q = (await quote(app, m, { SessionId: s.SessionId, DurationMinutes: 60 })).json<Quote>();
    expect(q).toMatchObject({ TotalAmount: 2.5, BalanceCovers: false, AutoReloadCovers: true });
    const res = await pay(app, m, 'Extend', { QuoteId: q.QuoteId });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<ParkingSession>().DurationMinutes).toBe(120);
    expect((await expectLedgerMatches(m.memberId)).balance).toBe(500 - 250);
    expect(await reloads(m.memberId)).toHaveLength(1);
  });

  it('does not reload when Default Add Amount would not cover it (402, nothing written) or auto-reload is off', async () => {
    const m = await withAutoReload(5);
    const car = await addVehicle(app, m);
    // 4 hours at $4.00 = 16.35: 5.00 from auto-reload is not enough.
    const q = (await quote(app, m, { ZoneId: pricey, VehicleId: car, DurationMinutes: 240 })).json<Quote>();
    expect(q).toMatchObject({ Balance: 0, BalanceCovers: false, AutoReloadCovers: false });
    const res = await pay(app, m, 'Start', { QuoteId: q.QuoteId });
    expect(res.statusCode).toBe(402);
    expect((await walletState(db, m.memberId)).entries).toEqual([]);

    const off = await registerAndSignIn(app);
    await addCard(app, off);
    const q2 = (
      await quote(app, off, { ZoneId: zone, VehicleId: await addVehicle(app, off), DurationMinutes: 60 })
    ).json<Quote>();
    expect(q2).toMatchObject({ BalanceCovers: false, AutoReloadCovers: false, AutoReloadAmount: 0 });
    expect((await pay(app, off, 'Start', { QuoteId: q2.QuoteId })).statusCode).toBe(402);
  });

  it('a declined card: 402 with the card’s message, no session and no ledger entry', async () => {
    const m = await withAutoReload(10, CARDS.declined);
    const q = (
      await quote(app, m, { ZoneId: zone, VehicleId: await addVehicle(app, m), DurationMinutes: 60 })
    ).json<Quote>();
    expect(q.AutoReloadCovers).toBe(true);
    const res = await pay(app, m, 'Start', { QuoteId: q.QuoteId });
    expect(res.statusCode).toBe(402);
    expect(res.json()).toMatchObject({ message: 'Your card was declined.', errors: [{ field: 'Balance' }] });
    expect((await walletState(db, m.memberId)).entries).toEqual([]);
    const [n] = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from parking_sessions where member_id = ${m.memberId}`,
    );
    expect(Number(n?.n)).toBe(0);
  });

  it('10 concurrent starts on a short wallet: each paid once, reloads only when short, ledger == balance', async () => {
    const m = await withAutoReload(10);
    await credit(db, m.memberId, 100);
    const cars = [];
    for (let i = 0; i < 10; i++) cars.push(await addVehicle(app, m));
    const quotes = [];
    for (const car of cars)
      quotes.push((await quote(app, m, { ZoneId: zone, VehicleId: car, DurationMinutes: 60 })).json<Quote>().QuoteId);
    const results = await Promise.all(quotes.map((id) => pay(app, m, 'Start', { QuoteId: id })));
    expect(
      results.map((r) => r.statusCode),
      results
        .filter((r) => r.statusCode !== 201)
        .map((r) => r.body)
        .join('\n'),
    ).toEqual(Array(10).fill(201));
    const w = await expectLedgerMatches(m.memberId);
    expect(w.entries.filter((e) => e.kind === 'parking')).toHaveLength(10);
    // The payments queue on the member's row: 1.00 → reload → 8.15, 5.30, 2.45 → reload → 9.60, 6.75,
    // 3.90, 1.05 → reload → 8.20, 5.35, 2.50. Three reloads, whatever the order.
    expect(await reloads(m.memberId)).toHaveLength(3);
    expect(w.balance).toBe(100 + 3000 - 2850);
    // 20 at once with one key and one quote: one session, one reload.
    const n = await withAutoReload(10);
    const q = (
      await quote(app, n, { ZoneId: zone, VehicleId: await addVehicle(app, n), DurationMinutes: 60 })
    ).json<Quote>();
    const key = randomUUID();
    const same = await Promise.all(Array.from({ length: 20 }, () => pay(app, n, 'Start', { QuoteId: q.QuoteId }, key)));
    expect(same.every((r) => r.statusCode === 201 || r.statusCode === 409)).toBe(true);
    expect(new Set(same.filter((r) => r.statusCode === 201).map((r) => r.json<ParkingSession>().SessionId)).size).toBe(
      1,
    );
    expect(await reloads(n.memberId)).toHaveLength(1);
    expect((await expectLedgerMatches(n.memberId)).balance).toBe(1000 - 285);
  });
});

describe('the Deluxe plan’s zone discount', () => {
  async function deluxe(): Promise<SignedIn> {
    const m = await registerAndSignIn(app);
    await addCard(app, m);
    const res = await as(app, m, {
      method: 'POST',
      url: '/api/Subscription/Subscribe',
      payload: { PlanId: 2 },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(res.statusCode, res.body).toBe(200);
    await credit(db, m.memberId, 10_000);
    return m;
  }

  it('takes 10% off the parking amount (not the fee), shows it on the quote, and charges that', async () => {
    const m = await deluxe();
    const car = await addVehicle(app, m);
    const q = (await quote(app, m, { ZoneId: zone, VehicleId: car, DurationMinutes: 60 })).json<Quote>();
    expect(q).toMatchObject({
      RatePerHour: 2.5,
      ParkingAmount: 2.25,
      DiscountPercent: 10,
      DiscountAmount: 0.25,
      FeeAmount: 0,
      TotalAmount: 2.25,
    });
    const before = (await walletState(db, m.memberId)).balance;
    const s = (await pay(app, m, 'Start', { QuoteId: q.QuoteId })).json<ParkingSession>();
    expect(s).toMatchObject({ ParkingAmount: 2.25, AmountPaid: 2.25 });
    expect((await expectLedgerMatches(m.memberId)).balance).toBe(before - 225);
    // An extension keeps the discount: 25 minutes of $2.50 = 1.0417 × 0.9 = 0.9375 → 0.94.
    const e = (await quote(app, m, { SessionId: s.SessionId, DurationMinutes: 25 })).json<Quote>();
    expect(e).toMatchObject({ ParkingAmount: 0.94, DiscountAmount: 0.1, TotalAmount: 0.94 });
    expect((await pay(app, m, 'Extend', { QuoteId: e.QuoteId })).statusCode).toBe(200);
    // Stop refunds the unused minutes at the discounted price: 84 whole minutes unused of 85,
    // 250 × 84 / 60 × 0.9 = 315 (never more than was paid for parking).
    await db.execute(
      sql`update parking_sessions set started_at = started_at - interval '30 seconds', ends_at = ends_at - interval '30 seconds' where id = ${s.SessionId}`,
    );
    const stop = (
      await as(app, m, { method: 'POST', url: '/api/Parking/Stop', payload: { SessionId: s.SessionId } })
    ).json<StopResponse>();
    expect(stop).toMatchObject({ UnusedMinutes: 84, RefundAmount: 3.15, AmountPaid: 0.04 });
    expect((await expectLedgerMatches(m.memberId)).balance).toBe(before - 4);
  });

  it('Basic members pay the full rate and show no discount', async () => {
    const m = await registerAndSignIn(app);
    const q = (
      await quote(app, m, { ZoneId: zone, VehicleId: await addVehicle(app, m), DurationMinutes: 60 })
    ).json<Quote>();
    expect(q).toMatchObject({ ParkingAmount: 2.5, DiscountPercent: 0, DiscountAmount: 0, FeeAmount: 0.35 });
  });

  it('amending the zone reprices at the session’s discount', async () => {
    const m = await deluxe();
    const s = await startSession(app, m, { zoneId: zone, vehicleId: await addVehicle(app, m), minutes: 60 });
    const preview = await as(app, m, {
      method: 'POST',
      url: '/api/Parking/AmendQuote',
      payload: { SessionId: s.SessionId, ZoneId: pricey },
    });
    expect(preview.statusCode, preview.body).toBe(200);
    // $4.00 × 0.9 = 3.60 instead of 2.25: 1.35 more.
    expect(preview.json()).toMatchObject({
      ZoneNumber: '7302',
      ParkingAmount: 3.6,
      Difference: 1.35,
      BalanceCovers: true,
    });
    const before = (await walletState(db, m.memberId)).balance;
    const res = await as(app, m, {
      method: 'POST',
      url: '/api/Parking/Amend',
      payload: { SessionId: s.SessionId, ZoneId: pricey },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(res.json<ParkingSession>()).toMatchObject({ ZoneId: pricey, AmountPaid: 3.6 });
    expect((await expectLedgerMatches(m.memberId)).balance).toBe(before - 135);
  });
});

describe('POST /api/Parking/AmendQuote', () => {
  it('shows a refund as a negative difference, refuses bad input, another member’s session and a late amend', async () => {
    const m = await registerAndSignIn(app);
    const other = await registerAndSignIn(app);
    await credit(db, m.memberId, 5000);
    const s = await startSession(app, m, { zoneId: pricey, vehicleId: await addVehicle(app, m), minutes: 60 });
    const ask = (who: SignedIn, payload: unknown) =>
      as(app, who, { method: 'POST', url: '/api/Parking/AmendQuote', payload: payload as object });
    expect((await ask(m, { SessionId: s.SessionId, ZoneId: zone })).json()).toMatchObject({
      ParkingAmount: 2.5,
      Difference: -1.5,
    });
    expect((await ask(m, { SessionId: s.SessionId, ZoneId: pricey })).json()).toMatchObject({ Difference: 0 });
    expect((await ask(other, { SessionId: s.SessionId, ZoneId: zone })).statusCode).toBe(404);
    expect((await ask(m, { SessionId: s.SessionId, ZoneId: 2_000_000_000 })).statusCode).toBe(404);
    for (const payload of [
      {},
      { SessionId: s.SessionId },
      { SessionId: 'x', ZoneId: zone },
      { SessionId: s.SessionId, ZoneId: zone, VehicleId: 1 },
    ]) {
      expect((await ask(m, payload)).statusCode, JSON.stringify(payload)).toBe(400);
    }
    await db.execute(
      sql`update parking_sessions set started_at = started_at - interval '6 minutes' where id = ${s.SessionId}`,
    );
    expect((await ask(m, { SessionId: s.SessionId, ZoneId: zone })).statusCode).toBe(409);
  });
});
