import { SignJWT } from 'jose';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { as, buildTestApp, registerAndSignIn, TEST_SECRET, tokenPost, type SignedIn } from '../helpers.ts';
import { tokenSigner } from '../../src/auth/tokens.ts';
import { fill, operations } from '../openapi.ts';

// What a bearer token must carry, and when it stops working.
const { app, database } = await buildTestApp();
const { db } = database;
const UNAUTHORIZED = { message: 'Unauthorized' };
const key = new TextEncoder().encode(TEST_SECRET);
const now = () => Math.floor(Date.now() / 1000);

/** Every member-only operation of the OpenAPI document (a route added later is covered too). */
async function memberOperations() {
  return (await operations(app))
    .filter((o) => o.memberOnly)
    .map((o) => ({ method: o.method as 'GET', url: fill(o.path, () => '1') }));
}

const details = (headers: Record<string, string>) =>
  app.inject({ method: 'GET', url: '/api/Account/Details', headers });

describe('item 5: a token must carry exp, iat, sub, iss and aud', () => {
  it('accepts the tokens the app makes', async () => {
    const who = await registerAndSignIn(app);
    expect((await details(who.headers)).statusCode).toBe(200);
  });

  it.each(['exp', 'iat', 'sub', 'iss', 'aud'])(
    'refuses a token signed with the real secret but without %s',
    async (claim) => {
      const who = await registerAndSignIn(app);
      let jwt = new SignJWT({ amr: ['pwd'], auth_time: now(), sv: 0 }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' });
      if (claim !== 'sub') jwt = jwt.setSubject(String(who.memberId));
      if (claim !== 'iss') jwt = jwt.setIssuer('parkit');
      if (claim !== 'aud') jwt = jwt.setAudience('parkit-app');
      if (claim !== 'iat') jwt = jwt.setIssuedAt();
      if (claim !== 'exp') jwt = jwt.setExpirationTime('15m');
      const res = await details({ authorization: `Bearer ${await jwt.sign(key)}` });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual(UNAUTHORIZED);
    },
  );

  it('refuses a token that claims to live for a day', async () => {
    const who = await registerAndSignIn(app);
    const jwt = await new SignJWT({ amr: ['pwd'], auth_time: now(), sv: 0 })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(String(who.memberId))
      .setIssuer('parkit')
      .setAudience('parkit-app')
      .setIssuedAt(now() - 3600)
      .setExpirationTime(now() + 86_400)
      .sign(key);
    expect((await details({ authorization: `Bearer ${jwt}` })).statusCode).toBe(401);
  });
});

describe('item 6: a valid token of a member who no longer exists is a 401 everywhere', () => {
  it.each([
    ['an id past int4', 2_147_483_648],
    ['an id never used', 999_999],
  ])('with %s', async (_what, memberId) => {
    const ghost = await tokenSigner(TEST_SECRET).sign({ memberId, amr: 'pwd', authTime: now(), sessionVersion: 0 });
    const ops = await memberOperations();
    expect(ops.length).toBeGreaterThan(5);
    for (const op of ops) {
      const res = await app.inject({
        ...op,
        headers: { authorization: `Bearer ${ghost}` },
        payload: op.method === 'GET' ? undefined : {},
      });
      expect(res.statusCode, `${op.method} ${op.url}`).toBe(401);
      expect(res.json()).toMatchObject(UNAUTHORIZED);
    }
  });

  it('after the member is deleted', async () => {
    const who = await registerAndSignIn(app);
    await db.execute(sql`DELETE FROM members WHERE id = ${who.memberId}`);
    for (const op of await memberOperations()) {
      const res = await app.inject({ ...op, headers: who.headers, payload: op.method === 'GET' ? undefined : {} });
      expect(res.statusCode, `${op.method} ${op.url}`).toBe(401);
    }
  });
});

describe('item 7: logout and a password change end every session at once', () => {
  async function twoDevices(): Promise<[SignedIn, SignedIn]> {
    const first = await registerAndSignIn(app);
    await db.execute(
      sql`UPDATE otp_sends SET last_sent_at = last_sent_at - interval '31 seconds' WHERE phone = ${first.phone}`,
    );
    // A second sign-in of the same member (another device), with a code.
    expect(
      (await app.inject({ method: 'POST', url: '/api/Account/SendOtp', payload: { PhoneNumber: first.phone } }))
        .statusCode,
    ).toBe(202);
    const out = await app.inject({ method: 'GET', url: `/api/Dev/Outbox?to=${first.phone}&limit=1` });
    const code = /\b(\d{6})\b/.exec(out.json<{ Body: string }[]>()[0]!.Body)![1]!;
    const tok = (await tokenPost(app, { grant_type: 'otp', phone: first.phone, code })).json<{
      access_token: string;
      refresh_token: string;
    }>();
    const second = {
      ...first,
      token: tok.access_token,
      refreshToken: tok.refresh_token,
      headers: { ...first.headers, authorization: `Bearer ${tok.access_token}` },
    };
    expect((await details(first.headers)).statusCode).toBe(200);
    expect((await details(second.headers)).statusCode).toBe(200);
    return [first, second];
  }

  it('logout: both devices’ access tokens and refresh tokens stop working', async () => {
    const [a, b] = await twoDevices();
    const out = await app.inject({
      method: 'POST',
      url: '/api/Account/Logout',
      payload: { refresh_token: a.refreshToken },
    });
    expect(out.statusCode).toBe(200);
    for (const who of [a, b]) {
      expect((await details(who.headers)).statusCode).toBe(401);
      expect((await tokenPost(app, { grant_type: 'refresh_token', refresh_token: who.refreshToken })).statusCode).toBe(
        401,
      );
    }
  });

  it('logout with only the refresh cookie (the web app’s way) ends the sessions and clears the cookie', async () => {
    const [a, b] = await twoDevices();
    const out = await app.inject({
      method: 'POST',
      url: '/api/Account/Logout',
      cookies: { parkit_rt: a.refreshToken },
    });
    expect(out.statusCode).toBe(200);
    expect(out.cookies.find((c) => c.name === 'parkit_rt')).toMatchObject({ value: '', maxAge: 0 });
    for (const who of [a, b]) expect((await details(who.headers)).statusCode).toBe(401);
    // Any other answer sets no cookie (cookies are the sign-in routes' alone).
    expect((await details(b.headers)).cookies).toEqual([]);
  });

  it('logout with only the access token ends the sessions too', async () => {
    const [a, b] = await twoDevices();
    expect(
      (
        await app.inject({
          method: 'POST',
          url: '/api/Account/Logout',
          headers: { authorization: a.headers.authorization! },
        })
      ).statusCode,
    ).toBe(200);
    expect((await details(b.headers)).statusCode).toBe(401);
  });

  it('a password change: the other device is out at once, this one gets a fresh token', async () => {
    const [a, b] = await twoDevices();
    const res = await as(app, a, {
      method: 'POST',
      url: '/api/Account/ResetPassword',
      payload: { NewPassword: 'a new password 42' },
    });
    expect(res.statusCode).toBe(200);
    // The new refresh token goes in the cookie too (the old one's is replaced).
    expect(res.cookies.find((c) => c.name === 'parkit_rt')?.value).toBe(
      res.json<{ refresh_token: string }>().refresh_token,
    );
    expect((await details(b.headers)).statusCode).toBe(401);
    expect((await details(a.headers)).statusCode).toBe(401);
    expect(
      (await details({ authorization: `Bearer ${res.json<{ access_token: string }>().access_token}` })).statusCode,
    ).toBe(200);
  });
});
