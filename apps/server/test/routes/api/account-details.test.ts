import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { AccountDetails } from '@parkit/contract';
import { tokenSigner } from '../../../src/auth/tokens.ts';
import { as, buildTestApp, registerAndSignIn, TEST_SECRET } from '../../helpers.ts';

const { app } = await buildTestApp();
const alice = await registerAndSignIn(app, { FirstName: 'Zoë 🚗', LastName: '<script>alert(1)</script>' });
const bob = await registerAndSignIn(app);

const details = (headers: Record<string, string> = {}) =>
  app.inject({ method: 'GET', url: '/api/Account/Details', headers });
const UNAUTHORIZED = { message: 'Unauthorized' };
const now = () => Math.floor(Date.now() / 1000);

/** A token shaped like ours, with the given key and claims. */
function forge(opts: { secret?: string; exp?: number; iat?: number; sub?: string; aud?: string; iss?: string } = {}) {
  const key = new TextEncoder().encode(opts.secret ?? TEST_SECRET);
  return new SignJWT({ amr: ['pwd'], auth_time: now() })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(opts.sub ?? String(alice.memberId))
    .setIssuer(opts.iss ?? 'parkit')
    .setAudience(opts.aud ?? 'parkit-app')
    .setIssuedAt(opts.iat ?? now())
    .setExpirationTime(opts.exp ?? now() + 600)
    .sign(key);
}

const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');

describe('GET /api/Account/Details', () => {
  it('answers the member’s balance, MinBalance and user data', async () => {
    const res = await as(app, alice, { method: 'GET', url: '/api/Account/Details' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const body = AccountDetails.parse(res.json());
    expect(body).toMatchObject({
      MemberId: alice.memberId,
      PhoneNumber: alice.phone,
      Balance: 0,
      MinBalance: '0',
      VehicleCount: 0,
      AddressLine1: '',
    });
    expect(body.ClientId).toBeGreaterThan(0);
    // Stored text comes back exactly as given, as JSON data.
    expect(body.FirstName).toBe('Zoë 🚗');
    expect(body.LastName).toBe('<script>alert(1)</script>');
  });

  it('counts only the member’s own vehicles', async () => {
    const carol = await registerAndSignIn(app);
    const dave = await registerAndSignIn(app);
    for (const PlateNumber of ['CNT 001', 'CNT 002']) {
      const add = await as(app, carol, {
        method: 'POST',
        url: '/api/Vehicle/Add',
        payload: {
          VehicleMake: 'TOYOTA',
          VehicleModel: 'CAMRY',
          PlateNumber,
          PlateState: 'TX',
          VehicleColor: 'SILVER',
          VehicleYear: '2020',
        },
      });
      expect(add.statusCode).toBe(201);
    }
    const count = async (who: typeof carol) =>
      AccountDetails.parse((await as(app, who, { method: 'GET', url: '/api/Account/Details' })).json()).VehicleCount;
    expect(await count(carol)).toBe(2);
    expect(await count(dave)).toBe(0);
    expect(await count(alice)).toBe(0);
  });

  it('works without xapikey, and with the member’s own', async () => {
    expect((await details({ authorization: `Bearer ${alice.token}` })).statusCode).toBe(200);
    expect(
      (await details({ authorization: `Bearer ${alice.token}`, xapikey: String(alice.memberId) })).statusCode,
    ).toBe(200);
  });

  it.each([
    ['another member’s id', () => String(bob.memberId)],
    ['a non-number', () => 'abc'],
  ])('refuses xapikey holding %s with 403', async (_what, key) => {
    const res = await details({ authorization: `Bearer ${alice.token}`, xapikey: key() });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: 'Forbidden' });
  });

  it.each<[string, () => Promise<Record<string, string>>]>([
    ['no token', async () => ({})],
    ['an empty bearer', async () => ({ authorization: 'Bearer ' })],
    ['a garbage token', async () => ({ authorization: 'Bearer not.a.jwt' })],
    ['another scheme', async () => ({ authorization: `Basic ${alice.token}` })],
    [
      'a token signed with another secret',
      async () => ({ authorization: `Bearer ${await forge({ secret: 'x'.repeat(48) })}` }),
    ],
    [
      'an expired token',
      async () => ({ authorization: `Bearer ${await forge({ iat: now() - 3600, exp: now() - 60 })}` }),
    ],
    ['a token for another audience', async () => ({ authorization: `Bearer ${await forge({ aud: 'someone-else' })}` })],
    ['a token from another issuer', async () => ({ authorization: `Bearer ${await forge({ iss: 'evil' })}` })],
    [
      'a token whose subject is not a member id',
      async () => ({ authorization: `Bearer ${await forge({ sub: 'admin' })}` }),
    ],
    [
      'an unsigned token (alg none)',
      async () => ({
        authorization: `Bearer ${b64({ alg: 'none', typ: 'JWT' })}.${b64({ sub: String(alice.memberId), iss: 'parkit', aud: 'parkit-app', exp: now() + 600 })}.`,
      }),
    ],
    [
      'a tampered token',
      async () => ({
        authorization: `Bearer ${alice.token.replace(/\.([^.]+)\./, (_m, p: string) => `.${b64({ ...JSON.parse(Buffer.from(p, 'base64url').toString()), sub: String(bob.memberId) })}.`)}`,
      }),
    ],
  ])('refuses %s with 401 {message: Unauthorized}', async (_what, headers) => {
    const res = await details(await headers());
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(UNAUTHORIZED);
  });

  it('answers a valid token of a member who no longer exists with 401', async () => {
    const ghost = await tokenSigner(TEST_SECRET).sign({
      memberId: 2_000_000,
      amr: 'pwd',
      authTime: now(),
      sessionVersion: 0,
    });
    const res = await details({ authorization: `Bearer ${ghost}` });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(UNAUTHORIZED);
  });
});
