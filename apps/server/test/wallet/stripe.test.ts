import { createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { AccountDetails } from '@parkit/contract';
import { paymentMethods, providerEvents } from '../../src/db/schema/index.ts';
import { as, buildTestApp, registerAndSignIn, type SignedIn } from '../helpers.ts';
import { addMoney } from './helpers.ts';
import { stripeProvider } from '../../src/wallet/providers/stripe.ts';
import { startFakeStripe } from './fake-stripe.ts';

const fake = await startFakeStripe();
const WEBHOOK_SECRET = 'whsec_test_secret_for_parkit';
const { app: instance, database } = await buildTestApp({
  ADDRESS_RATE_LIMIT_SCALE: 1000,
  STRIPE_SECRET_KEY: 'sk_test_fake',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_fake',
  STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
  STRIPE_API_URL: fake.url,
});
afterAll(() => fake.close());
const db = database.db;

/** The browser's part: Elements confirms the SetupIntent with a card, then our API gets the pm id. */
async function saveCard(who: SignedIn, pm: string) {
  const si = await as(instance, who, { method: 'POST', url: '/api/PaymentMethods/SetupIntent' });
  expect(si.statusCode).toBe(200);
  const { ClientSecret, PublishableKey } = si.json<{ ClientSecret: string; PublishableKey: string }>();
  expect(PublishableKey).toBe('pk_test_fake');
  await fetch(`${fake.url}/test/confirm_setup`, {
    method: 'POST',
    body: new URLSearchParams({ setup_intent: ClientSecret.split('_secret_')[0]!, payment_method: pm }),
  });
  return as(instance, who, { method: 'POST', url: '/api/PaymentMethods/Add', payload: { Token: pm } });
}

/** Stripe's signature scheme: t=<ts>,v1=HMAC-SHA256(secret, "<ts>.<payload>"). */
function signed(payload: string, secret = WEBHOOK_SECRET, t = Math.floor(Date.now() / 1000)) {
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${payload}`).digest('hex')}`;
}
const webhook = (payload: string, signature: string) =>
  instance.inject({
    method: 'POST',
    url: '/api/Stripe/Webhook',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    payload,
  });

describe('the stripe provider', () => {
  it('is chosen when both keys are set; the sandbox tokenizer is gone', async () => {
    const a = await registerAndSignIn(instance);
    const d = AccountDetails.parse((await as(instance, a, { method: 'GET', url: '/api/Account/Details' })).json());
    expect(d.PaymentProvider).toBe('stripe');
    expect(
      (
        await instance.inject({
          method: 'POST',
          url: '/api/Sandbox/Tokens',
          payload: { Number: '4242424242424242', ExpMonth: 1, ExpYear: 2099, Cvc: '123' },
        })
      ).statusCode,
    ).toBe(404);
  });

  it('saves a card through a SetupIntent and charges it off-session with an idempotency key', async () => {
    const a = await registerAndSignIn(instance);
    const add = await saveCard(a, 'pm_card_visa');
    expect(add.statusCode).toBe(201);
    expect(add.json()).toMatchObject({ Provider: 'stripe', Brand: 'Visa', Last4: '4242', IsDefault: true });
    const customer = fake.requests.find((r) => r.path === '/v1/customers');
    expect(customer?.auth).toBe('Bearer sk_test_fake');
    const res = await addMoney(instance, a, { Amount: 20 }, 'key-1');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ Balance: 20 });
    const pi = fake.requests.filter((r) => r.path === '/v1/payment_intents').at(-1)!;
    expect(Object.fromEntries(pi.form)).toMatchObject({
      amount: '2000',
      currency: 'usd',
      payment_method: 'pm_card_visa',
      off_session: 'true',
      confirm: 'true',
    });
    expect(pi.form.get('customer')).toMatch(/^cus_fake/);
    expect(pi.idempotencyKey).toBe(`addmoney:${a.memberId}:key-1`);
  });

  it('refuses a pm that belongs to another customer', async () => {
    const a = await registerAndSignIn(instance);
    await as(instance, a, { method: 'POST', url: '/api/PaymentMethods/SetupIntent' });
    const res = await as(instance, a, {
      method: 'POST',
      url: '/api/PaymentMethods/Add',
      payload: { Token: 'pm_card_mastercard' },
    });
    expect(res.statusCode).toBe(400);
    const missing = await as(instance, a, {
      method: 'POST',
      url: '/api/PaymentMethods/Add',
      payload: { Token: 'pm_unknown' },
    });
    expect(missing.statusCode).toBe(400);
  });

  it('verifies a card through its SetupIntent: one declined there is refused with Stripe’s reason, not saved', async () => {
    const a = await registerAndSignIn(instance);
    const res = await saveCard(a, 'pm_card_chargeDeclined');
    expect(res.statusCode).toBe(402);
    expect(res.json()).toMatchObject({ message: 'Your card was declined.' });
    expect(await db.select().from(paymentMethods).where(eq(paymentMethods.memberId, a.memberId))).toHaveLength(0);
    // A card never confirmed through one of the member's SetupIntents is refused too.
    const unconfirmed = await as(instance, a, {
      method: 'POST',
      url: '/api/PaymentMethods/Add',
      payload: { Token: 'pm_card_mastercard' },
    });
    expect(unconfirmed.statusCode).toBe(400);
    expect(await db.select().from(paymentMethods).where(eq(paymentMethods.memberId, a.memberId))).toHaveLength(0);
  });

  it.each([
    ['pm_card_chargeCustomerFail', 'Your card was declined.'],
    ['pm_card_chargeDeclinedInsufficientFunds', 'Your card has insufficient funds.'],
  ])('a decline (%s) answers 402 with Stripe’s message and credits nothing', async (pm, message) => {
    const a = await registerAndSignIn(instance);
    expect((await saveCard(a, pm)).statusCode).toBe(201);
    const res = await addMoney(instance, a, { Amount: 20 });
    expect(res.statusCode).toBe(402);
    expect(res.json()).toMatchObject({ message });
    const d = AccountDetails.parse((await as(instance, a, { method: 'GET', url: '/api/Account/Details' })).json());
    expect(d.Balance).toBe(0);
  });
  it('refunds part of a charge with an idempotency key (Quick Park Stop), once, and never more than was charged', async () => {
    const provider = stripeProvider({ secretKey: 'sk_test_fake', apiUrl: fake.url });
    const charged = await provider.charge({
      customerRef: null,
      providerRef: 'pm_card_visa',
      amountCents: 500,
      currency: 'usd',
      description: 'test',
      idempotencyKey: 'refund-test-charge',
    });
    expect(charged.ok).toBe(true);
    const chargeRef = charged.ok ? charged.chargeRef : '';
    const first = await provider.refund({ chargeRef, amountCents: 300, idempotencyKey: 'refund-test-1' });
    expect(first).toMatchObject({ ok: true });
    const req = fake.requests.filter((r) => r.path === '/v1/refunds').at(-1)!;
    expect(req.form.get('payment_intent')).toBe(chargeRef);
    expect(req.form.get('amount')).toBe('300');
    expect(req.idempotencyKey).toBe('refund-test-1');
    // The same key again is Stripe's replay: the same refund, nothing more given back.
    expect(await provider.refund({ chargeRef, amountCents: 300, idempotencyKey: 'refund-test-1' })).toEqual(first);
    // 300 of 500 refunded: 201 more is refused; an unknown PaymentIntent too.
    expect(await provider.refund({ chargeRef, amountCents: 201, idempotencyKey: 'refund-test-2' })).toMatchObject({
      ok: false,
      reason: 'refused',
    });
    expect(
      await provider.refund({ chargeRef: 'pi_unknown', amountCents: 1, idempotencyKey: 'refund-test-3' }),
    ).toMatchObject({ ok: false, reason: 'refused' });
    expect(await provider.refund({ chargeRef, amountCents: 200, idempotencyKey: 'refund-test-4' })).toMatchObject({
      ok: true,
    });
  });
});

describe('a typed card saved by its first charge (Quick Park)', () => {
  const provider = stripeProvider({ secretKey: 'sk_test_fake', apiUrl: fake.url });
  async function typedPm(): Promise<string> {
    const res = await fetch(`${fake.url}/v1/payment_methods`, {
      method: 'POST',
      body: new URLSearchParams({ type: 'card', 'card[token]': 'tok_visa' }),
    });
    return ((await res.json()) as { id: string }).id;
  }
  const charge = (pm: string, key: string, extra: { customerRef?: string | null; saveCard?: boolean }) =>
    provider.charge({
      customerRef: null,
      providerRef: pm,
      amountCents: 250,
      currency: 'usd',
      description: 'ParkIt zone 1',
      idempotencyKey: key,
      ...extra,
    });

  it('creates a customer under a key of the charge’s, saves the card with setup_future_usage, and the next charge is off-session under it', async () => {
    const pm = await typedPm();
    const first = await charge(pm, 'save-test-1', { saveCard: true });
    expect(first).toMatchObject({ ok: true });
    const customerRef = first.ok ? first.customerRef : null;
    expect(customerRef).toMatch(/^cus_/);
    const made = fake.requests.filter((r) => r.path === '/v1/customers').at(-1)!;
    expect(made.idempotencyKey).toBe('save-test-1:customer');
    const pi = fake.requests.filter((r) => r.path === '/v1/payment_intents').at(-1)!;
    expect(pi.form.get('customer')).toBe(customerRef);
    expect(pi.form.get('setup_future_usage')).toBe('off_session');
    expect(pi.form.get('off_session')).toBeNull();
    // The same key again is Stripe's replay: the same customer and charge.
    expect(await charge(pm, 'save-test-1', { saveCard: true })).toEqual(first);
    const again = await charge(pm, 'save-test-2', { customerRef });
    expect(again).toMatchObject({ ok: true, customerRef: null });
    const next = fake.requests.filter((r) => r.path === '/v1/payment_intents').at(-1)!;
    expect(next.form.get('customer')).toBe(customerRef);
    expect(next.form.get('off_session')).toBe('true');
  });

  it('a card charged once without being saved is refused the second time, as Stripe refuses it', async () => {
    const pm = await typedPm();
    expect(await charge(pm, 'unsaved-test-1', {})).toMatchObject({ ok: true, customerRef: null });
    expect(await charge(pm, 'unsaved-test-2', {})).toMatchObject({ ok: false, reason: 'declined' });
    const refused = await fetch(`${fake.url}/v1/payment_intents`, {
      method: 'POST',
      body: new URLSearchParams({ amount: '100', currency: 'usd', payment_method: pm, confirm: 'true' }),
    });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { type: string; message: string } }).error).toMatchObject({
      type: 'invalid_request_error',
      message: expect.stringContaining('It may not be used again'),
    });
  });
});

describe('POST /api/Stripe/Webhook', () => {
  it('verifies the signature, handles an event once, and saves the card of a setup_intent.succeeded', async () => {
    const a = await registerAndSignIn(instance);
    const si = (await as(instance, a, { method: 'POST', url: '/api/PaymentMethods/SetupIntent' })).json<{
      ClientSecret: string;
    }>();
    const setupId = si.ClientSecret.split('_secret_')[0]!;
    await fetch(`${fake.url}/test/confirm_setup`, {
      method: 'POST',
      body: new URLSearchParams({ setup_intent: setupId, payment_method: 'pm_card_mastercard' }),
    });
    const customer = fake.requests
      .filter((r) => r.path === '/v1/setup_intents')
      .at(-1)!
      .form.get('customer');
    const event = JSON.stringify({
      id: 'evt_fake_1',
      object: 'event',
      type: 'setup_intent.succeeded',
      api_version: '2026-10-28',
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      data: {
        object: {
          id: setupId,
          object: 'setup_intent',
          customer,
          payment_method: 'pm_card_mastercard',
          status: 'succeeded',
        },
      },
    });
    const first = await webhook(event, signed(event));
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ received: true, duplicate: false });
    const again = await webhook(event, signed(event));
    expect(again.json()).toEqual({ received: true, duplicate: true });
    const cards = await db.select().from(paymentMethods).where(eq(paymentMethods.memberId, a.memberId));
    expect(cards.map((c) => [c.brand, c.last4])).toEqual([['Mastercard', '4444']]);
    expect(await db.select().from(providerEvents).where(eq(providerEvents.id, 'evt_fake_1'))).toHaveLength(1);
  });

  it.each([
    ['a wrong secret', (p: string) => signed(p, 'whsec_wrong')],
    ['an old timestamp', (p: string) => signed(p, WEBHOOK_SECRET, Math.floor(Date.now() / 1000) - 3600)],
    ['garbage', () => 'nonsense'],
  ])('refuses %s with 400 and stores nothing', async (_what, sign) => {
    const event = JSON.stringify({
      id: 'evt_forged',
      object: 'event',
      type: 'payment_method.detached',
      data: { object: { id: 'pm_card_visa', object: 'payment_method' } },
    });
    const res = await webhook(event, sign(event));
    expect(res.statusCode).toBe(400);
    expect(await db.select().from(providerEvents).where(eq(providerEvents.id, 'evt_forged'))).toHaveLength(0);
  });
});
