// Express payments (Apple Pay, Google Pay; the sandbox's test wallet) for Add Money and Subscribe: a
// one-time card charged through the same charge path as a saved card (Idempotency-Key, the ledger),
// never saved.
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { WALLET_MESSAGES } from '@parkit/contract';
import { paymentMethods, subscriptions, walletCharges } from '../../src/db/schema/index.ts';
import { runSubscriptionJobs } from '../../src/wallet/subscriptions.ts';
import { concurrently, expectJsonNo5xx } from '../concurrency.ts';
import { as, buildTestApp, expectRefused, MANY_REQUESTS, registerAndSignIn, type SignedIn } from '../helpers.ts';
import { walletState } from '../parking-helpers.ts';
import { addCard, addMoney, CARDS, walletContext } from './helpers.ts';

const { app, database } = await buildTestApp(MANY_REQUESTS);
const db = database.db;

/** What the web's test wallet button does: the sandbox tokenizes a test card for one payment. */
async function expressToken(number: string = CARDS.ok): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/Sandbox/Tokens',
    payload: { Number: number, ExpMonth: 12, ExpYear: new Date().getFullYear() + 2, Cvc: '123' },
  });
  expect(res.statusCode).toBe(201);
  return res.json<{ Token: string }>().Token;
}

describe('Add Money with an express payment', () => {
  it('credits the wallet once per Idempotency-Key without a saved card, and saves none', async () => {
    const m = await registerAndSignIn(app);
    const token = await expressToken();
    const key = randomUUID();
    const results = await concurrently(3, () => addMoney(app, m, { Amount: 12.5, ExpressToken: token }, key));
    expectJsonNo5xx(results);
    for (const r of results) expect(r.statusCode, r.body).toBe(200);
    expect(new Set(results.map((r) => r.json<{ TransactionId: number }>().TransactionId)).size).toBe(1);
    const w = await walletState(db, m.memberId);
    expect(w).toMatchObject({ balance: 1250, ledger: 1250 });
    expect(w.entries).toEqual([{ kind: 'top-up', amount: 1250 }]);
    expect(await db.select().from(paymentMethods).where(eq(paymentMethods.memberId, m.memberId))).toEqual([]);
    const charges = await db.select().from(walletCharges).where(eq(walletCharges.memberId, m.memberId));
    expect(charges.map((c) => [c.status, c.amountCents, c.customerRef])).toEqual([['recorded', 1250, null]]);
  });

  it('a declined express card credits nothing and says why', async () => {
    const m = await registerAndSignIn(app);
    const res = await addMoney(app, m, { Amount: 10, ExpressToken: await expressToken(CARDS.declined) });
    expectRefused(res, 402, undefined, WALLET_MESSAGES.declined);
    expect(await walletState(db, m.memberId)).toMatchObject({ balance: 0, ledger: 0 });
  });

  it('refuses a forged token, and a saved card and an express payment together', async () => {
    const m = await registerAndSignIn(app);
    const card = await addCard(app, m);
    expectRefused(await addMoney(app, m, { Amount: 10, ExpressToken: 'tok_sandbox_x.y' }), 400, 'ExpressToken');
    expectRefused(
      await addMoney(app, m, { Amount: 10, ExpressToken: await expressToken(), PaymentMethodId: card }),
      400,
      'ExpressToken',
      WALLET_MESSAGES.expressAndCard,
    );
    expect(await walletState(db, m.memberId)).toMatchObject({ balance: 0, ledger: 0 });
  });
});

const DELUXE = 2;
const subscribe = (who: SignedIn, payload: object, key: string = randomUUID()) =>
  as(app, who, { method: 'POST', url: '/api/Subscription/Subscribe', payload, headers: { 'idempotency-key': key } });
const subscriptionsOf = (memberId: number) =>
  db
    .select({ status: subscriptions.status, planId: subscriptions.planId })
    .from(subscriptions)
    .where(eq(subscriptions.memberId, memberId));

describe('Subscribe with an express payment', () => {
  it('charges the first month once per Idempotency-Key without a saved card, and saves none', async () => {
    const m = await registerAndSignIn(app);
    const token = await expressToken();
    const key = randomUUID();
    const results = await concurrently(3, () => subscribe(m, { PlanId: DELUXE, ExpressToken: token }, key));
    expectJsonNo5xx(results);
    for (const r of results) expect(r.statusCode, r.body).toBe(200);
    expect(results[0]!.json()).toMatchObject({ Plan: { Code: 'deluxe' }, CancelAtPeriodEnd: false });
    expect(await subscriptionsOf(m.memberId)).toEqual([{ status: 'active', planId: DELUXE }]);
    // The card's payment credited and the plan bought from the wallet beside it: balance unchanged.
    const w = await walletState(db, m.memberId);
    expect(w).toMatchObject({ balance: 0, ledger: 0 });
    expect(w.entries).toEqual([
      { kind: 'top-up', amount: 499 },
      { kind: 'plan', amount: -499 },
    ]);
    expect(await db.select().from(paymentMethods).where(eq(paymentMethods.memberId, m.memberId))).toEqual([]);
    const charges = await db.select().from(walletCharges).where(eq(walletCharges.memberId, m.memberId));
    expect(charges.map((c) => [c.status, c.amountCents, c.customerRef])).toEqual([['recorded', 499, null]]);
  });

  it('three Subscribes with their own keys at once charge the express card once', async () => {
    const m = await registerAndSignIn(app);
    const token = await expressToken();
    const results = await concurrently(3, () => subscribe(m, { PlanId: DELUXE, ExpressToken: token }));
    expectJsonNo5xx(results);
    expect(results.filter((r) => r.statusCode === 200).length, results.map((r) => r.body).join()).toBeGreaterThan(0);
    for (const r of results) expect([200, 409]).toContain(r.statusCode);
    expect(await subscriptionsOf(m.memberId)).toEqual([{ status: 'active', planId: DELUXE }]);
    const charges = await db.select().from(walletCharges).where(eq(walletCharges.memberId, m.memberId));
    expect(charges.filter((c) => c.status === 'recorded').map((c) => c.amountCents)).toEqual([499]);
    expect(await walletState(db, m.memberId)).toMatchObject({ balance: 0, ledger: 0 });
  });

  it('a declined, forged or doubled payment subscribes nothing and says why', async () => {
    const m = await registerAndSignIn(app);
    // A saved card too: the express one is what is charged, and declined.
    await addCard(app, m);
    expectRefused(
      await subscribe(m, { PlanId: DELUXE, ExpressToken: await expressToken(CARDS.declined) }),
      402,
      undefined,
      WALLET_MESSAGES.declined,
    );
    expectRefused(await subscribe(m, { PlanId: DELUXE, ExpressToken: 'tok_sandbox_x.y' }), 400, 'ExpressToken');
    expectRefused(await subscribe(m, { PlanId: DELUXE, ExpressToken: '' }), 400, 'ExpressToken');
    expectRefused(await subscribe(m, { PlanId: DELUXE, ExpressToken: 'x'.repeat(1001) }), 400, 'ExpressToken');
    expect(await subscriptionsOf(m.memberId)).toEqual([]);
    expect(await walletState(db, m.memberId)).toMatchObject({ balance: 0, ledger: 0 });
  });

  it('renews from the default card; with none saved, the plan ends at its period end', async () => {
    const saved = await registerAndSignIn(app);
    const none = await registerAndSignIn(app);
    await addCard(app, saved);
    for (const m of [saved, none])
      expect((await subscribe(m, { PlanId: DELUXE, ExpressToken: await expressToken() })).statusCode).toBe(200);
    await db.execute(
      sql`update subscriptions set current_period_end = now() - interval '1 minute' where member_id in (${saved.memberId}, ${none.memberId})`,
    );
    await runSubscriptionJobs(walletContext(db));
    expect(await subscriptionsOf(saved.memberId)).toEqual([{ status: 'active', planId: DELUXE }]);
    expect(await subscriptionsOf(none.memberId)).toEqual([{ status: 'ended', planId: DELUXE }]);
    for (const m of [saved, none]) {
      const w = await walletState(db, m.memberId);
      expect(w.balance).toBe(w.ledger);
    }
    expect((await walletState(db, saved.memberId)).entries.filter((e) => e.kind === 'plan')).toHaveLength(2);
    expect((await walletState(db, none.memberId)).entries.filter((e) => e.kind === 'plan')).toHaveLength(1);
  });
});
