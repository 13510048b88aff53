import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@parkit/contract';
import { BACKOFF } from '../../src/auth/login-limits.ts';
import { buildTestApp, lastCode, newMember, tokenPost } from '../helpers.ts';
import { concurrently, count, statusCounts } from '../concurrency.ts';

// A burst of sign-ins of one account from devices it has not signed in on (the http bench at 8
// connections, a family sharing an account): checks under way used to count as failures, so the
// sixth concurrent right password locked the account and the rest got 429. Races show on
// PostgreSQL: npx vitest run --project server-pg test/hardening/sign-in-burst.test.ts
const { app, database } = await buildTestApp();
const { db } = database;
const BURST = 16;

async function verified() {
  const m = newMember();
  expect((await app.inject({ method: 'POST', url: '/api/Account/Register', payload: m })).statusCode).toBe(201);
  expect(
    (await tokenPost(app, { grant_type: 'otp', phone: m.PhoneNumber, code: await lastCode(app, m.PhoneNumber) }))
      .statusCode,
  ).toBe(200);
  return m;
}
const signIn = (username: string, password: string, remoteAddress: string) =>
  app.inject({
    method: 'POST',
    url: '/token',
    remoteAddress,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ grant_type: 'password', username, password }).toString(),
  });
const underWay = () => count(db, sql`SELECT coalesce(sum(pending), 0) AS n FROM auth_failures`);

describe('concurrent sign-ins of one account from unknown devices', () => {
  it(`${BURST} right passwords at once all sign in, from one address or many`, async () => {
    const m = await verified();
    expect(statusCounts(await concurrently(BURST, () => signIn(m.UserName, m.Password, '10.6.0.1')))).toEqual({
      200: BURST,
    });
    expect(statusCounts(await concurrently(BURST, (i) => signIn(m.EmailAddress, m.Password, `10.6.1.${i}`)))).toEqual({
      200: BURST,
    });
    expect(await underWay()).toBe(0);
  });

  it(`${BURST} wrong passwords at once: at most the free failures plus one are checked, then the account is locked for strangers`, async () => {
    const m = await verified();
    const results = await concurrently(BURST, (i) => signIn(m.UserName, `wrong guess ${i}`, `10.6.2.${i}`));
    const counts = statusCounts(results);
    expect(counts[400]).toBeLessThanOrEqual(BACKOFF.account.free + 1);
    expect(counts[400]! + counts[429]!).toBe(BURST);
    expect(results.find((r) => r.statusCode === 429)!.json()).toEqual({ message: MESSAGES.tooManyAttempts });
    // The right password from another unknown device is refused while the lock lasts.
    expect((await signIn(m.UserName, m.Password, '10.6.3.1')).statusCode).toBe(429);
    expect(await underWay()).toBe(0);
  });

  it('wrong and right passwords mixed in one burst: the right ones are never told the password is wrong', async () => {
    const m = await verified();
    const results = await concurrently(BURST, (i) =>
      signIn(m.UserName, i % 4 === 0 ? 'wrong password' : m.Password, `10.6.4.${i}`),
    );
    for (const [i, r] of results.entries()) {
      if (i % 4 === 0) expect([400, 429], r.body).toContain(r.statusCode);
      else expect([200, 429], r.body).toContain(r.statusCode);
    }
    expect(await underWay()).toBe(0);
  });
});
