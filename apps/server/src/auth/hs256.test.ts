import { createHmac } from 'node:crypto';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { signHs256, verifyHs256 } from './hs256.ts';

const SECRET = 'a-secret-that-is-long-enough-for-hs256-signing';
const key = new TextEncoder().encode(SECRET);
const O = { issuer: 'parkit', audience: 'parkit-app', required: ['exp', 'iat', 'sub', 'iss', 'aud'], maxAgeSeconds: 960 } as const;
const now = () => Math.floor(Date.now() / 1000);
const claims = (over: Record<string, unknown> = {}) => ({ sub: '7', iss: 'parkit', aud: 'parkit-app', iat: now(), exp: now() + 900, sv: 0, ...over });
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
/** A token with any header, signed with the real secret. */
const forged = (header: unknown, body: unknown) => {
  const input = `${b64(header)}.${b64(body)}`;
  return `${input}.${createHmac('sha256', SECRET).update(input).digest('base64url')}`;
};

describe('HS256 tokens checked with node:crypto (issue 9)', () => {
  it('accepts its own tokens and jose’s, and reads their claims', async () => {
    expect(verifyHs256(SECRET, signHs256(SECRET, claims()), O)).toMatchObject({ sub: '7', sv: 0 });
    const jose = await new SignJWT({ sv: 3 }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setSubject('7').setIssuer('parkit').setAudience(['parkit-app', 'x']).setIssuedAt().setExpirationTime('15m').sign(key);
    expect(verifyHs256(SECRET, jose, O)).toMatchObject({ sub: '7', sv: 3 });
  });

  it('refuses another secret, a changed payload or signature, and malformed tokens', () => {
    const good = signHs256(SECRET, claims());
    const [h, p, s] = good.split('.') as [string, string, string];
    expect(verifyHs256('another-secret-that-is-long-enough-for-it', good, O)).toBeNull();
    expect(verifyHs256(SECRET, `${h}.${b64(claims({ sub: '8' }))}.${s}`, O)).toBeNull();
    expect(verifyHs256(SECRET, `${h}.${p}.${s.slice(0, -2)}`, O)).toBeNull();
    for (const bad of ['', 'a.b', 'a.b.c.d', `${h}.${p}.`, `${h}.${p}.${s}=`, `${h}.${p}.${s}/`]) expect(verifyHs256(SECRET, bad, O)).toBeNull();
  });

  it('refuses other algorithms and critical headers even with a right HMAC', () => {
    expect(verifyHs256(SECRET, forged({ alg: 'HS256' }, claims()), O)).not.toBeNull();
    expect(verifyHs256(SECRET, forged({ alg: 'none' }, claims()), O)).toBeNull();
    expect(verifyHs256(SECRET, forged({ alg: 'HS512' }, claims()), O)).toBeNull();
    expect(verifyHs256(SECRET, forged({ alg: 'HS256', crit: ['x'], x: 1 }, claims()), O)).toBeNull();
    expect(verifyHs256(SECRET, forged({ alg: 'HS256' }, [1, 2]), O)).toBeNull();
  });

  it.each([
    ['no exp', { exp: undefined }],
    ['no iat', { iat: undefined }],
    ['no sub', { sub: undefined }],
    ['no iss', { iss: undefined }],
    ['no aud', { aud: undefined }],
    ['another issuer', { iss: 'someone' }],
    ['another audience', { aud: ['someone'] }],
    ['expired', { exp: now() }],
    ['exp not a number', { exp: '9999999999' }],
    ['issued in the future', { iat: now() + 30 }],
    ['issued too long ago', { iat: now() - 961 }],
    ['not valid yet', { nbf: now() + 30 }],
  ])('refuses a token with %s', (_what, over) => {
    const c = JSON.parse(JSON.stringify(claims(over))) as Record<string, unknown>;
    expect(verifyHs256(SECRET, signHs256(SECRET, c), O)).toBeNull();
  });
});
