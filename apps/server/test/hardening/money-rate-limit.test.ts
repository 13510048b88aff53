import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { MESSAGES } from '@parkit/contract';
import { DEFAULT_MONEY_RATE_LIMIT, DEFAULT_RATE_LIMIT } from '../../src/plugins/rate-limit.ts';
import { as, buildTestApp, registerAndSignIn } from '../helpers.ts';
import { concurrently, count, statusCounts } from '../concurrency.ts';
import { addCard, addMoney, ledgerMatchesBalance } from '../wallet/helpers.ts';
import { staffMember } from '../operator-helpers.ts';
import { defaultOperatorId } from '../../src/zones/index.ts';

// Money routes are limited more strictly than the rest (MONEY_RATE_LIMIT, 20 a
// minute per member on each route), with production's limits here.
const { app, database } = await buildTestApp();
const { db } = database;
const MONEY = DEFAULT_MONEY_RATE_LIMIT.max;

/** Every route that charges, credits or stores a card. */
const MONEY_ROUTES = [
  '/api/Wallet/AddMoney',
  '/api/Subscription/Subscribe',
  '/api/PaymentMethods/Add',
  '/api/Parking/Start',
  '/api/Parking/Extend',
  '/api/Parking/Amend',
  '/api/Parking/Guest/Start',
  '/api/Parking/Guest/Extend',
  '/api/Account/Delete',
  '/api/Citations/1/Pay',
  '/api/Permits/1/Pay',
];

beforeEach(async () => {
  await db.execute(sql`DELETE FROM rate_limits`);
});

describe('money routes: a stricter rate limit', () => {
  it('every money route carries the money limit, other routes the general one', async () => {
    const who = await registerAndSignIn(app);
    for (const url of MONEY_ROUTES) {
      const res = await as(app, who, { method: 'POST', url, payload: {} });
      expect(res.statusCode, url).toBeLessThan(500);
      expect(res.headers['ratelimit-limit'], url).toBe(String(MONEY));
    }
    // The console's refund (a manager's: a driver is refused by the console's scope).
    const manager = await staffMember(app, db, await defaultOperatorId(db), 'manager');
    const refund = await as(app, manager, {
      method: 'POST',
      url: `/api/Operator/${await defaultOperatorId(db)}/Sessions/1/Refund`,
      payload: {},
    });
    expect(refund.statusCode).toBeLessThan(500);
    expect(refund.headers['ratelimit-limit']).toBe(String(MONEY));
    // A contest's decision may refund a paid citation.
    const decide = await as(app, manager, {
      method: 'POST',
      url: `/api/Operator/${await defaultOperatorId(db)}/Citations/1/Decide`,
      payload: {},
    });
    expect(decide.statusCode).toBeLessThan(500);
    expect(decide.headers['ratelimit-limit']).toBe(String(MONEY));
    const stop = await as(app, who, { method: 'POST', url: '/api/Parking/Stop', payload: {} });
    expect(stop.headers['ratelimit-limit']).toBe(String(DEFAULT_RATE_LIMIT.max));
  });

  it('a burst of top-ups from one member trips the money limit long before the general one, and a refused one charges nothing', async () => {
    const who = await registerAndSignIn(app);
    await addCard(app, who, undefined, true);
    await db.execute(sql`DELETE FROM rate_limits`);
    const results = await concurrently(MONEY + 5, () => addMoney(app, who, { Amount: '5.00' }));
    expect(statusCounts(results)).toEqual({ 200: MONEY, 429: 5 });
    for (const refused of results.filter((r) => r.statusCode === 429)) {
      expect(refused.json()).toEqual({ message: MESSAGES.tooManyAttempts });
      expect(refused.headers['ratelimit-limit']).toBe(String(MONEY));
      expect(refused.headers['ratelimit-remaining']).toBe('0');
      expect(Number(refused.headers['ratelimit-reset'])).toBeGreaterThan(0);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    }
    // Only the answered top-ups moved money: MONEY credits of 5.00, the ledger equal to the balance.
    expect(
      await count(
        db,
        sql`SELECT count(*) AS n FROM ledger_entries WHERE member_id = ${who.memberId} AND amount_cents > 0`,
      ),
    ).toBe(MONEY);
    expect(await count(db, sql`SELECT balance_cents AS n FROM members WHERE id = ${who.memberId}`)).toBe(MONEY * 500);
    expect(await ledgerMatchesBalance(db, who.memberId)).toBe(true);
    // The general limit is far from reached: the rest of the API still answers. (From an address
    // of its own: the counts live in each process's memory, which DELETE FROM rate_limits does not
    // reset, and this file's other requests from 127.0.0.1 would count too.)
    const other = await as(app, who, { method: 'GET', url: '/api/Account/Details', remoteAddress: '10.8.8.8' });
    expect(other.statusCode).toBe(200);
    expect(Number(other.headers['ratelimit-remaining'])).toBe(DEFAULT_RATE_LIMIT.max - 1);
  });

  it('a test app may raise the money limit (MONEY_RATE_LIMIT), as the wallet tests do', async () => {
    const { app: relaxed } = await buildTestApp({ MONEY_RATE_LIMIT: 1000 });
    const who = await registerAndSignIn(relaxed);
    const res = await as(relaxed, who, { method: 'POST', url: '/api/Wallet/AddMoney', payload: {} });
    expect(res.headers['ratelimit-limit']).toBe('1000');
  });
});
