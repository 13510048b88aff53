import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { WALLET_MESSAGES, type GuestPayment, type GuestToken, type ParkingSession, type Quote } from '@parkit/contract';
import { queryRows } from '../../src/db/client.ts';
import { buildTestApp, lastCode, newMember } from '../helpers.ts';
import { addZone } from '../parking-helpers.ts';
import { concurrently, statusCounts } from '../concurrency.ts';
import { startFakeStripe } from './fake-stripe.ts';

/**
 * Quick Park with Stripe (docs/operations.md#payments), on PGlite and PostgreSQL: a guest learns the
 * provider and its publishable key (GET /api/Parking/Guest/Payment, for Stripe's Express Checkout
 * Element), and the PaymentMethod the wallet sheet gave pays the Start as its CardToken: charged once
 * per quote through the one card path (Idempotency-Key, no customer, never saved), refused with the
 * card's reason and nothing written when declined. Stripe is the local stand-in of fake-stripe.ts.
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

async function verifiedGuest(): Promise<string> {
  const phone = newMember().PhoneNumber;
  expect((await post('SendCode', { PhoneNumber: phone })).statusCode).toBe(202);
  const res = await post('Verify', { PhoneNumber: phone, Code: await lastCode(app, phone) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<GuestToken>().GuestToken;
}
async function quoted(token: string, plate: string): Promise<Quote> {
  const res = await post(
    'Quote',
    { ZoneNumber: '9301', PlateNumber: plate, PlateState: 'TX', DurationMinutes: 60 },
    token,
  );
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Quote>();
}
const intents = () => fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents');
const sessionsOf = async (plate: string) =>
  (await queryRows<{ n: number }>(db, sql`select count(*)::int as n from parking_sessions where plate = ${plate}`))[0]!
    .n;

describe('Quick Park with Stripe', () => {
  it('tells a guest the provider, its publishable key and the currency; no guest token, no answer', async () => {
    const token = await verifiedGuest();
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
    const token = await verifiedGuest();
    const q = await quoted(token, 'QPX 1');
    const before = intents().length;
    const key = { 'idempotency-key': `Guest/Start:${q.QuoteId}` };
    // A double tap and a retry at once: one charge, one session, the same answer.
    const results = await concurrently(3, () =>
      post('Start', { QuoteId: q.QuoteId, CardToken: 'pm_card_visa' }, token, key),
    );
    expect(statusCounts(results)).toEqual({ 201: 3 });
    const ids = new Set(results.map((r) => r.json<ParkingSession>().SessionId));
    expect(ids.size).toBe(1);
    expect(results[0]!.json<ParkingSession>()).toMatchObject({ PaidVia: 'Card', AmountPaid: q.TotalAmount });
    const charged = intents().slice(before);
    expect(charged).toHaveLength(1);
    expect(charged[0]!.form.get('payment_method')).toBe('pm_card_visa');
    expect(charged[0]!.form.get('customer')).toBeNull();
    expect(charged[0]!.form.get('amount')).toBe(String(Math.round(q.TotalAmount * 100)));
    expect(charged[0]!.idempotencyKey).toBeTruthy();
    expect(await sessionsOf('QPX 1')).toBe(1);
    const saved = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from payment_methods where provider_ref = 'pm_card_visa'`,
    );
    expect(saved[0]!.n).toBe(0);
  });

  it('a declined or unknown PaymentMethod is refused with the card’s reason; nothing opens, and another card pays', async () => {
    const token = await verifiedGuest();
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
