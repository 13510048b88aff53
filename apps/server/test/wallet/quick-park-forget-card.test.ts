import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import type { GuestExtendQuote, ParkingSession, Quote } from '@parkit/contract';
import { queryRows } from '../../src/db/client.ts';
import { FORGET_LEASE_MS, forgetSavedCards } from '../../src/parking/saved-cards.ts';
import { buildTestApp } from '../helpers.ts';
import { addZone, verifiedGuest } from '../parking-helpers.ts';
import { concurrently } from '../concurrency.ts';
import { startFakeStripe } from './fake-stripe.ts';

/**
 * Leaving cleanly (issue 28), on PGlite and PostgreSQL: a Quick Park typed card, saved by its first
 * charge under a Stripe customer of its own so that Extend can charge it, is forgotten once its
 * session can no longer be extended: the guest's Stop, or the job `parking.forget-cards` once the
 * end passed, deletes the customer (DELETE /v1/customers/{id}, which removes its card) and clears
 * the session's card_ref and card_customer_ref. A running session's card is never touched, a
 * customer another running session names is kept, a provider out of reach leaves the row for the
 * next run, and two runs delete once. Stripe is the local stand-in of fake-stripe.ts.
 */
const fake = await startFakeStripe();
const logs: string[] = [];
const { app, database } = await buildTestApp(
  {
    ADDRESS_RATE_LIMIT_SCALE: 1000,
    STRIPE_SECRET_KEY: 'sk_test_fake',
    STRIPE_PUBLISHABLE_KEY: 'pk_test_fake',
    STRIPE_API_URL: fake.url,
  },
  {
    decorations: true,
    logStream: new Writable({
      write(chunk: Buffer, _enc, done) {
        logs.push(chunk.toString());
        done();
      },
    }),
  },
);
afterAll(() => fake.close());
const { db } = database;
await addZone(db, '9401');
const MIN = 60_000;

const post = (url: string, payload: object, token: string) =>
  app.inject({ method: 'POST', url: `/api/Parking/Guest/${url}`, payload, headers: { 'x-guest-token': token } });

/** What Stripe.js's createPaymentMethod gives a typed card's form: a PaymentMethod of no customer. */
async function typedCard(): Promise<string> {
  const res = await fetch(`${fake.url}/v1/payment_methods`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ type: 'card', 'card[token]': 'tok_visa' }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { id: string }).id;
}

/** A session a typed card paid (60 minutes), extended by 30 with the saved card. */
async function typedSession(plate: string) {
  const token = (await verifiedGuest(app)).token;
  const q = await post(
    'Quote',
    { ZoneNumber: '9401', PlateNumber: plate, PlateState: 'TX', DurationMinutes: 60 },
    token,
  );
  expect(q.statusCode, q.body).toBe(200);
  const pm = await typedCard();
  const start = await post('Start', { QuoteId: q.json<Quote>().QuoteId, CardToken: pm }, token);
  expect(start.statusCode, start.body).toBe(201);
  const session = start.json<ParkingSession>();
  const eq = await post('ExtendQuote', { SessionId: session.SessionId, DurationMinutes: 30 }, token);
  expect(eq.statusCode, eq.body).toBe(200);
  expect(eq.json<GuestExtendQuote>().ExpressRequired).toBe(false);
  const extended = await post('Extend', { QuoteId: eq.json<GuestExtendQuote>().QuoteId }, token);
  expect(extended.statusCode, extended.body).toBe(200);
  const row = await cardOf(session.SessionId);
  expect(row.card).toBe(pm);
  expect(row.customer).toMatch(/^cus_/);
  return { token, pm, customer: row.customer!, session: extended.json<ParkingSession>() };
}

async function cardOf(sessionId: number) {
  const [row] = await queryRows<{ card: string | null; customer: string | null; leased: string | null }>(
    db,
    sql`select card_ref as card, card_customer_ref as customer, card_forget_at::text as leased
        from parking_sessions where id = ${sessionId}`,
  );
  return row!;
}

const deletes = (customer: string) =>
  fake.requests.filter((r) => r.method === 'DELETE' && r.path === `/v1/customers/${customer}`);

/** What Stripe says of the customer and of the card now. */
async function atStripe(customer: string, pm: string) {
  const c = (await (await fetch(`${fake.url}/v1/customers/${customer}`)).json()) as { deleted?: boolean };
  const card = (await (await fetch(`${fake.url}/v1/payment_methods/${pm}`)).json()) as { customer: string | null };
  // An off-session charge of the saved card, as Extend would send it.
  const charge = await fetch(`${fake.url}/v1/payment_intents`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      amount: '100',
      currency: 'usd',
      customer,
      payment_method: pm,
      off_session: 'true',
      confirm: 'true',
    }),
  });
  return { deleted: c.deleted === true, cardCustomer: card.customer, chargeStatus: charge.status };
}

describe('Quick Park forgets a typed card once its session is over', () => {
  it('a running session’s card is never touched: the job leaves it, and Extend still charges it', async () => {
    const { token, pm, customer, session } = await typedSession('QPF 1');
    const done = await app.jobs.runOnce(new Date());
    expect(done['parking.forget-cards']).toBe(0);
    expect(await cardOf(session.SessionId)).toEqual({ card: pm, customer, leased: null });
    expect(deletes(customer)).toHaveLength(0);
    const eq = await post('ExtendQuote', { SessionId: session.SessionId, DurationMinutes: 15 }, token);
    const again = await post('Extend', { QuoteId: eq.json<GuestExtendQuote>().QuoteId }, token);
    expect(again.statusCode, again.body).toBe(200);
    // Stopped, for the tests below that move the clock.
    expect((await post('Stop', { SessionId: session.SessionId }, token)).statusCode).toBe(200);
  });

  it('a card of no customer (the sandbox’s token, a Stripe card of before): kept while running, then cleared with no call', async () => {
    const { pm, customer, session } = await typedSession('QPF 8');
    await db.execute(sql`update parking_sessions set card_customer_ref = null where id = ${session.SessionId}`);
    const sent = fake.requests.length;
    expect(await forgetSavedCards(app.wallet, new Date())).toBe(0);
    expect(await cardOf(session.SessionId)).toEqual({ card: pm, customer: null, leased: null });
    expect(await forgetSavedCards(app.wallet, new Date(new Date(session.EndsAt).getTime() + MIN))).toBe(1);
    expect(await cardOf(session.SessionId)).toEqual({ card: null, customer: null, leased: null });
    expect(fake.requests.length).toBe(sent);
    expect(deletes(customer)).toHaveLength(0);
    await db.execute(sql`update parking_sessions set status = 'ended' where id = ${session.SessionId}`);
  });

  it('the guest’s Stop deletes the customer (its card with it) and the session keeps no card; the job then has nothing to do', async () => {
    const { token, pm, customer, session } = await typedSession('QPF 2');
    const stopped = await post('Stop', { SessionId: session.SessionId }, token);
    expect(stopped.statusCode, stopped.body).toBe(200);
    expect(await cardOf(session.SessionId)).toEqual({ card: null, customer: null, leased: null });
    expect(deletes(customer)).toHaveLength(1);
    const stripe = await atStripe(customer, pm);
    expect(stripe).toMatchObject({ deleted: true, cardCustomer: null });
    expect(stripe.chargeStatus).toBe(400);
    expect((await app.jobs.runOnce(new Date()))['parking.forget-cards']).toBe(0);
    expect(deletes(customer)).toHaveLength(1);
  });

  it('while the Stop’s refund is being sent (the stop could still be undone), the job leaves the card', async () => {
    const { token, customer, session } = await typedSession('QPF 11');
    const slow = fake.hold('/v1/refunds');
    const stop = post('Stop', { SessionId: session.SessionId }, token);
    await slow.arrived;
    expect(await forgetSavedCards(app.wallet, new Date())).toBe(0);
    expect(deletes(customer)).toHaveLength(0);
    slow.release();
    expect((await stop).statusCode).toBe(200);
    expect(deletes(customer)).toHaveLength(1);
    expect(await cardOf(session.SessionId)).toEqual({ card: null, customer: null, leased: null });
  });

  it('a Stop’s own forgetting waits for a row another request holds (a second Stop, refused) instead of leaving it to the job', async () => {
    const { token, pm, customer, session } = await typedSession('QPF 12');
    const restore = fake.cut('DELETE', `/v1/customers/${customer}`);
    expect((await post('Stop', { SessionId: session.SessionId }, token)).statusCode).toBe(200);
    restore();
    expect(await cardOf(session.SessionId)).toEqual({ card: pm, customer, leased: null });
    let forgetting: Promise<number> | undefined;
    await db.transaction(async (tx) => {
      await tx.execute(sql`select id from parking_sessions where id = ${session.SessionId} for update`);
      forgetting = forgetSavedCards(app.wallet, new Date(), { sessionId: session.SessionId });
      await new Promise((resolve) => setTimeout(resolve, 200));
    });
    expect(await forgetting).toBe(1);
    expect(await cardOf(session.SessionId)).toEqual({ card: null, customer: null, leased: null });
    expect((await atStripe(customer, pm)).deleted).toBe(true);
  });

  it('a network failure on the delete leaves the row to retry: the Stop stands, the next run forgets it', async () => {
    const { token, pm, customer, session } = await typedSession('QPF 3');
    const restore = fake.cut('DELETE', `/v1/customers/${customer}`);
    const stopped = await post('Stop', { SessionId: session.SessionId }, token);
    expect(stopped.statusCode, stopped.body).toBe(200);
    expect(stopped.json<ParkingSession>().Status).toBe('Ended');
    // Tried, not forgotten: the card is kept and not claimed, so the next run tries again.
    expect(deletes(customer).length).toBeGreaterThan(0);
    expect(await cardOf(session.SessionId)).toEqual({ card: pm, customer, leased: null });
    expect((await app.jobs.runOnce(new Date()))['parking.forget-cards']).toBe(0);
    expect(await cardOf(session.SessionId)).toEqual({ card: pm, customer, leased: null });
    expect((await atStripe(customer, pm)).deleted).toBe(false);
    restore();
    expect((await app.jobs.runOnce(new Date()))['parking.forget-cards']).toBe(1);
    expect(await cardOf(session.SessionId)).toEqual({ card: null, customer: null, leased: null });
    expect(await atStripe(customer, pm)).toMatchObject({ deleted: true, cardCustomer: null });
    // The logs said so, naming the session: never the card nor the customer.
    const said = logs.filter((l) => l.includes('saved card not forgotten'));
    expect(said.length).toBeGreaterThan(0);
    expect(said.join('')).toContain(String(session.SessionId));
    for (const line of logs) {
      expect(line).not.toContain(customer);
      expect(line).not.toContain(pm);
    }
  });

  it('a customer another running session names is kept until that one is over too, then deleted once', async () => {
    const a = await typedSession('QPF 4');
    const b = await typedSession('QPF 5');
    // Two sessions of one chain sharing a customer (as a quote chain's would).
    await db.execute(
      sql`update parking_sessions set card_ref = ${a.pm}, card_customer_ref = ${a.customer} where id = ${b.session.SessionId}`,
    );
    expect((await post('Stop', { SessionId: a.session.SessionId }, a.token)).statusCode).toBe(200);
    expect((await app.jobs.runOnce(new Date()))['parking.forget-cards']).toBe(0);
    expect(deletes(a.customer)).toHaveLength(0);
    expect(await cardOf(a.session.SessionId)).toMatchObject({ card: a.pm, customer: a.customer });
    expect((await post('Stop', { SessionId: b.session.SessionId }, b.token)).statusCode).toBe(200);
    expect((await app.jobs.runOnce(new Date()))['parking.forget-cards']).toBe(0);
    expect(deletes(a.customer)).toHaveLength(1);
    for (const s of [a, b]) expect(await cardOf(s.session.SessionId)).toMatchObject({ card: null, customer: null });
    expect((await atStripe(a.customer, a.pm)).deleted).toBe(true);
  });

  it('when the end passes, the job forgets the card; two runs at once, and a third, delete once', async () => {
    const { pm, customer, session } = await typedSession('QPF 6');
    const after = new Date(new Date(session.EndsAt).getTime() + MIN);
    // Before the end: kept.
    expect(await forgetSavedCards(app.wallet, new Date(new Date(session.EndsAt).getTime() - MIN))).toBe(0);
    const runs = await concurrently(2, () => forgetSavedCards(app.wallet, after));
    expect(runs.reduce((sum, n) => sum + n, 0)).toBe(1);
    expect(deletes(customer)).toHaveLength(1);
    expect((await app.jobs.runOnce(after))['parking.forget-cards']).toBe(0);
    expect(deletes(customer)).toHaveLength(1);
    expect(await cardOf(session.SessionId)).toEqual({ card: null, customer: null, leased: null });
    expect(await atStripe(customer, pm)).toMatchObject({ deleted: true, cardCustomer: null });
  });

  it('while one run waits for Stripe’s answer, another run (another process) leaves its session alone', async () => {
    const { customer, session } = await typedSession('QPF 9');
    const after = new Date(new Date(session.EndsAt).getTime() + MIN);
    const slow = fake.hold(`/v1/customers/${customer}`);
    const first = forgetSavedCards(app.wallet, after);
    await slow.arrived;
    // Claimed and committed, no lock held: the other run finds it leased, not due.
    expect(await cardOf(session.SessionId)).toMatchObject({ card: expect.any(String), leased: expect.any(String) });
    expect(await forgetSavedCards(app.wallet, after)).toBe(0);
    slow.release();
    expect(await first).toBe(1);
    expect(deletes(customer)).toHaveLength(1);
    expect(await cardOf(session.SessionId)).toEqual({ card: null, customer: null, leased: null });
  });

  it('a process killed after its claim leaves the session due again once the lease ends', async () => {
    const { customer, session } = await typedSession('QPF 10');
    const after = new Date(new Date(session.EndsAt).getTime() + MIN);
    // What a claim at `after` left behind when its process died before Stripe was called.
    await db.execute(
      sql`update parking_sessions set card_forget_at = ${new Date(after.getTime() + FORGET_LEASE_MS)}
          where id = ${session.SessionId}`,
    );
    expect(await forgetSavedCards(app.wallet, after)).toBe(0);
    expect(deletes(customer)).toHaveLength(0);
    expect(await forgetSavedCards(app.wallet, new Date(after.getTime() + FORGET_LEASE_MS))).toBe(1);
    expect(deletes(customer)).toHaveLength(1);
    expect(await cardOf(session.SessionId)).toEqual({ card: null, customer: null, leased: null });
  });

  it('the job’s tick ends a session whose time ran out and forgets its card in that tick', async () => {
    const { pm, customer, session } = await typedSession('QPF 7');
    const done = await app.jobs.runOnce(new Date(new Date(session.EndsAt).getTime() + MIN));
    expect(done['parking.expiry']).toBeGreaterThanOrEqual(1);
    expect(done['parking.forget-cards']).toBeGreaterThanOrEqual(1);
    expect(await cardOf(session.SessionId)).toEqual({ card: null, customer: null, leased: null });
    expect(deletes(customer)).toHaveLength(1);
    expect((await atStripe(customer, pm)).deleted).toBe(true);
  });
});
