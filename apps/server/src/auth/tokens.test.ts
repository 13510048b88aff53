import { describe, expect, it } from 'vitest';
import { ACCESS_TOKEN_SECONDS, tokenSigner } from './tokens.ts';

const SECRET = 'a-secret-that-is-long-enough-for-hs256-signing';
const claims = { memberId: 7, amr: 'pwd' as const, authTime: 1_700_000_000, sessionVersion: 2 };

/** A signer whose clock the test moves. */
function clocked(startMs = Date.now()) {
  let now = startMs;
  const signer = tokenSigner(SECRET, () => now);
  return { signer, advance: (seconds: number) => void (now += seconds * 1000) };
}

describe('access tokens: a verified token is remembered, its time limits are not (issue 9)', () => {
  it('answers the same claims for a token checked again from memory', async () => {
    const { signer } = clocked();
    const token = await signer.sign(claims);
    const first = signer.verify(token);
    expect(first).toEqual(claims);
    expect(signer.verify(token)).toEqual(first);
  });

  it('refuses a remembered token once it has expired', async () => {
    const { signer, advance } = clocked();
    const token = await signer.sign(claims);
    expect(signer.verify(token)).toEqual(claims);
    advance(ACCESS_TOKEN_SECONDS - 1);
    expect(signer.verify(token)).toEqual(claims);
    advance(1);
    expect(signer.verify(token)).toBeNull();
  });

  it('never lets a changed token through because the genuine one was remembered', async () => {
    const { signer } = clocked();
    const token = await signer.sign(claims);
    expect(signer.verify(token)).toEqual(claims);
    const [h, p, s] = token.split('.') as [string, string, string];
    const body = JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown>;
    const other = Buffer.from(JSON.stringify({ ...body, sub: '8' })).toString('base64url');
    expect(signer.verify(`${h}.${other}.${s}`)).toBeNull();
    expect(signer.verify(`${token}x`)).toBeNull();
    // Another secret's signer has its own memory.
    expect(tokenSigner('another-secret-that-is-long-enough-for-it').verify(token)).toBeNull();
  });

  it('hands out claims nobody can change for the next request', async () => {
    const { signer } = clocked();
    const token = await signer.sign(claims);
    const got = signer.verify(token)!;
    expect(() => Object.assign(got, { memberId: 8 })).toThrow(TypeError);
    expect(signer.verify(token)?.memberId).toBe(7);
  });
});
