// Concurrency of every money route: one member's requests at once, each with its own
// Idempotency-Key, never answer 5xx (no deadlock: every money path locks the member's wallet
// first), and the ledger equals the balance after. The races show on PostgreSQL
// (`npx vitest run --project server-pg`); on PGlite (one connection) this checks the outcome.
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Quote } from '@parkit/contract';
import { subscriptions, walletCharges } from '../../src/db/schema/index.ts';
import { concurrently, expectJsonNo5xx, statusCounts } from '../concurrency.ts';
import { as, buildTestApp, MANY_REQUESTS, registerAndSignIn, type SignedIn } from '../helpers.ts';
import { addVehicle, addZone, credit, pay, quote, startSession, walletState } from '../parking-helpers.ts';
import { addCard, addMoney } from './helpers.ts';

const { app, database } = await buildTestApp(MANY_REQUESTS);
const db = database.db;
const zone = await addZone(db, '7601'); // $2.50/h: 60 minutes = 2.50 + 0.35 fee
const dearer = await addZone(db, '7602', { rateCents: 400 });
const DELUXE = 2;

const expectLedgerIsBalance = async (memberId: number) => {
  const w = await walletState(db, memberId);
  expect(w.ledger).toBe(w.balance);
  return w;
};

async function memberWithCard(): Promise<SignedIn> {
  const m = await registerAndSignIn(app);
  await addCard(app, m);
  return m;
}

describe('one member’s money requests at once, each with its own Idempotency-Key', () => {
  it('Subscribe ×3, five members at once: one plan each, the others 409, never a 5xx', async () => {
    const all = await Promise.all(Array.from({ length: 5 }, () => memberWithCard()));
    const results = await concurrently(15, (i) =>
      as(app, all[i % 5]!, {
        method: 'POST',
        url: '/api/Subscription/Subscribe',
        payload: { PlanId: DELUXE },
        headers: { 'idempotency-key': randomUUID() },
      }),
    );
    expectJsonNo5xx(results);
    expect(statusCounts(results)).toEqual({ 200: 5, 409: 10 });
    for (const m of all) {
      const active = await db
        .select()
        .from(subscriptions)
        .where(and(eq(subscriptions.memberId, m.memberId), eq(subscriptions.status, 'active')));
      expect(active).toHaveLength(1);
      const w = await expectLedgerIsBalance(m.memberId);
      expect(w.entries.map((e) => e.kind)).toEqual(['top-up', 'plan']);
      // The card was charged once: no second charge left pending for the job to credit later.
      expect(
        (await db.select().from(walletCharges).where(eq(walletCharges.memberId, m.memberId))).map((c) => c.status),
      ).toEqual(['recorded']);
    }
  });

  it('Add Money ×12 (4 keys, each sent 3 times): each key credited once', async () => {
    const m = await memberWithCard();
    const keys = Array.from({ length: 4 }, () => randomUUID());
    const results = await concurrently(12, (i) => addMoney(app, m, { Amount: 5 + (i % 4) }, keys[i % 4]!));
    expectJsonNo5xx(results);
    expect(statusCounts(results)).toEqual({ 200: 12 });
    expect((await expectLedgerIsBalance(m.memberId)).balance).toBe(500 + 600 + 700 + 800);
  });

  it('Start ×8 on a wallet for 5: five sessions paid, three 402, nothing else', async () => {
    const m = await registerAndSignIn(app);
    await credit(db, m.memberId, 5 * 285);
    const cars = [];
    for (let i = 0; i < 8; i++) cars.push(await addVehicle(app, m));
    const quotes: string[] = [];
    for (const car of cars)
      quotes.push((await quote(app, m, { ZoneId: zone, VehicleId: car, DurationMinutes: 60 })).json<Quote>().QuoteId);
    const results = await concurrently(8, (i) => pay(app, m, 'Start', { QuoteId: quotes[i] }));
    expectJsonNo5xx(results);
    expect(statusCounts(results)).toEqual({ 201: 5, 402: 3 });
    expect((await expectLedgerIsBalance(m.memberId)).balance).toBe(0);
  });

  it('Extend, Amend, Stop and Add Money of one session at once: no 5xx, ledger == balance', async () => {
    const m = await memberWithCard();
    await credit(db, m.memberId, 5000);
    const s = await startSession(app, m, { zoneId: zone, vehicleId: await addVehicle(app, m), minutes: 30 });
    const extendQuote = (await quote(app, m, { SessionId: s.SessionId, DurationMinutes: 30 })).json<Quote>().QuoteId;
    const requests = [
      () => pay(app, m, 'Extend', { QuoteId: extendQuote }),
      () =>
        as(app, m, {
          method: 'POST',
          url: '/api/Parking/Amend',
          payload: { SessionId: s.SessionId, ZoneId: dearer },
          headers: { 'idempotency-key': randomUUID() },
        }),
      () =>
        as(app, m, {
          method: 'POST',
          url: '/api/Parking/Amend',
          payload: { SessionId: s.SessionId, ZoneId: zone },
          headers: { 'idempotency-key': randomUUID() },
        }),
      () => as(app, m, { method: 'POST', url: '/api/Parking/Stop', payload: { SessionId: s.SessionId } }),
      () => addMoney(app, m, { Amount: 5 }),
      () => addMoney(app, m, { Amount: 6 }),
    ];
    const results = await concurrently(requests.length, (i) => requests[i]!());
    expectJsonNo5xx(results);
    await expectLedgerIsBalance(m.memberId);
  });

  it('Extend ×6 of one session with six quotes: one extends, the others are told the quote is stale', async () => {
    const m = await registerAndSignIn(app);
    await credit(db, m.memberId, 5000);
    const s = await startSession(app, m, { zoneId: zone, vehicleId: await addVehicle(app, m), minutes: 30 });
    const quotes: string[] = [];
    for (let i = 0; i < 6; i++)
      quotes.push((await quote(app, m, { SessionId: s.SessionId, DurationMinutes: 15 })).json<Quote>().QuoteId);
    const results = await concurrently(6, (i) => pay(app, m, 'Extend', { QuoteId: quotes[i] }));
    expectJsonNo5xx(results);
    expect(statusCounts(results)).toEqual({ 200: 1, 409: 5 });
    expect((await expectLedgerIsBalance(m.memberId)).entries.filter((e) => e.kind === 'parking')).toHaveLength(2);
  });
});
