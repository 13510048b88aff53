import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { MESSAGES, type TokenResponse } from '@parkit/contract';
import { queryRows } from '../../../src/db/client.ts';
import { maskPhone } from '../../../src/auth/codes.ts';
import { tokenSigner } from '../../../src/auth/tokens.ts';
import { buildTestApp, lastCode, newMember, TEST_SECRET, tokenPost } from '../../helpers.ts';

const { app, database } = await buildTestApp();
const { db } = database;

// Every inject comes from 127.0.0.1, so the per-address limits would be shared by the whole file;
// each test starts with fresh windows (the limits have their own tests).
beforeEach(async () => {
  await db.execute(sql`DELETE FROM rate_limits`);
});

const register = (payload: unknown) =>
  app.inject({ method: 'POST', url: '/api/Account/Register', payload: payload as object });
const sendOtp = (PhoneNumber: string) =>
  app.inject({ method: 'POST', url: '/api/Account/SendOtp', payload: { PhoneNumber } });
/** Lets the next code go out now instead of after the 30 s resend wait. */
const ageCodes = async (phone: string) => {
  await db.execute(sql`UPDATE otp_codes SET created_at = created_at - interval '31 seconds' WHERE phone = ${phone}`);
  await db.execute(
    sql`UPDATE otp_sends SET last_sent_at = last_sent_at - interval '31 seconds' WHERE phone = ${phone}`,
  );
};
/** Registers and verifies the phone with the code (a password alone opens only such accounts). */
async function registerVerified(m: ReturnType<typeof newMember>) {
  expect((await register(m)).statusCode).toBe(201);
  expect(
    (await tokenPost(app, { grant_type: 'otp', phone: m.PhoneNumber, code: await lastCode(app, m.PhoneNumber) }))
      .statusCode,
  ).toBe(200);
}

async function counts() {
  const [row] = await queryRows<{ members: number; otp: number; outbox: number }>(
    db,
    sql`SELECT (SELECT count(*)::int FROM members) AS members, (SELECT count(*)::int FROM otp_codes) AS otp,
               (SELECT count(*)::int FROM outbox) AS outbox`,
  );
  return row!;
}

describe('POST /api/Account/Register', () => {
  it('texts a registration code, worded for registration; Login with OTP texts a sign-in code', async () => {
    const m = newMember();
    expect((await register(m)).statusCode).toBe(201);
    const body = async () =>
      (await app.inject({ method: 'GET', url: `/api/Dev/Outbox?to=${m.PhoneNumber}&limit=1` })).json<
        { Body: string }[]
      >()[0]?.Body;
    expect(await body()).toMatch(/^Your ParkIt registration code is \d{6}\. Enter it to finish signing up\./);
    await ageCodes(m.PhoneNumber);
    expect((await sendOtp(m.PhoneNumber)).statusCode).toBe(202);
    expect(await body()).toMatch(/^Your ParkIt sign-in code is \d{6}\./);
  });

  it('creates the member, sends a code to the phone and never stores the password in clear', async () => {
    const m = newMember();
    const res = await register(m);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ message: MESSAGES.codeSent, PhoneNumber: maskPhone(m.PhoneNumber) });
    expect(res.json<{ PhoneNumber: string }>().PhoneNumber).toMatch(/^\*{6}\d{4}$/);

    const [row] = await queryRows<Record<string, unknown>>(
      db,
      sql`SELECT * FROM members WHERE user_name = ${m.UserName}`,
    );
    expect(row).toMatchObject({ email: m.EmailAddress, phone: m.PhoneNumber, first_name: 'Test', last_name: 'Driver' });
    expect(Number(row!.client_id)).toBeGreaterThan(0);
    expect(row!.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(JSON.stringify(row)).not.toContain(m.Password);

    const code = await lastCode(app, m.PhoneNumber);
    expect(code).toMatch(/^\d{6}$/);
    const otpRows = await queryRows<{ code_hash: string }>(
      db,
      sql`SELECT code_hash FROM otp_codes WHERE phone = ${m.PhoneNumber}`,
    );
    expect(otpRows).toHaveLength(1);
    expect(otpRows[0]!.code_hash).not.toContain(code);
  });

  it.each([
    ['UserName', MESSAGES.usernameTaken, (a: ReturnType<typeof newMember>) => ({ UserName: a.UserName })],
    ['UserName', MESSAGES.usernameTaken, (a: ReturnType<typeof newMember>) => ({ UserName: a.UserName.toUpperCase() })],
    ['EmailAddress', MESSAGES.emailTaken, (a: ReturnType<typeof newMember>) => ({ EmailAddress: a.EmailAddress })],
    [
      'EmailAddress',
      MESSAGES.emailTaken,
      (a: ReturnType<typeof newMember>) => ({ EmailAddress: a.EmailAddress.toUpperCase() }),
    ],
    ['PhoneNumber', MESSAGES.phoneTaken, (a: ReturnType<typeof newMember>) => ({ PhoneNumber: a.PhoneNumber })],
  ])('refuses a duplicate %s with 409 naming the field (%s)', async (field, message, clash) => {
    const first = newMember();
    expect((await register(first)).statusCode).toBe(201);
    const before = await counts();
    const res = await register(newMember(clash(first)));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message, errors: [{ field, message }] });
    expect(await counts()).toEqual(before);
  });

  it('names every taken field at once', async () => {
    const first = newMember();
    expect((await register(first)).statusCode).toBe(201);
    const res = await register({ ...first, FirstName: 'Other' });
    expect(res.statusCode).toBe(409);
    expect(res.json<{ errors: { field: string }[] }>().errors.map((e) => e.field)).toEqual([
      'UserName',
      'EmailAddress',
      'PhoneNumber',
    ]);
  });

  it('lists each missing field with its message', async () => {
    const res = await register({});
    expect(res.statusCode).toBe(400);
    const body = res.json<{ message: string; errors: { field: string; message: string }[] }>();
    expect(body.errors.map((e) => e.field).sort()).toEqual([
      'EmailAddress',
      'FirstName',
      'LastName',
      'Password',
      'PhoneNumber',
      'UserName',
    ]);
    expect(body.errors).toContainEqual({ field: 'UserName', message: 'Username is Required' });
    expect(body.errors).toContainEqual({ field: 'EmailAddress', message: 'Email is required' });
    expect(body.errors).toContainEqual({ field: 'PhoneNumber', message: 'PhoneNumber is Required' });
    expect(body.message).toBe(body.errors[0]!.message);
  });

  it('stores free text verbatim: SQL, markup and emoji are data, never code', async () => {
    const m = newMember({ FirstName: "Robert'); DROP TABLE members;--", LastName: '<script>alert(1)</script> 🚗' });
    expect((await register(m)).statusCode).toBe(201);
    const [row] = await queryRows<{ first_name: string; last_name: string }>(
      db,
      sql`SELECT first_name, last_name FROM members WHERE phone = ${m.PhoneNumber}`,
    );
    expect(row).toEqual({ first_name: m.FirstName, last_name: m.LastName });
  });

  it('is limited per address', async () => {
    const from = { remoteAddress: '10.20.0.1' };
    for (let i = 0; i < 20; i++) {
      const res = await app.inject({ method: 'POST', url: '/api/Account/Register', payload: newMember(), ...from });
      expect(res.statusCode).toBe(201);
    }
    const before = await counts();
    const res = await app.inject({ method: 'POST', url: '/api/Account/Register', payload: newMember(), ...from });
    expect(res.statusCode).toBe(429);
    expect(res.json()).toEqual({ message: MESSAGES.tooManyAttempts });
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(await counts()).toEqual(before);
  });
});

describe('POST /api/Account/SendOtp', () => {
  it('refuses a second code within 30 s with 429 and retry-after, then sends a new one that replaces the old', async () => {
    const m = newMember();
    await register(m);
    const first = await lastCode(app, m.PhoneNumber);
    const soon = await sendOtp(m.PhoneNumber);
    expect(soon.statusCode).toBe(429);
    expect(soon.json()).toEqual({ message: MESSAGES.codeTooSoon });
    const wait = Number(soon.headers['retry-after']);
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(30);

    await ageCodes(m.PhoneNumber);
    expect((await sendOtp(m.PhoneNumber)).statusCode).toBe(202);
    const second = await lastCode(app, m.PhoneNumber);
    if (second !== first) {
      // The newer code wins: the older one is dead even though it has not expired.
      expect((await tokenPost(app, { grant_type: 'otp', phone: m.PhoneNumber, code: first })).statusCode).toBe(400);
    }
    expect((await tokenPost(app, { grant_type: 'otp', phone: m.PhoneNumber, code: second })).statusCode).toBe(200);
  });

  it('answers an unknown phone exactly like a known one and sends nothing to it', async () => {
    const m = newMember();
    await register(m);
    await ageCodes(m.PhoneNumber);
    // Same last four digits, so that even the masked number in the answer is the same.
    const unknown = `599${m.PhoneNumber.slice(3)}`;
    const known = await sendOtp(m.PhoneNumber);
    const stranger = await sendOtp(unknown);
    expect(stranger.statusCode).toBe(known.statusCode);
    expect(stranger.statusCode).toBe(202);
    expect(stranger.body).toBe(known.body);
    expect(stranger.headers['content-type']).toBe(known.headers['content-type']);
    const out = await app.inject({ method: 'GET', url: `/api/Dev/Outbox?to=${unknown}` });
    expect(out.json()).toEqual([]);
    // Asking again is refused the same way for both, too.
    const [k2, s2] = [await sendOtp(m.PhoneNumber), await sendOtp(unknown)];
    expect([k2.statusCode, s2.statusCode]).toEqual([429, 429]);
    expect(s2.body).toBe(k2.body);
    // And no code signs in to a phone that has no account.
    const tok = await tokenPost(app, { grant_type: 'otp', phone: unknown, code: '123456' });
    expect(tok.statusCode).toBe(400);
    expect(tok.json()).toEqual({
      message: MESSAGES.invalidCode,
      errors: [{ field: 'code', message: MESSAGES.invalidCode }],
    });
  });

  it.each([['12345'], ['5125550100x'], ["5125550100' OR '1'='1"], ['']])(
    'refuses the phone %j with 400 naming the field',
    async (phone) => {
      const before = await counts();
      const res = await sendOtp(phone);
      expect(res.statusCode).toBe(400);
      expect(res.json<{ errors: { field: string }[] }>().errors[0]!.field).toBe('PhoneNumber');
      expect(await counts()).toEqual(before);
    },
  );
});

describe('POST /api/Account/Logout', () => {
  it('revokes the refresh token given in the body', async () => {
    const m = newMember();
    await registerVerified(m);
    const signIn = await tokenPost(app, { grant_type: 'password', username: m.UserName, password: m.Password });
    const { refresh_token } = signIn.json<{ refresh_token: string }>();
    const out = await app.inject({ method: 'POST', url: '/api/Account/Logout', payload: { refresh_token } });
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ message: MESSAGES.loggedOut });
    const again = await tokenPost(app, { grant_type: 'refresh_token', refresh_token });
    expect(again.statusCode).toBe(401);
    expect(again.json()).toEqual({ message: 'Unauthorized' });
  });

  it('revokes the refresh token from the cookie and clears the cookie', async () => {
    const m = newMember();
    await registerVerified(m);
    const signIn = await tokenPost(app, { grant_type: 'password', username: m.UserName, password: m.Password });
    const { refresh_token } = signIn.json<{ refresh_token: string }>();
    const out = await app.inject({ method: 'POST', url: '/api/Account/Logout', cookies: { parkit_rt: refresh_token } });
    expect(out.statusCode).toBe(200);
    const cleared = out.cookies.find((c) => c.name === 'parkit_rt');
    expect(cleared?.value).toBe('');
    expect((await tokenPost(app, { grant_type: 'refresh_token', refresh_token })).statusCode).toBe(401);
  });

  it('answers an unknown or missing token the same way', async () => {
    for (const payload of [{ refresh_token: 'not-a-token' }, {}]) {
      const out = await app.inject({ method: 'POST', url: '/api/Account/Logout', payload });
      expect(out.statusCode).toBe(200);
    }
  });
});

describe('password reset: ForgotPassword and ResetPassword (docs/product.md#sign-in)', () => {
  const forgot = (headers: Record<string, string>) =>
    app.inject({ method: 'POST', url: '/api/Account/ForgotPassword', headers });
  const reset = (headers: Record<string, string>, payload: object) =>
    app.inject({ method: 'POST', url: '/api/Account/ResetPassword', headers, payload });
  const login = (m: ReturnType<typeof newMember>, password = m.Password) =>
    tokenPost(app, { grant_type: 'password', username: m.UserName, password });

  /** A registered member signed in with `grant_type`; returns the bearer headers. */
  async function signedIn(grant: 'password' | 'otp') {
    const m = newMember();
    if (grant === 'password') await registerVerified(m);
    else await register(m);
    const res =
      grant === 'password'
        ? await login(m)
        : await tokenPost(app, { grant_type: 'otp', phone: m.PhoneNumber, code: await lastCode(app, m.PhoneNumber) });
    expect(res.statusCode).toBe(200);
    const body = res.json<TokenResponse>();
    return { m, body, headers: { authorization: `Bearer ${body.access_token}` } };
  }

  it('sets a new password with the code /forgot sends, and signs out every other session', async () => {
    const { m, body, headers } = await signedIn('password');
    const sent = await forgot(headers);
    expect(sent.statusCode).toBe(202);
    expect(sent.json()).toEqual({ message: MESSAGES.codeSent, PhoneNumber: maskPhone(m.PhoneNumber) });
    const code = await lastCode(app, m.PhoneNumber);

    const wrongCode = await reset(headers, {
      Code: code === '000000' ? '111111' : '000000',
      NewPassword: 'a brand new secret',
    });
    expect(wrongCode.statusCode).toBe(400);
    expect(wrongCode.json()).toEqual({
      message: MESSAGES.invalidCode,
      errors: [{ field: 'Code', message: MESSAGES.invalidCode }],
    });

    const done = await reset(headers, { Code: code, NewPassword: 'a brand new secret' });
    expect(done.statusCode).toBe(200);
    const fresh = done.json<TokenResponse>();
    expect(fresh).toMatchObject({ token_type: 'Bearer', member_id: body.member_id, amr: 'pwd' });
    expect((await login(m)).statusCode).toBe(400);
    expect((await login(m, 'a brand new secret')).statusCode).toBe(200);
    expect((await tokenPost(app, { grant_type: 'refresh_token', refresh_token: body.refresh_token })).statusCode).toBe(
      401,
    );
    expect((await tokenPost(app, { grant_type: 'refresh_token', refresh_token: fresh.refresh_token })).statusCode).toBe(
      200,
    );
    // The old access token died with the password change; the code worked once.
    expect((await reset(headers, { Code: code, NewPassword: 'yet another secret' })).statusCode).toBe(401);
    expect(
      (
        await reset(
          { authorization: `Bearer ${fresh.access_token}` },
          { Code: code, NewPassword: 'yet another secret' },
        )
      ).statusCode,
    ).toBe(400);
  });

  it('takes a new password without a code right after a sign-in with a code', async () => {
    const { m, body, headers } = await signedIn('otp');
    const done = await reset(headers, { NewPassword: 'chosen after otp' });
    expect(done.statusCode).toBe(200);
    expect(done.json<TokenResponse>()).toMatchObject({ member_id: body.member_id, amr: 'otp' });
    expect((await login(m, 'chosen after otp')).statusCode).toBe(200);
  });

  it('refuses a reset without a code after a password sign-in, and leaves the password alone', async () => {
    const { m, headers } = await signedIn('password');
    const res = await reset(headers, { NewPassword: 'sneaky new one' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      message: MESSAGES.codeRequired,
      errors: [{ field: 'Code', message: MESSAGES.codeRequired }],
    });
    expect((await login(m)).statusCode).toBe(200);
  });

  it('refuses a reset without a code ten minutes after the sign-in with a code', async () => {
    const { body } = await signedIn('otp');
    const stale = await tokenSigner(TEST_SECRET).sign({
      memberId: body.member_id,
      amr: 'otp',
      authTime: Math.floor(Date.now() / 1000) - 601,
      sessionVersion: 0,
    });
    const res = await reset({ authorization: `Bearer ${stale}` }, { NewPassword: 'too late for this' });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ errors: { field: string }[] }>().errors[0]!.field).toBe('Code');
  });

  it('keeps reset codes and sign-in codes apart', async () => {
    const { m, headers } = await signedIn('password');
    await forgot(headers);
    const resetCode = await lastCode(app, m.PhoneNumber);
    expect((await tokenPost(app, { grant_type: 'otp', phone: m.PhoneNumber, code: resetCode })).statusCode).toBe(400);
    expect((await reset(headers, { Code: resetCode, NewPassword: 'still works after' })).statusCode).toBe(200);
  });

  it('waits 30 s between reset codes and needs a signed-in member', async () => {
    const { headers } = await signedIn('password');
    expect((await forgot(headers)).statusCode).toBe(202);
    const soon = await forgot(headers);
    expect(soon.statusCode).toBe(429);
    expect(Number(soon.headers['retry-after'])).toBeGreaterThan(0);
    for (const res of [await forgot({}), await reset({}, { NewPassword: 'whatever123' })]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: 'Unauthorized' });
    }
  });
});
