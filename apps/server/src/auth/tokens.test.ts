import { createHmac } from 'node:crypto';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { ACCESS_TOKEN_SECONDS, tokenSigner, type AccessClaims, type ClaimsOrPromise } from './tokens.ts';

const SECRET = 'a-secret-that-is-long-enough-for-hs256-signing';
const claims = { memberId: 7, amr: 'pwd' as const, authTime: 1_700_000_000, sessionVersion: 2 };

/**
 * An access token issued before jose signed them (by the hand-written HS256 of main deaab12): member
 * 7, otp, auth_time 1789999000, sv 2, issued at 1790000000 (2026-09-21), with this test's SECRET.
 */
const ISSUED_BEFORE = [
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9',
  'eyJhbXIiOlsib3RwIl0sImF1dGhfdGltZSI6MTc4OTk5OTAwMCwic3YiOjIsInN1YiI6IjciLCJpc3MiOiJwYXJraXQiLCJhdWQiOiJwYXJraXQtYXBwIiwiaWF0IjoxNzkwMDAwMDAwLCJleHAiOjE3OTAwMDA5MDB9',
  'sTHWrnU8dUYxxPs5v-xCTFFpPEmoSx_QigvDqV-dbrA',
].join('.');
const ISSUED_AT = 1_790_000_000;

/** A signer whose clock the test moves. */
function clocked(startMs = Date.now()) {
  let now = startMs;
  const signer = tokenSigner(SECRET, () => now);
  return { signer, advance: (seconds: number) => void (now += seconds * 1000) };
}

const seconds = () => Math.floor(Date.now() / 1000);
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
/** The claims of a genuine access token issued now, with `over` changed (undefined: left out). */
const body = (over: Record<string, unknown> = {}) =>
  JSON.parse(
    JSON.stringify({
      amr: ['pwd'],
      auth_time: 1_700_000_000,
      sv: 0,
      sub: '7',
      iss: 'parkit',
      aud: 'parkit-app',
      iat: seconds(),
      exp: seconds() + 900,
      ...over,
    }),
  ) as Record<string, unknown>;
/** A token with any header and claims, carrying a right HMAC-SHA256 of the real secret. */
const forged = (header: unknown, claims: unknown, secret = SECRET) => {
  const input = `${b64(header)}.${b64(claims)}`;
  return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
};

describe('access tokens: signed and checked by jose (HS256)', () => {
  it('verifies a token issued before jose signed them, and signs the very same text for the same claims', async () => {
    const { signer } = clocked((ISSUED_AT + 60) * 1000);
    const expected: AccessClaims = { memberId: 7, amr: 'otp', authTime: 1_789_999_000, sessionVersion: 2 };
    expect(await signer.verify(ISSUED_BEFORE)).toEqual(expected);
    const { signer: then } = clocked(ISSUED_AT * 1000);
    expect(await then.sign(expected)).toBe(ISSUED_BEFORE);
  });

  it('accepts a token of jose signed elsewhere with an audience list that holds ours', async () => {
    const token = await new SignJWT({ sv: 3 })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject('7')
      .setIssuer('parkit')
      .setAudience(['parkit-app', 'x'])
      .setIssuedAt()
      .setExpirationTime('15m')
      .sign(new TextEncoder().encode(SECRET));
    expect(await tokenSigner(SECRET).verify(token)).toEqual({
      memberId: 7,
      amr: 'pwd',
      authTime: 0,
      sessionVersion: 3,
    });
  });

  it('refuses another secret, a tampered payload, a changed signature and malformed tokens', async () => {
    const signer = tokenSigner(SECRET);
    const good = await signer.sign(claims);
    const [h, p, s] = good.split('.') as [string, string, string];
    expect(await tokenSigner('another-secret-that-is-long-enough-for-it').verify(good)).toBeNull();
    expect(await signer.verify(`${h}.${b64({ ...body(), sub: '8' })}.${s}`)).toBeNull();
    expect(
      await signer.verify(`${h}.${b64({ ...JSON.parse(Buffer.from(p, 'base64url').toString()), sv: 9 })}.${s}`),
    ).toBeNull();
    expect(await signer.verify(`${h}.${p}.${s.slice(0, -2)}`)).toBeNull();
    // The first character changed: every one of its bits is the signature's (the last character's
    // two low bits are padding, so 'B' for 'A' there may decode to the same bytes).
    expect(await signer.verify(`${h}.${p}.${s.startsWith('A') ? 'B' : 'A'}${s.slice(1)}`)).toBeNull();
    for (const bad of ['', 'a.b', 'a.b.c.d', `${h}.${p}.`, `${h}.${p}.${s}=`, `${h}.${p}.${s}/`, `${good}x`]) {
      expect(await signer.verify(bad)).toBeNull();
    }
    // The genuine token still passes: the refusals above were about the changes.
    expect(await signer.verify(good)).toEqual(claims);
  });

  it('refuses another algorithm and critical headers even with a right HMAC', async () => {
    const signer = tokenSigner(SECRET);
    expect(await signer.verify(forged({ alg: 'HS256' }, body()))).toEqual({
      memberId: 7,
      amr: 'pwd',
      authTime: 1_700_000_000,
      sessionVersion: 0,
    });
    expect(await signer.verify(forged({ alg: 'none' }, body()))).toBeNull();
    expect(await signer.verify(`${b64({ alg: 'none', typ: 'JWT' })}.${b64(body())}.`)).toBeNull();
    expect(await signer.verify(forged({ alg: 'RS256', typ: 'JWT' }, body()))).toBeNull();
    expect(await signer.verify(forged({ alg: 'HS512' }, body()))).toBeNull();
    expect(await signer.verify(forged({ alg: 'HS256', crit: ['x'], x: 1 }, body()))).toBeNull();
    expect(await signer.verify(forged({ alg: 'HS256' }, [1, 2]))).toBeNull();
  });

  it.each([
    ['no exp', { exp: undefined }],
    ['no iat', { iat: undefined }],
    ['no sub', { sub: undefined }],
    ['no iss', { iss: undefined }],
    ['no aud', { aud: undefined }],
    ['no sv', { sv: undefined }],
    ['another issuer', { iss: 'someone' }],
    ['another audience', { aud: ['someone'] }],
    ['expired', { exp: seconds() }],
    ['exp not a number', { exp: '9999999999' }],
    ['issued in the future', { iat: seconds() + 30 }],
    ['issued too long ago', { iat: seconds() - ACCESS_TOKEN_SECONDS - 61 }],
    ['not valid yet', { nbf: seconds() + 30 }],
    ['a numeric sub', { sub: 7 }],
    ['a sub that is no member id', { sub: '0' }],
    ['a sub past int4', { sub: '2147483648' }],
    ['a negative sv', { sv: -1 }],
  ])('refuses a token with %s', async (_what, over) => {
    expect(await tokenSigner(SECRET).verify(forged({ alg: 'HS256', typ: 'JWT' }, body(over)))).toBeNull();
  });
});

describe('access tokens: a verified token is remembered, its time limits are not', () => {
  it('answers a remembered token synchronously with the same claims', async () => {
    const { signer } = clocked();
    const token = await signer.sign(claims);
    const first: ClaimsOrPromise = signer.verify(token);
    expect(first).toBeInstanceOf(Promise);
    expect(await first).toEqual(claims);
    const again = signer.verify(token);
    expect(again).not.toBeInstanceOf(Promise);
    expect(again).toEqual(claims);
  });

  it('refuses a remembered token once it has expired', async () => {
    const { signer, advance } = clocked();
    const token = await signer.sign(claims);
    expect(await signer.verify(token)).toEqual(claims);
    advance(ACCESS_TOKEN_SECONDS - 1);
    expect(signer.verify(token)).toEqual(claims);
    advance(1);
    expect(signer.verify(token)).toBeNull();
  });

  it('refuses an expired token never seen before', async () => {
    const { signer, advance } = clocked();
    const token = await signer.sign(claims);
    advance(ACCESS_TOKEN_SECONDS);
    expect(await signer.verify(token)).toBeNull();
  });

  it('never lets a changed token through because the genuine one was remembered', async () => {
    const { signer } = clocked();
    const token = await signer.sign(claims);
    expect(await signer.verify(token)).toEqual(claims);
    const [h, p, s] = token.split('.') as [string, string, string];
    const changed = JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown>;
    expect(await signer.verify(`${h}.${b64({ ...changed, sub: '8' })}.${s}`)).toBeNull();
    expect(await signer.verify(`${token}x`)).toBeNull();
    // Another secret's signer has its own memory.
    expect(await tokenSigner('another-secret-that-is-long-enough-for-it').verify(token)).toBeNull();
  });

  it('never remembers a refused token', async () => {
    const { signer } = clocked();
    const bad = forged({ alg: 'HS256' }, body(), 'another-secret-that-is-long-enough-for-it');
    expect(await signer.verify(bad)).toBeNull();
    const again = signer.verify(bad);
    expect(again).toBeInstanceOf(Promise);
    expect(await again).toBeNull();
  });

  it('hands out claims nobody can change for the next request', async () => {
    const { signer } = clocked();
    const token = await signer.sign(claims);
    const got = (await signer.verify(token))!;
    expect(() => Object.assign(got, { memberId: 8 })).toThrow(TypeError);
    expect((await signer.verify(token))?.memberId).toBe(7);
  });
});
