// Quick Park's card money on the wallet's one card path (wallet/charges.ts): the guest's start,
// extension and Stop refund are claimed as pending wallet_charges rows, sent to the provider outside
// any transaction and recorded after; a crash in between is recovered by the wallet job; the same
// Pay sent many times at once charges once; and a slow provider holds up no other request on
// PGlite's one connection.
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import type { ParkingSession, Quote } from '@parkit/contract';
import { queryRows } from '../../src/db/client.ts';
import { parkingCardPayments, parkingQuotes, parkingSessions, walletCharges } from '../../src/db/schema/index.ts';
import { startGuest, stopOwned } from '../../src/parking/index.ts';
import { recoverCharges, type ChargeContext, type PaymentProvider } from '../../src/wallet/index.ts';
import { concurrently, expectJsonNo5xx, statusCounts } from '../concurrency.ts';
import { buildTestApp, MANY_REQUESTS } from '../helpers.ts';
import { addZone, verifiedGuest } from '../parking-helpers.ts';
import { startFakeStripe } from './fake-stripe.ts';
import { sandboxCardToken } from './helpers.ts';

const { app, database } = await buildTestApp(MANY_REQUESTS, { decorations: true });
const db = database.db;
await addZone(db, '7701'); // $2.50/h

// The same app on the stripe provider, against a local stand-in of Stripe's API that can be slow.
const fake = await startFakeStripe();
afterAll(() => fake.close());
const { app: stripeApp, database: stripeDb } = await buildTestApp({
  ...MANY_REQUESTS,
  STRIPE_SECRET_KEY: 'sk_test_fake',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_fake',
  STRIPE_API_URL: fake.url,
});
await addZone(stripeDb.db, '7701');
const slow = guestApi(stripeApp);

type App = typeof app;

function guestApi(target: App) {
  const post = (url: string, payload: unknown, token: string, headers: Record<string, string> = {}) =>
    target.inject({
      method: 'POST',
      url: `/api/Parking/Guest/${url}`,
      payload: payload as Record<string, unknown>,
      headers: { 'x-guest-token': token, ...headers },
    });
  const guest = () => verifiedGuest(target);
  async function quote(token: string, plate: string, zone = '7701'): Promise<Quote> {
    const res = await post(
      'Quote',
      { ZoneNumber: zone, PlateNumber: plate, PlateState: 'TX', DurationMinutes: 60 },
      token,
    );
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Quote>();
  }
  return { post, verifiedGuest: guest, quote };
}

const guest = guestApi(app);

const chargesOfQuote = (quoteId: string) => db.select().from(walletCharges).where(eq(walletCharges.quoteId, quoteId));
const sessionsOfPhone = (phone: string) =>
  db.select().from(parkingSessions).where(eq(parkingSessions.guestPhone, phone));
const paymentsOf = (sessionId: number) =>
  db.select().from(parkingCardPayments).where(eq(parkingCardPayments.sessionId, sessionId));
const refundsOf = async (sessionId: number) =>
  (await db.select().from(walletCharges).where(eq(walletCharges.kind, 'quick-park-refund'))).filter((r) =>
    r.providerKey.startsWith(`quick-park-stop:${sessionId}:`),
  );
const nothingPending = async () =>
  expect(
    (await queryRows<{ n: number }>(db, sql`select count(*)::int as n from wallet_charges where status = 'pending'`))[0]
      ?.n,
  ).toBe(0);

/** The app's provider, but the process "dies" right after the provider answered (before the record). */
function diesAfter(what: 'charge' | 'refund', wallet: ChargeContext = app.wallet): ChargeContext {
  const real = wallet.provider;
  const provider: PaymentProvider = {
    ...real,
    charge: async (req) => {
      const done = await real.charge(req);
      if (what === 'charge') throw new Error('the process died after the charge');
      return done;
    },
    refund: async (req) => {
      const done = await real.refund(req);
      if (what === 'refund') throw new Error('the process died after the refund');
      return done;
    },
  };
  return { ...wallet, provider };
}

describe('a crash between the card movement and its record', () => {
  it('Start: the guest’s card was charged, then the process died; the job opens the session once', async () => {
    const { phone, token } = await guest.verifiedGuest();
    const q = await guest.quote(token, 'CRASH 1');
    await expect(
      startGuest(
        diesAfter('charge'),
        phone,
        { QuoteId: q.QuoteId, CardToken: await sandboxCardToken(app) },
        () => 'x',
        new Date(),
      ),
    ).rejects.toThrow('the process died after the charge');
    expect(await chargesOfQuote(q.QuoteId)).toMatchObject([
      { kind: 'quick-park-start', status: 'pending', amountCents: 250, memberId: null },
    ]);
    expect(await sessionsOfPhone(phone)).toEqual([]);
    // The quote stays claimed: the client's retry is told so, and charges nothing more.
    const retry = await guest.post('Start', { QuoteId: q.QuoteId, CardToken: await sandboxCardToken(app) }, token);
    expect(retry.statusCode).toBe(409);
    // Not before its grace period: the request may still be recording it.
    expect(await recoverCharges(app.wallet)).toBe(0);
    expect(await recoverCharges(app.wallet, 0)).toBe(1);
    expect(await recoverCharges(app.wallet, 0)).toBe(0);
    const [charge] = await chargesOfQuote(q.QuoteId);
    expect(charge).toMatchObject({ status: 'recorded' });
    const opened = await sessionsOfPhone(phone);
    expect(opened).toMatchObject([{ plate: 'CRASH 1', status: 'active', paidVia: 'Card', durationMinutes: 60 }]);
    // One charge, recorded once: the provider answered the job's retry with the first charge.
    expect(await paymentsOf(opened[0]!.id)).toMatchObject([{ chargeRef: charge!.chargeRef, amountCents: 250 }]);
    // The receipt reached the phone, with a link that opens the session.
    const sms = (await app.inject({ method: 'GET', url: `/api/Dev/Outbox?to=${phone}&limit=1` })).json<
      { Body: string }[]
    >()[0]!.Body;
    expect(sms).toContain('you paid $2.50 for CRASH 1');
    const link = /token=([^&\s]+)/.exec(sms)?.[1];
    const seen = await app.inject({
      method: 'GET',
      url: `/api/Parking/Guest/Session/${opened[0]!.id}`,
      headers: { 'x-guest-token': decodeURIComponent(link ?? '') },
    });
    expect(seen.statusCode, seen.body).toBe(200);
  });

  it('Start with Stripe: the typed card was charged and saved, then the process died; the job keeps its customer, and Extend charges it', async () => {
    const { phone, token } = await slow.verifiedGuest();
    const q = await slow.quote(token, 'CRASH 4');
    // A typed card as Stripe.js's createPaymentMethod gives it: a PaymentMethod of no customer.
    const made = await fetch(`${fake.url}/v1/payment_methods`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ type: 'card', 'card[token]': 'tok_visa' }),
    });
    const pm = ((await made.json()) as { id: string }).id;
    await expect(
      startGuest(
        diesAfter('charge', stripeApp.wallet),
        phone,
        { QuoteId: q.QuoteId, CardToken: pm },
        () => 'x',
        new Date(),
      ),
    ).rejects.toThrow('the process died after the charge');
    expect(await recoverCharges(stripeApp.wallet, 0)).toBe(1);
    const [charge] = await stripeDb.db.select().from(walletCharges).where(eq(walletCharges.quoteId, q.QuoteId));
    expect(charge).toMatchObject({ status: 'recorded', saveCard: true });
    expect(charge!.customerRef).toMatch(/^cus_/);
    // The job's retry was Stripe's replay of both calls: one customer, one charge.
    const customerCalls = fake.requests.filter((r) => r.idempotencyKey === `${charge!.providerKey}:customer`);
    expect(customerCalls).toHaveLength(2);
    const [opened] = await stripeDb.db.select().from(parkingSessions).where(eq(parkingSessions.guestPhone, phone));
    expect(opened).toMatchObject({ cardRef: pm, cardCustomerRef: charge!.customerRef });
    const eq2 = await slow.post('ExtendQuote', { SessionId: opened!.id, DurationMinutes: 15 }, token);
    expect(eq2.statusCode, eq2.body).toBe(200);
    const extended = await slow.post('Extend', { QuoteId: eq2.json<Quote>().QuoteId }, token);
    expect(extended.statusCode, extended.body).toBe(200);
    const last = fake.requests.filter((r) => r.path === '/v1/payment_intents').at(-1)!;
    expect(last.form.get('customer')).toBe(charge!.customerRef);
    expect(last.form.get('off_session')).toBe('true');
  });

  it('Stop: the refund was given back, then the process died; the job records it once', async () => {
    const { phone, token } = await guest.verifiedGuest();
    const q = await guest.quote(token, 'CRASH 2');
    const started = await guest.post('Start', { QuoteId: q.QuoteId, CardToken: await sandboxCardToken(app) }, token);
    expect(started.statusCode, started.body).toBe(201);
    const s = started.json<ParkingSession>();
    await expect(stopOwned(diesAfter('refund'), { guestPhone: phone }, s.SessionId, new Date())).rejects.toThrow(
      'the process died after the refund',
    );
    // The stop is written, and its refund counted on the charge, pending.
    const [ended] = await sessionsOfPhone(phone);
    expect(ended).toMatchObject({ status: 'ended', refundedCents: 246 });
    expect(await paymentsOf(s.SessionId)).toMatchObject([{ amountCents: 250, refundedCents: 246 }]);
    expect(await refundsOf(s.SessionId)).toMatchObject([{ status: 'pending', amountCents: 246 }]);
    // A second Stop is told the session has ended: nothing is refunded twice.
    expect((await guest.post('Stop', { SessionId: s.SessionId }, token)).statusCode).toBe(409);
    expect(await recoverCharges(app.wallet)).toBe(0);
    expect(await recoverCharges(app.wallet, 0)).toBe(1);
    expect(await recoverCharges(app.wallet, 0)).toBe(0);
    const [refund] = await refundsOf(s.SessionId);
    expect(refund).toMatchObject({ status: 'recorded', amountCents: 246 });
    expect(refund!.chargeRef).toMatch(/^re_sandbox_/);
    expect(await paymentsOf(s.SessionId)).toMatchObject([{ refundedCents: 246 }]);
    await nothingPending();
  });

  it('Stop with the provider unreachable: answered 503, the session runs on, nothing is left pending', async () => {
    const { phone, token } = await guest.verifiedGuest();
    const q = await guest.quote(token, 'DOWN 1');
    const s = (
      await guest.post('Start', { QuoteId: q.QuoteId, CardToken: await sandboxCardToken(app) }, token)
    ).json<ParkingSession>();
    const down: ChargeContext = {
      ...app.wallet,
      provider: {
        ...app.wallet.provider,
        refund: async () => ({ ok: false, reason: 'unavailable', message: 'down' }),
      },
    };
    await expect(stopOwned(down, { guestPhone: phone }, s.SessionId, new Date())).rejects.toMatchObject({
      statusCode: 503,
    });
    expect(await sessionsOfPhone(phone)).toMatchObject([{ status: 'active', refundedCents: 0, durationMinutes: 60 }]);
    expect(await paymentsOf(s.SessionId)).toMatchObject([{ refundedCents: 0 }]);
    expect(await refundsOf(s.SessionId)).toEqual([]);
    // And it stops once the provider is back.
    const stopped = await guest.post('Stop', { SessionId: s.SessionId }, token);
    expect(stopped.statusCode, stopped.body).toBe(200);
    expect(stopped.json()).toMatchObject({ RefundAmount: 2.46, Status: 'Ended' });
  });
});

describe('the same guest Pay sent several times at once', () => {
  it('one quote, ×8 with the same and with different Idempotency-Keys: one charge, one session', async () => {
    const { phone, token } = await guest.verifiedGuest();
    const q = await guest.quote(token, 'SAME 1');
    const card = await sandboxCardToken(app);
    const same = randomUUID();
    const results = await concurrently(8, (i) =>
      guest.post('Start', { QuoteId: q.QuoteId, CardToken: card }, token, {
        'idempotency-key': i % 2 === 0 ? same : randomUUID(),
      }),
    );
    expectJsonNo5xx(results);
    // The requests of one key answer alike (a retried Pay gets the first Pay's session): all four
    // that session when their key won, all four refused when another key did. One charge either way.
    const sameKey = results.filter((_, i) => i % 2 === 0).map((r) => r.statusCode);
    expect(new Set(sameKey).size).toBe(1);
    expect(statusCounts(results)).toEqual(sameKey[0] === 201 ? { 201: 4, 409: 4 } : { 201: 1, 409: 7 });
    const created = results.filter((r) => r.statusCode === 201).map((r) => r.json<{ SessionId: number }>().SessionId);
    expect(new Set(created).size).toBe(1);
    expect(await chargesOfQuote(q.QuoteId)).toMatchObject([{ status: 'recorded', amountCents: 250 }]);
    const opened = await sessionsOfPhone(phone);
    expect(opened).toHaveLength(1);
    expect(await paymentsOf(opened[0]!.id)).toHaveLength(1);
  });

  it('one plate, four quotes paid at once: one charge, one session, the others told the plate is parked', async () => {
    const { phone, token } = await guest.verifiedGuest();
    const quotes: Quote[] = [];
    for (let i = 0; i < 4; i++) quotes.push(await guest.quote(token, 'SAME 2'));
    const card = await sandboxCardToken(app);
    const results = await concurrently(4, (i) =>
      guest.post('Start', { QuoteId: quotes[i]!.QuoteId, CardToken: card }, token, { 'idempotency-key': randomUUID() }),
    );
    expectJsonNo5xx(results);
    expect(statusCounts(results)).toEqual({ 201: 1, 409: 3 });
    const charged = await db
      .select()
      .from(walletCharges)
      .innerJoin(parkingQuotes, eq(parkingQuotes.id, walletCharges.quoteId))
      .where(eq(parkingQuotes.guestPhone, phone));
    expect(charged.map((c) => c.wallet_charges.status)).toEqual(['recorded']);
    expect(await sessionsOfPhone(phone)).toHaveLength(1);
    // The refused claims were rolled back: only the paid quote is spent.
    expect(
      (await db.select().from(parkingQuotes).where(eq(parkingQuotes.guestPhone, phone))).filter((r) => r.usedAt),
    ).toHaveLength(1);
  });

  it('Extend ×6 of one session with three quotes: one extension, one charge', async () => {
    const { phone, token } = await guest.verifiedGuest();
    const q = await guest.quote(token, 'SAME 3');
    const s = (
      await guest.post('Start', { QuoteId: q.QuoteId, CardToken: await sandboxCardToken(app) }, token)
    ).json<ParkingSession>();
    const extendQuotes: string[] = [];
    for (let i = 0; i < 3; i++) {
      const eq = await guest.post('ExtendQuote', { SessionId: s.SessionId, DurationMinutes: 15 }, token);
      expect(eq.statusCode, eq.body).toBe(200);
      extendQuotes.push(eq.json<Quote>().QuoteId);
    }
    const results = await concurrently(6, (i) =>
      guest.post('Extend', { QuoteId: extendQuotes[i % 3] }, token, { 'idempotency-key': randomUUID() }),
    );
    expectJsonNo5xx(results);
    expect(statusCounts(results)).toEqual({ 200: 1, 409: 5 });
    const paid = results.find((r) => r.statusCode === 200)!.json<ParkingSession>();
    expect(paid.DurationMinutes).toBe(75);
    expect((await paymentsOf(s.SessionId)).map((p) => p.amountCents)).toHaveLength(2);
    expect(await sessionsOfPhone(phone)).toMatchObject([{ durationMinutes: 75 }]);
    await nothingPending();
  });
});

/**
 * The answer, if it comes within 10 s: well before the stripe provider gives up on a held request
 * (its 20 s timeout, then a retry that is answered), which would otherwise free a held-up request
 * and hide the wait.
 */
async function promptly<T>(answer: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), 10_000)));
  const first = await Promise.race([answer, late]);
  clearTimeout(timer);
  if (first === 'late') throw new Error('no answer within 10 s: held up by the slow provider');
  return first;
}

describe('a slow provider', () => {
  it('holds up no other request while it charges a guest’s card or refunds it', async () => {
    // PGlite is one connection: a transaction left open across the provider's call would hold up
    // every other transaction (another guest's Start and Stop here) until the provider answered.
    const a = await slow.verifiedGuest();
    const b = await slow.verifiedGuest();
    const qa = await slow.quote(a.token, 'SLOW 1');
    const qb = await slow.quote(b.token, 'SLOW 2');
    const charging = fake.hold('/v1/payment_intents');
    const startA = slow.post('Start', { QuoteId: qa.QuoteId, CardToken: 'pm_card_visa' }, a.token);
    await charging.arrived;
    // A's card is being charged: B parks meanwhile.
    const startB = await promptly(slow.post('Start', { QuoteId: qb.QuoteId, CardToken: 'pm_card_visa' }, b.token));
    expect(startB.statusCode, startB.body).toBe(201);
    charging.release();
    const started = await startA;
    expect(started.statusCode, started.body).toBe(201);

    const refunding = fake.hold('/v1/refunds');
    const stopA = slow.post('Stop', { SessionId: started.json<ParkingSession>().SessionId }, a.token);
    await refunding.arrived;
    // A's refund is being given back: B stops meanwhile.
    const stopB = await promptly(slow.post('Stop', { SessionId: startB.json<ParkingSession>().SessionId }, b.token));
    expect(stopB.statusCode, stopB.body).toBe(200);
    refunding.release();
    const stopped = await stopA;
    expect(stopped.statusCode, stopped.body).toBe(200);
    expect(stopped.json()).toMatchObject({ Status: 'Ended', RefundAmount: 2.46 });
  });
});
