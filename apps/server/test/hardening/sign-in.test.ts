import { randomBytes, scryptSync } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@parkit/contract';
import { queryRows } from '../../src/db/client.ts';
import {
  as,
  buildTestApp,
  freshLimitsEachTest,
  lastCode,
  newMember,
  registerAndSignIn,
  tokenPost,
} from '../helpers.ts';

// Lockout that a stranger cannot turn on the owner, the password
// hash, and accounts whose phone was never proven.
const { app, database } = await buildTestApp();
const { db } = database;

freshLimitsEachTest(database);

type Member = ReturnType<typeof newMember>;
const register = (m: Member) => app.inject({ method: 'POST', url: '/api/Account/Register', payload: m });
async function verified(): Promise<Member> {
  const m = newMember();
  expect((await register(m)).statusCode).toBe(201);
  expect(
    (await tokenPost(app, { grant_type: 'otp', phone: m.PhoneNumber, code: await lastCode(app, m.PhoneNumber) }))
      .statusCode,
  ).toBe(200);
  return m;
}
const signIn = (username: string, password: string, remoteAddress: string, cookies: Record<string, string> = {}) =>
  app.inject({
    method: 'POST',
    url: '/token',
    remoteAddress,
    cookies,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ grant_type: 'password', username, password }).toString(),
  });

describe('item 8: lockout with back-off, per account and per address, never against the owner’s device', () => {
  it('a stranger’s eleven wrong passwords do not lock the owner out on a device it signed in on', async () => {
    const m = await verified();
    const first = await signIn(m.UserName, m.Password, '10.8.0.1');
    expect(first.statusCode).toBe(200);
    const device = first.cookies.find((c) => c.name === 'parkit_dev');
    expect(device).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/token' });
    for (let i = 0; i < 11; i++) await signIn(m.UserName, `stranger guess ${i}`, `10.8.1.${i}`);
    // The stranger is locked out …
    expect((await signIn(m.UserName, m.Password, '10.8.2.1')).statusCode).toBe(429);
    // … the owner on the known device is not.
    expect((await signIn(m.UserName, m.Password, '10.8.0.1', { parkit_dev: device!.value })).statusCode).toBe(200);
    // A forged or another member's device cookie counts for nothing.
    expect(
      (await signIn(m.UserName, m.Password, '10.8.0.1', { parkit_dev: `${device!.value.slice(0, -2)}xx` })).statusCode,
    ).toBe(429);
  });

  it('doubles the wait with each failure past the free ones, and forgets after a quiet window', async () => {
    const m = await verified();
    const waits: number[] = [];
    for (let i = 0; i < 6; i++) expect((await signIn(m.UserName, 'wrong', `10.8.3.${i}`)).statusCode).toBe(400);
    for (let round = 0; round < 3; round++) {
      const locked = await signIn(m.UserName, 'wrong', '10.8.4.1');
      expect(locked.statusCode).toBe(429);
      waits.push(Number(locked.headers['retry-after']));
      // The lock runs out; the next failure locks twice as long.
      await db.execute(
        sql`UPDATE auth_failures SET locked_until = now() - interval '1 second' WHERE bucket = 'login:account'`,
      );
      expect((await signIn(m.UserName, 'wrong', '10.8.4.1')).statusCode).toBe(400);
    }
    expect(waits[0]).toBeGreaterThan(20);
    expect(waits[0]).toBeLessThanOrEqual(30);
    expect(waits[1]).toBeGreaterThan(50);
    expect(waits[2]).toBeGreaterThan(110);
    // Sliding window: 15 quiet minutes after the last failure and the count starts over.
    await db.execute(
      sql`UPDATE auth_failures SET locked_until = NULL, last_failure_at = now() - interval '16 minutes'`,
    );
    for (let i = 0; i < 5; i++) expect((await signIn(m.UserName, 'wrong', '10.8.5.1')).statusCode).toBe(400);
    expect((await signIn(m.UserName, m.Password, '10.8.5.1')).statusCode).toBe(200);
  });
  // Per address: test/routes/token.test.ts 'limits failed sign-ins per address across accounts'.
});

describe('item 11: argon2id, re-hash on sign-in, common passwords refused', () => {
  it('re-hashes an old scrypt hash with argon2id when the member signs in', async () => {
    const m = await verified();
    const salt = randomBytes(16);
    const old = `scrypt$16384$8$1$${salt.toString('base64url')}$${scryptSync(m.Password, salt, 32, { N: 16384, r: 8, p: 1 }).toString('base64url')}`;
    await db.execute(sql`UPDATE members SET password_hash = ${old} WHERE phone = ${m.PhoneNumber}`);
    expect((await signIn(m.UserName, m.Password, '10.11.0.1')).statusCode).toBe(200);
    const [row] = await queryRows<{ password_hash: string }>(
      db,
      sql`SELECT password_hash FROM members WHERE phone = ${m.PhoneNumber}`,
    );
    expect(row!.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect((await signIn(m.UserName, m.Password, '10.11.0.1')).statusCode).toBe(200);
  });

  it.each(['password1', 'iloveyou1', 'Baseball1'])(
    'refuses the common password %s at registration',
    async (Password) => {
      const res = await register(newMember({ Password }));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        message: MESSAGES.passwordCommon,
        errors: [{ field: 'Password', message: MESSAGES.passwordCommon }],
      });
    },
  );

  it('refuses a common password as a new password, and keeps the old one', async () => {
    const who = await registerAndSignIn(app);
    const [before] = await queryRows<{ password_hash: string }>(
      db,
      sql`SELECT password_hash FROM members WHERE id = ${who.memberId}`,
    );
    const res = await as(app, who, {
      method: 'POST',
      url: '/api/Account/ResetPassword',
      payload: { NewPassword: 'Password1' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      message: MESSAGES.passwordCommon,
      errors: [{ field: 'NewPassword', message: MESSAGES.passwordCommon }],
    });
    const [after] = await queryRows<{ password_hash: string }>(
      db,
      sql`SELECT password_hash FROM members WHERE id = ${who.memberId}`,
    );
    expect(after!.password_hash).toBe(before!.password_hash);
  });
});

describe('item 12: an unverified account cannot sign in and does not hold its phone, username or e-mail', () => {
  it('refuses a password sign-in until the phone is verified with the code', async () => {
    const m = newMember();
    expect((await register(m)).statusCode).toBe(201);
    const res = await signIn(m.UserName, m.Password, '10.12.0.1');
    expect(res.statusCode).toBe(403);
    expect(res.json<{ message: string }>().message).toBe(MESSAGES.phoneNotVerified);
    expect(res.cookies.find((c) => c.name === 'parkit_rt')).toBeUndefined();
    // A wrong password is still just a wrong password: nothing tells the account is unverified.
    expect((await signIn(m.UserName, 'not the password', '10.12.0.1')).statusCode).toBe(400);
    expect(
      (await tokenPost(app, { grant_type: 'otp', phone: m.PhoneNumber, code: await lastCode(app, m.PhoneNumber) }))
        .statusCode,
    ).toBe(200);
    expect((await signIn(m.UserName, m.Password, '10.12.0.1')).statusCode).toBe(200);
  });

  it('lets the owner of the number register once the squatter’s code has expired', async () => {
    const squatter = newMember();
    expect((await register(squatter)).statusCode).toBe(201);
    const owner = newMember({
      PhoneNumber: squatter.PhoneNumber,
      UserName: squatter.UserName,
      EmailAddress: squatter.EmailAddress,
    });
    // While the code lives, the registration holds them.
    expect((await register(owner)).statusCode).toBe(409);
    await db.execute(
      sql`UPDATE members SET created_at = now() - interval '11 minutes' WHERE phone = ${squatter.PhoneNumber}`,
    );
    await db.execute(
      sql`UPDATE otp_sends SET last_sent_at = now() - interval '11 minutes' WHERE phone = ${squatter.PhoneNumber}`,
    );
    expect((await register(owner)).statusCode).toBe(201);
    expect(
      (
        await tokenPost(app, {
          grant_type: 'otp',
          phone: owner.PhoneNumber,
          code: await lastCode(app, owner.PhoneNumber),
        })
      ).statusCode,
    ).toBe(200);
  });

  it('never releases a verified account', async () => {
    const m = await verified();
    await db.execute(sql`UPDATE members SET created_at = now() - interval '1 day' WHERE phone = ${m.PhoneNumber}`);
    expect((await register(newMember({ PhoneNumber: m.PhoneNumber }))).statusCode).toBe(409);
  });
});
