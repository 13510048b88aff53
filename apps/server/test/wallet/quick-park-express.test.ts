import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import {
  QUICK_PARK_MESSAGES,
  WALLET_MESSAGES,
  type GuestExtendQuote,
  type GuestPayment,
  type ParkingSession,
  type Quote,
} from '@parkit/contract';
import { queryRows } from '../../src/db/client.ts';
import { buildTestApp } from '../helpers.ts';
import { addZone, verifiedGuest } from '../parking-helpers.ts';
import { concurrently, statusCounts } from '../concurrency.ts';
import { startFakeStripe } from './fake-stripe.ts';

/**
 * Quick Park with Stripe (docs/operations.md#payments), on PGlite and PostgreSQL: a guest learns the
 * provider and its publishable key (GET /api/Parking/Guest/Payment, for Stripe's Express Checkout
 * Element), and the PaymentMethod the wallet sheet gave pays the Start as its ExpressToken: charged
 * once per quote through the one card path (Idempotency-Key, no customer, never saved), refused
 * with the card's reason and nothing written when declined. A typed card (CardToken) is saved by
 * its first charge under a customer of its own, which its Extend charges off-session. Stripe is the
 * local stand-in of fake-stripe.ts.
 */
const fake = await startFakeStripe();
const { app, database } = await buildTestApp({
  ADDRESS_RATE_LIMIT_SCALE: 1000,
  STRIPE_SECRET_KEY: 'sk_test_fake',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_fake',
  STRIPE_API_URL: fake.url,
});
afterAll(() => fake.close());
const { db } = database;
await addZone(db, '9301');

const post = (url: string, payload: object, token?: string, headers: Record<string, string> = {}) =>
  app.inject({
    method: 'POST',
    url: `/api/Parking/Guest/${url}`,
    payload,
    headers: { ...(token ? { 'x-guest-token': token } : {}), ...headers },
  });

async function quoted(token: string, plate: string): Promise<Quote> {
  const res = await post(
    'Quote',
    { ZoneNumber: '9301', PlateNumber: plate, PlateState: 'TX', DurationMinutes: 60 },
    token,
  );
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Quote>();
}
/**
 * What Stripe.js's createPaymentMethod gives the Express Checkout Element (or a typed card's form):
 * a card of no customer, which Stripe charges once unless that charge saves it.
 */
async function walletPm(token = 'tok_visa'): Promise<string> {
  const res = await fetch(`${fake.url}/v1/payment_methods`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ type: 'card', 'card[token]': token }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { id: string }).id;
}
/** An express-paid session of `plate` (60 minutes), and the guest's token. */
async function expressSession(plate: string): Promise<{ token: string; session: ParkingSession }> {
  const token = (await verifiedGuest(app)).token;
  const q = await quoted(token, plate);
  const res = await post('Start', { QuoteId: q.QuoteId, ExpressToken: await walletPm() }, token);
  expect(res.statusCode, res.body).toBe(201);
  return { token, session: res.json<ParkingSession>() };
}
async function extendQuote(token: string, sessionId: number): Promise<GuestExtendQuote> {
  const res = await post('ExtendQuote', { SessionId: sessionId, DurationMinutes: 30 }, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<GuestExtendQuote>();
}
/** The session's row, its card payments' sum and count, and what Stripe took for it. */
async function moneyOf(sessionId: number) {
  const [row] = await queryRows<{
    ends: string;
    parking: number;
    card: string | null;
    customer: string | null;
    paid: number;
    n: number;
  }>(
    db,
    sql`select s.ends_at::text as ends, s.parking_cents as parking, s.card_ref as card,
          s.card_customer_ref as customer,
          (select coalesce(sum(amount_cents), 0)::int from parking_card_payments where session_id = s.id) as paid,
          (select count(*)::int from parking_card_payments where session_id = s.id) as n
        from parking_sessions s where s.id = ${sessionId}`,
  );
  const pending = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from wallet_charges where status = 'pending' and kind like 'quick-park%'`,
  );
  return { ...row!, pending: pending[0]!.n };
}
const intents = () => fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents');
const sessionsOf = async (plate: string) =>
  (await queryRows<{ n: number }>(db, sql`select count(*)::int as n from parking_sessions where plate = ${plate}`))[0]!
    .n;

describe('Quick Park with Stripe', () => {
  it('tells a guest the provider, its publishable key and the currency; no guest token, no answer', async () => {
    const token = (await verifiedGuest(app)).token;
    const res = await app.inject({
      method: 'GET',
      url: '/api/Parking/Guest/Payment',
      headers: { 'x-guest-token': token },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<GuestPayment>()).toEqual({
      PaymentProvider: 'stripe',
      PublishableKey: 'pk_test_fake',
      Currency: 'USD',
    });
    expect((await app.inject({ method: 'GET', url: '/api/Parking/Guest/Payment' })).statusCode).toBe(401);
  });

  it('the express wallet’s PaymentMethod pays the Start once, with no customer, and is not saved', async () => {
    const token = (await verifiedGuest(app)).token;
    const q = await quoted(token, 'QPX 1');
    const pm = await walletPm();
    const before = intents().length;
    const key = { 'idempotency-key': `Guest/Start:${q.QuoteId}` };
    // A double tap and a retry at once: one charge, one session, the same answer.
    const results = await concurrently(3, () => post('Start', { QuoteId: q.QuoteId, ExpressToken: pm }, token, key));
    expect(statusCounts(results)).toEqual({ 201: 3 });
    const ids = new Set(results.map((r) => r.json<ParkingSession>().SessionId));
    expect(ids.size).toBe(1);
    expect(results[0]!.json<ParkingSession>()).toMatchObject({ PaidVia: 'Card', AmountPaid: q.TotalAmount });
    const charged = intents().slice(before);
    expect(charged).toHaveLength(1);
    expect(charged[0]!.form.get('payment_method')).toBe(pm);
    expect(charged[0]!.form.get('customer')).toBeNull();
    expect(charged[0]!.form.get('setup_future_usage')).toBeNull();
    expect(charged[0]!.form.get('amount')).toBe(String(Math.round(q.TotalAmount * 100)));
    expect(charged[0]!.idempotencyKey).toBeTruthy();
    expect(await sessionsOf('QPX 1')).toBe(1);
    const saved = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from payment_methods where provider_ref = ${pm}`,
    );
    expect(saved[0]!.n).toBe(0);
    expect(await moneyOf(results[0]!.json<ParkingSession>().SessionId)).toMatchObject({ card: null, customer: null });
  });

  it('a declined or unknown PaymentMethod is refused with the card’s reason; nothing opens, and another card pays', async () => {
    const token = (await verifiedGuest(app)).token;
    const q = await quoted(token, 'QPX 2');
    for (const [pm, status, message] of [
      ['pm_card_chargeDeclined', 402, 'Your card was declined.'],
      ['pm_forged_123', 402, WALLET_MESSAGES.tokenInvalid],
    ] as const) {
      const res = await post('Start', { QuoteId: q.QuoteId, CardToken: pm }, token);
      expect(res.statusCode, `${pm}: ${res.body}`).toBe(status);
      expect(res.json().errors[0].field).toBe('CardToken');
      expect(res.json().message).toBe(message);
      expect(await sessionsOf('QPX 2')).toBe(0);
    }
    const paid = await post('Start', { QuoteId: q.QuoteId, CardToken: 'pm_card_mastercard' }, token);
    expect(paid.statusCode, paid.body).toBe(201);
    expect(await sessionsOf('QPX 2')).toBe(1);
  });
});

describe('Quick Park Extend of a session an express wallet paid', () => {
  it('keeps no card; the Extend pays with a new express payment, charged once', async () => {
    const { token, session } = await expressSession('QPX 3');
    expect((await moneyOf(session.SessionId)).card).toBeNull();
    const eq = await extendQuote(token, session.SessionId);
    expect(eq.ExpressRequired).toBe(true);
    const pm = await walletPm('tok_mastercard');
    const before = intents().length;
    const res = await post('Extend', { QuoteId: eq.QuoteId, ExpressToken: pm }, token, {
      'idempotency-key': `Guest/Extend:${eq.QuoteId}`,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(new Date(res.json<ParkingSession>().EndsAt).getTime()).toBe(
      new Date(session.EndsAt).getTime() + 30 * 60_000,
    );
    const charged = intents().slice(before);
    expect(charged).toHaveLength(1);
    expect(charged[0]!.form.get('payment_method')).toBe(pm);
    expect(charged[0]!.form.get('amount')).toBe(String(Math.round(eq.TotalAmount * 100)));
    const after = await moneyOf(session.SessionId);
    expect(after).toMatchObject({ n: 2, pending: 0, card: null });
    expect(after.paid).toBe(Math.round((session.AmountPaid + eq.TotalAmount) * 100));
  });

  it('without an ExpressToken is a 400 that changes nothing, and the quote can still be paid', async () => {
    const { token, session } = await expressSession('QPX 4');
    const eq = await extendQuote(token, session.SessionId);
    const before = await moneyOf(session.SessionId);
    const sent = intents().length;
    const res = await post('Extend', { QuoteId: eq.QuoteId }, token);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().errors[0]).toEqual({ field: 'ExpressToken', message: QUICK_PARK_MESSAGES.expressRequired });
    const bad = await post('Extend', { QuoteId: eq.QuoteId, ExpressToken: 'pm_forged_9' }, token);
    expect(bad.statusCode, bad.body).toBe(400);
    expect(bad.json().errors[0].field).toBe('ExpressToken');
    expect(intents().length).toBe(sent);
    expect(await moneyOf(session.SessionId)).toEqual(before);
    const paid = await post('Extend', { QuoteId: eq.QuoteId, ExpressToken: await walletPm() }, token);
    expect(paid.statusCode, paid.body).toBe(200);
  });

  it('a one-time card is never charged twice: reusing the Start’s is refused by Stripe, and nothing is left pending', async () => {
    const token = (await verifiedGuest(app)).token;
    const q = await quoted(token, 'QPX 5');
    const pm = await walletPm();
    const start = await post('Start', { QuoteId: q.QuoteId, ExpressToken: pm }, token);
    expect(start.statusCode, start.body).toBe(201);
    const session = start.json<ParkingSession>();
    const eq = await extendQuote(token, session.SessionId);
    const before = await moneyOf(session.SessionId);
    const res = await post('Extend', { QuoteId: eq.QuoteId, ExpressToken: pm }, token);
    expect(res.statusCode, res.body).toBeLessThan(500);
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(await moneyOf(session.SessionId)).toEqual(before);
  });

  it('the same Idempotency-Key sent three times at once charges once and answers the same session', async () => {
    const { token, session } = await expressSession('QPX 6');
    const eq = await extendQuote(token, session.SessionId);
    const pm = await walletPm();
    const before = intents().length;
    const key = { 'idempotency-key': `Guest/Extend:${eq.QuoteId}` };
    const results = await concurrently(3, () => post('Extend', { QuoteId: eq.QuoteId, ExpressToken: pm }, token, key));
    expect(statusCounts(results)).toEqual({ 200: 3 });
    expect(new Set(results.map((r) => r.json<ParkingSession>().EndsAt)).size).toBe(1);
    expect(
      intents()
        .slice(before)
        .filter((r) => r.form.get('payment_method') === pm),
    ).toHaveLength(1);
    const after = await moneyOf(session.SessionId);
    expect(after).toMatchObject({ n: 2, pending: 0 });
    expect(after.paid).toBe(Math.round((session.AmountPaid + eq.TotalAmount) * 100));
  });

  it('two Extends at once with two quotes: one is paid, and what Stripe took equals the session’s payments', async () => {
    const { token, session } = await expressSession('QPX 7');
    const quotes = [await extendQuote(token, session.SessionId), await extendQuote(token, session.SessionId)];
    const pms = [await walletPm(), await walletPm()];
    const before = intents().length;
    const results = await concurrently(2, (i) =>
      post('Extend', { QuoteId: quotes[i]!.QuoteId, ExpressToken: pms[i]! }, token),
    );
    expect(statusCounts(results)).toEqual({ 200: 1, 409: 1 });
    const charged = intents().slice(before);
    expect(charged).toHaveLength(1);
    const after = await moneyOf(session.SessionId);
    expect(after).toMatchObject({ n: 2, pending: 0 });
    // The ledger (the session's card payments) equals its balance (what it cost) and what Stripe took.
    expect(after.paid).toBe(Math.round(session.AmountPaid * 100) + Number(charged[0]!.form.get('amount')));
    expect(after.paid).toBe(after.parking);
  });
});

describe('Quick Park Extend of a session a typed card paid', () => {
  const customers = () => fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/customers');

  it('the Start saves the card under a new customer, and the Extend charges it off-session under that customer', async () => {
    const token = (await verifiedGuest(app)).token;
    const q = await quoted(token, 'QPT 1');
    // What Stripe.js's createPaymentMethod gives for a typed card: a PaymentMethod of no customer.
    const pm = await walletPm();
    const [madeBefore, sentBefore] = [customers().length, intents().length];
    // A double tap with one Idempotency-Key: one customer, one charge, one session.
    const starts = await concurrently(2, () =>
      post('Start', { QuoteId: q.QuoteId, CardToken: pm }, token, { 'idempotency-key': `Guest/Start:${q.QuoteId}` }),
    );
    expect(statusCounts(starts)).toEqual({ 201: 2 });
    const session = starts[0]!.json<ParkingSession>();
    const made = customers().slice(madeBefore);
    expect(made).toHaveLength(1);
    expect(made[0]!.idempotencyKey).toMatch(new RegExp(`^quick-park:${q.QuoteId}:.+:customer$`));
    const started = await moneyOf(session.SessionId);
    expect(started).toMatchObject({ card: pm, n: 1, pending: 0 });
    expect(started.customer).toMatch(/^cus_/);
    const first = intents().slice(sentBefore);
    expect(first).toHaveLength(1);
    expect(first[0]!.form.get('payment_method')).toBe(pm);
    expect(first[0]!.form.get('customer')).toBe(started.customer);
    expect(first[0]!.form.get('setup_future_usage')).toBe('off_session');
    expect(first[0]!.form.get('off_session')).toBeNull();

    const eq = await extendQuote(token, session.SessionId);
    expect(eq.ExpressRequired).toBe(false);
    const res = await post('Extend', { QuoteId: eq.QuoteId }, token, {
      'idempotency-key': `Guest/Extend:${eq.QuoteId}`,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(new Date(res.json<ParkingSession>().EndsAt).getTime()).toBe(
      new Date(session.EndsAt).getTime() + 30 * 60_000,
    );
    const second = intents().slice(sentBefore + 1);
    expect(second).toHaveLength(1);
    expect(second[0]!.form.get('payment_method')).toBe(pm);
    expect(second[0]!.form.get('customer')).toBe(started.customer);
    expect(second[0]!.form.get('off_session')).toBe('true');
    expect(second[0]!.form.get('setup_future_usage')).toBeNull();
    expect(second[0]!.form.get('amount')).toBe(String(Math.round(eq.TotalAmount * 100)));
    expect(customers().slice(madeBefore)).toHaveLength(1);
    // The session's card payments equal what it cost and what Stripe took.
    const after = await moneyOf(session.SessionId);
    expect(after).toMatchObject({ n: 2, pending: 0, card: pm, customer: started.customer });
    expect(after.paid).toBe(Math.round((session.AmountPaid + eq.TotalAmount) * 100));
    expect(after.paid).toBe(after.parking);
    expect(after.paid).toBe([...first, ...second].reduce((sum, r) => sum + Number(r.form.get('amount')), 0));
    const rows = await queryRows<{ kind: string; customer: string | null; save: boolean }>(
      db,
      sql`select c.kind, c.customer_ref as customer, c.save_card as save from wallet_charges c
          join parking_quotes q on q.id = c.quote_id where q.session_id = ${session.SessionId} or q.id = ${q.QuoteId}
          order by c.id`,
    );
    expect(rows).toEqual([
      { kind: 'quick-park-start', customer: started.customer, save: true },
      { kind: 'quick-park-extend', customer: started.customer, save: false },
    ]);
  });

  it('a declined typed card saves nothing and opens nothing; another card pays and is saved', async () => {
    const token = (await verifiedGuest(app)).token;
    const q = await quoted(token, 'QPT 2');
    const declined = await post(
      'Start',
      { QuoteId: q.QuoteId, CardToken: await walletPm('tok_chargeDeclined') },
      token,
    );
    expect(declined.statusCode, declined.body).toBe(402);
    expect(declined.json().message).toBe('Your card was declined.');
    expect(await sessionsOf('QPT 2')).toBe(0);
    const pm = await walletPm('tok_mastercard');
    const paid = await post('Start', { QuoteId: q.QuoteId, CardToken: pm }, token);
    expect(paid.statusCode, paid.body).toBe(201);
    const session = paid.json<ParkingSession>();
    const eq = await extendQuote(token, session.SessionId);
    const res = await post('Extend', { QuoteId: eq.QuoteId }, token);
    expect(res.statusCode, res.body).toBe(200);
    const after = await moneyOf(session.SessionId);
    expect(after).toMatchObject({ n: 2, pending: 0, card: pm });
    expect(after.paid).toBe(after.parking);
  });
});
