import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { AccountDetails, CurrentSubscription } from '@parkit/contract';
import { ledgerEntries, subscriptions } from '../../src/db/schema/index.ts';
import { convenienceFeeCents, zoneDiscountPercent } from '../../src/wallet/plans.ts';
import { runSubscriptionJobs } from '../../src/wallet/subscriptions.ts';
import { as, buildTestApp, registerAndSignIn, type SignedIn } from '../helpers.ts';
import { addCard, CARDS, walletContext } from './helpers.ts';

const { app, database } = await buildTestApp({ ADDRESS_RATE_LIMIT_SCALE: 1000 });
const db = database.db;
const wallet = walletContext(db);

const DELUXE = 2;
const subscribe = (who: SignedIn, payload: unknown, key: string | null = randomUUID()) =>
  as(app, who, {
    method: 'POST',
    url: '/api/Subscription/Subscribe',
    payload: payload as object,
    headers: key === null ? {} : { 'idempotency-key': key },
  });
const current = async (who: SignedIn) =>
  CurrentSubscription.parse((await as(app, who, { method: 'GET', url: '/api/Subscription/Current' })).json());
const entries = (memberId: number) => db.select().from(ledgerEntries).where(eq(ledgerEntries.memberId, memberId));

describe('plans', () => {
  it('lists Basic and Deluxe from the database, publicly', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/Subscription/Plans' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      { PlanId: 1, Code: 'basic', Name: 'Basic', Price: 0, ConvenienceFee: 0.35, ZoneDiscountPercent: 0 },
      { PlanId: 2, Code: 'deluxe', Name: 'Deluxe', Price: 4.99, ConvenienceFee: 0, ZoneDiscountPercent: 10 },
    ]);
  });

  it('a new member is on Basic: fee 35 cents for parking', async () => {
    const a = await registerAndSignIn(app);
    expect(await current(a)).toMatchObject({ Plan: { Code: 'basic' }, SubscriptionId: null, CancelAtPeriodEnd: false });
    expect(await convenienceFeeCents(db, a.memberId)).toBe(35);
  });
});

describe('POST /api/Subscription/Subscribe', () => {
  it('charges Deluxe to the default card once and changes the fee', async () => {
    const a = await registerAndSignIn(app);
    await addCard(app, a);
    const res = await subscribe(a, { PlanId: DELUXE });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ Plan: { Code: 'deluxe', Price: 4.99 }, CancelAtPeriodEnd: false });
    expect(await convenienceFeeCents(db, a.memberId)).toBe(0);
    expect(await zoneDiscountPercent(db, a.memberId)).toBe(10);
    const rows = await entries(a.memberId);
    expect(rows.map((r) => [r.kind, r.amountCents])).toEqual([
      ['top-up', 499],
      ['plan', -499],
    ]);
    const details = AccountDetails.parse((await as(app, a, { method: 'GET', url: '/api/Account/Details' })).json());
    expect(details.Plan).toMatchObject({ Code: 'deluxe', Name: 'Deluxe' });
    expect(details.Balance).toBe(0);
  });

  it('20 concurrent requests with one key subscribe and charge once', async () => {
    const a = await registerAndSignIn(app);
    await addCard(app, a);
    const key = randomUUID();
    const all = await Promise.all(Array.from({ length: 20 }, () => subscribe(a, { PlanId: DELUXE }, key)));
    expect(all.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    expect(await db.select().from(subscriptions).where(eq(subscriptions.memberId, a.memberId))).toHaveLength(1);
    expect(await entries(a.memberId)).toHaveLength(2);
  });

  it('a second subscription with another key is a 409; the same key with another plan is a 422', async () => {
    const a = await registerAndSignIn(app);
    await addCard(app, a);
    const key = randomUUID();
    await subscribe(a, { PlanId: DELUXE }, key);
    expect((await subscribe(a, { PlanId: DELUXE })).statusCode).toBe(409);
    expect((await subscribe(a, { PlanId: 1 }, key)).statusCode).toBe(422);
    expect(await entries(a.memberId)).toHaveLength(2);
  });

  it.each<[string, unknown, number]>([
    ['no plan', {}, 400],
    ['a text plan', { PlanId: 'deluxe' }, 400],
    ['an unknown plan', { PlanId: 999 }, 400],
    ['a negative plan', { PlanId: -2 }, 400],
    ['the free plan', { PlanId: 1 }, 400],
  ])('refuses %s and charges nothing', async (_what, payload, status) => {
    const a = await registerAndSignIn(app);
    await addCard(app, a);
    expect((await subscribe(a, payload)).statusCode).toBe(status);
    expect(await entries(a.memberId)).toHaveLength(0);
  });

  it('needs an Idempotency-Key and a card; a declined card subscribes nothing', async () => {
    const a = await registerAndSignIn(app);
    expect((await subscribe(a, { PlanId: DELUXE }, null)).statusCode).toBe(400);
    expect((await subscribe(a, { PlanId: DELUXE })).json()).toMatchObject({ message: 'Add a payment card first' });
    await addCard(app, a, CARDS.declined);
    const res = await subscribe(a, { PlanId: DELUXE });
    expect(res.statusCode).toBe(402);
    expect(res.json()).toMatchObject({ message: 'Your card was declined.' });
    expect((await current(a)).Plan.Code).toBe('basic');
  });
});

describe('renewal and cancel jobs', () => {
  const expire = (memberId: number) =>
    db.execute(
      sql`update subscriptions set current_period_end = now() - interval '1 minute' where member_id = ${memberId} and status = 'active'`,
    );

  it('renews for a month at period end, charging once', async () => {
    const a = await registerAndSignIn(app);
    await addCard(app, a);
    await subscribe(a, { PlanId: DELUXE });
    await expire(a.memberId);
    await Promise.all([runSubscriptionJobs(wallet), runSubscriptionJobs(wallet)]);
    const c = await current(a);
    expect(c.Plan.Code).toBe('deluxe');
    expect(new Date(c.CurrentPeriodEnd!).getTime()).toBeGreaterThan(Date.now() + 20 * 86_400_000);
    expect((await entries(a.memberId)).filter((e) => e.kind === 'plan')).toHaveLength(2);
  });

  it('cancel keeps the plan to the period end, then the member is on Basic', async () => {
    const a = await registerAndSignIn(app);
    await addCard(app, a);
    await subscribe(a, { PlanId: DELUXE });
    const cancel = await as(app, a, { method: 'POST', url: '/api/Subscription/Cancel' });
    expect(cancel.json()).toMatchObject({ Plan: { Code: 'deluxe' }, CancelAtPeriodEnd: true });
    await expire(a.memberId);
    await runSubscriptionJobs(wallet);
    expect((await current(a)).Plan.Code).toBe('basic');
    expect(await convenienceFeeCents(db, a.memberId)).toBe(35);
    expect((await entries(a.memberId)).filter((e) => e.kind === 'plan')).toHaveLength(1);
  });

  it('Cancel without a paid plan is a 400', async () => {
    const a = await registerAndSignIn(app);
    expect((await as(app, a, { method: 'POST', url: '/api/Subscription/Cancel' })).statusCode).toBe(400);
  });
});
