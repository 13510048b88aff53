import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { MESSAGES, type TokenResponse } from '@parkit/contract';
import { queryRows } from '../../src/db/client.ts';
import { buildTestApp, freshLimitsEachTest, lastCode, newMember, tokenPost } from '../helpers.ts';

const { app, database } = await buildTestApp();
const { db } = database;

freshLimitsEachTest(database); // the limit tests below use their own addresses

type Member = ReturnType<typeof newMember>;

async function unverified(): Promise<Member> {
  const m = newMember();
  const res = await app.inject({ method: 'POST', url: '/api/Account/Register', payload: m });
  expect(res.statusCode).toBe(201);
  return m;
}

/** A new unverified member and the code just sent to its phone. */
async function unverifiedWithCode(): Promise<{ m: Member; code: string }> {
  const m = await unverified();
  return { m, code: await lastCode(app, m.PhoneNumber) };
}

/** Registered, and the phone verified with the code (a password alone opens only such accounts). */
async function registered(): Promise<Member> {
  const m = await unverified();
  expect(
    (await tokenPost(app, { grant_type: 'otp', phone: m.PhoneNumber, code: await lastCode(app, m.PhoneNumber) }))
      .statusCode,
  ).toBe(200);
  return m;
}

const password = (username: string, pw: string, remoteAddress?: string) =>
  remoteAddress
    ? app.inject({
        method: 'POST',
        url: '/token',
        remoteAddress,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ grant_type: 'password', username, password: pw }).toString(),
      })
    : tokenPost(app, { grant_type: 'password', username, password: pw });
const otp = (phone: string, code: string) => tokenPost(app, { grant_type: 'otp', phone, code });
const refresh = (refresh_token: string) => tokenPost(app, { grant_type: 'refresh_token', refresh_token });
const details = (token: string) =>
  app.inject({ method: 'GET', url: '/api/Account/Details', headers: { authorization: `Bearer ${token}` } });
/** A six-digit code that is not `code`. */
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

const INVALID_CREDENTIALS = {
  message: MESSAGES.invalidCredentials,
  errors: [{ field: 'password', message: MESSAGES.invalidCredentials }],
};
const INVALID_CODE = { message: MESSAGES.invalidCode, errors: [{ field: 'code', message: MESSAGES.invalidCode }] };

/** The one answer to a code that does not open: used, wrong, expired or dead alike. */
function expectInvalidCode(res: { statusCode: number; json: () => unknown }) {
  expect(res.statusCode).toBe(400);
  expect(res.json()).toEqual(INVALID_CODE);
}

describe('POST /token grant_type=password', () => {
  it('signs in with the username (any case) or the e-mail address', async () => {
    const m = await registered();
    for (const login of [m.UserName, m.UserName.toUpperCase(), m.EmailAddress, ` ${m.EmailAddress.toUpperCase()} `]) {
      const res = await password(login, m.Password);
      expect(res.statusCode).toBe(200);
      const body = res.json<TokenResponse>();
      expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 900, amr: 'pwd' });
      expect(body.member_id).toBeGreaterThan(0);
      expect(body.refresh_token).not.toBe('');
      const cookie = res.cookies.find((c) => c.name === 'parkit_rt');
      expect(cookie).toMatchObject({ value: body.refresh_token, httpOnly: true, sameSite: 'Strict' });
      expect((await details(body.access_token)).statusCode).toBe(200);
    }
  });

  it('answers a wrong password and an unknown user with the same 400', async () => {
    const m = await registered();
    const wrongPassword = await password(m.UserName, 'not the password');
    const unknownUser = await password(`nobody${m.UserName}`, m.Password);
    expect(wrongPassword.statusCode).toBe(400);
    expect(unknownUser.statusCode).toBe(400);
    expect(wrongPassword.json()).toEqual(INVALID_CREDENTIALS);
    expect(unknownUser.body).toBe(wrongPassword.body);
    expect(wrongPassword.cookies).toEqual([]);
  });

  it('refuses a password that differs only in case', async () => {
    const m = await registered();
    expect((await password(m.UserName, m.Password.toUpperCase())).statusCode).toBe(400);
  });

  it('locks an account for strangers for a while after 6 failures, even for the right password', async () => {
    const m = await registered();
    for (let i = 0; i < 6; i++) expect((await password(m.UserName, `wrong ${i}`, `10.1.0.${i}`)).statusCode).toBe(400);
    const locked = await password(m.UserName, m.Password, '10.1.1.1');
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toEqual({ message: MESSAGES.tooManyAttempts });
    const wait = Number(locked.headers['retry-after']);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(30);
    // Another account is not locked.
    const other = await registered();
    expect((await password(other.UserName, other.Password, '10.1.1.2')).statusCode).toBe(200);
  });

  it('counts failures per account, whether it is named by username or e-mail', async () => {
    const m = await registered();
    for (let i = 0; i < 6; i++) {
      const login = i % 2 === 0 ? m.UserName : m.EmailAddress.toUpperCase();
      expect((await password(login, 'wrong', `10.4.0.${i}`)).statusCode).toBe(400);
    }
    expect((await password(m.EmailAddress, m.Password, '10.4.1.1')).statusCode).toBe(429);
    expect((await password(m.UserName, m.Password, '10.4.1.2')).statusCode).toBe(429);
  });

  it('forgets failures after a successful sign-in', async () => {
    const m = await registered();
    for (let i = 0; i < 5; i++) await password(m.UserName, 'wrong', '10.2.0.1');
    expect((await password(m.UserName, m.Password, '10.2.0.1')).statusCode).toBe(200);
    for (let i = 0; i < 5; i++) expect((await password(m.UserName, 'wrong', '10.2.0.2')).statusCode).toBe(400);
    expect((await password(m.UserName, m.Password, '10.2.0.2')).statusCode).toBe(200);
  });

  it('limits failed sign-ins per address across accounts', async () => {
    for (let i = 0; i < 51; i++) expect((await password(`nobody${i}`, 'whatever', '10.3.0.1')).statusCode).toBe(400);
    expect((await password('nobody-else', 'whatever', '10.3.0.1')).statusCode).toBe(429);
    expect((await password('nobody-else', 'whatever', '10.3.0.2')).statusCode).toBe(400);
  });
});

describe('POST /token grant_type=otp', () => {
  it('signs in with the code sent at registration, once, and marks the phone verified', async () => {
    const { m, code } = await unverifiedWithCode();
    const res = await otp(m.PhoneNumber, code);
    expect(res.statusCode).toBe(200);
    expect(res.json<TokenResponse>()).toMatchObject({ token_type: 'Bearer', amr: 'otp' });
    const [row] = await queryRows<{ verified: boolean }>(
      db,
      sql`SELECT phone_verified_at IS NOT NULL AS verified FROM members WHERE phone = ${m.PhoneNumber}`,
    );
    expect(row?.verified).toBe(true);
    const again = await otp(m.PhoneNumber, code);
    expectInvalidCode(again);
  });

  it('refuses a wrong code, and the right one still works after it', async () => {
    const { m, code } = await unverifiedWithCode();
    const bad = await otp(m.PhoneNumber, wrong(code));
    expectInvalidCode(bad);
    expect((await otp(m.PhoneNumber, code)).statusCode).toBe(200);
  });

  it('refuses an expired code', async () => {
    const { m, code } = await unverifiedWithCode();
    await db.execute(sql`UPDATE otp_codes SET expires_at = now() - interval '1 second' WHERE phone = ${m.PhoneNumber}`);
    const res = await otp(m.PhoneNumber, code);
    expectInvalidCode(res);
  });

  it('kills the code after 5 wrong tries: the sixth try fails even with the right code', async () => {
    const { m, code } = await unverifiedWithCode();
    for (let i = 0; i < 5; i++) expect((await otp(m.PhoneNumber, wrong(code))).statusCode).toBe(400);
    const sixth = await otp(m.PhoneNumber, code);
    expectInvalidCode(sixth);
    const [row] = await queryRows<{ attempts: number; dead: boolean }>(
      db,
      sql`SELECT attempts, consumed_at IS NOT NULL AS dead FROM otp_codes WHERE phone = ${m.PhoneNumber}`,
    );
    expect(row).toEqual({ attempts: 5, dead: true });
  });

  it.each([
    ['a code of 5 digits', { code: '12345' }, 'code'],
    ['letters in the code', { code: '12a456' }, 'code'],
    ['a short phone', { phone: '123' }, 'phone'],
  ])('refuses %s with 400 naming the field', async (_what, override, field) => {
    const res = await tokenPost(app, { grant_type: 'otp', phone: '5125550199', code: '123456', ...override });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ errors: { field: string }[] }>().errors[0]!.field).toBe(field);
  });
});

describe('POST /token grant_type=refresh_token', () => {
  async function signedIn() {
    const m = await registered();
    const res = await password(m.UserName, m.Password);
    return res.json<TokenResponse>();
  }

  it('rotates: a new pair for the same member and sign-in method', async () => {
    const first = await signedIn();
    const res = await refresh(first.refresh_token);
    expect(res.statusCode).toBe(200);
    const next = res.json<TokenResponse>();
    expect(next).toMatchObject({ member_id: first.member_id, amr: 'pwd', token_type: 'Bearer' });
    expect(next.refresh_token).not.toBe(first.refresh_token);
    expect((await details(next.access_token)).statusCode).toBe(200);
    expect((await refresh(next.refresh_token)).statusCode).toBe(200);
  });

  it('takes the refresh token from the cookie', async () => {
    const first = await signedIn();
    const res = await app.inject({
      method: 'POST',
      url: '/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      cookies: { parkit_rt: first.refresh_token },
      payload: 'grant_type=refresh_token',
    });
    expect(res.statusCode).toBe(200);
    expect(res.cookies.find((c) => c.name === 'parkit_rt')?.value).toBe(res.json<TokenResponse>().refresh_token);
  });

  it('treats a reused (already rotated) token as stolen: 401, and the whole family dies', async () => {
    const first = await signedIn();
    const next = (await refresh(first.refresh_token)).json<TokenResponse>();
    const reuse = await refresh(first.refresh_token);
    expect(reuse.statusCode).toBe(401);
    expect(reuse.json()).toEqual({ message: 'Unauthorized' });
    const cleared = reuse.cookies.find((c) => c.name === 'parkit_rt');
    expect(cleared?.value).toBe('');
    const afterTheft = await refresh(next.refresh_token);
    expect(afterTheft.statusCode).toBe(401);
    // Other sign-ins of the same member (the one with the code at registration) are not touched.
    const [row] = await queryRows<{ live: number }>(
      db,
      sql`SELECT count(*)::int AS live FROM refresh_tokens WHERE member_id = ${first.member_id} AND revoked_at IS NULL`,
    );
    expect(row?.live).toBe(1);
  });

  it.each([
    ['garbage', 'not-a-real-token'],
    ['empty', ''],
    ['too long', 'x'.repeat(201)],
  ])('refuses a %s token with 401 or 400', async (_what, token) => {
    const res = await refresh(token);
    expect([400, 401]).toContain(res.statusCode);
    expect(res.json<{ message: string }>().message).toBeTruthy();
  });

  it('refuses an expired refresh token', async () => {
    const first = await signedIn();
    await db.execute(
      sql`UPDATE refresh_tokens SET expires_at = now() - interval '1 second' WHERE member_id = ${first.member_id}`,
    );
    expect((await refresh(first.refresh_token)).statusCode).toBe(401);
  });
});
