import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { Lru } from 'toad-cache';
import { signHs256, verifyHs256 } from './hs256.ts';

export const ACCESS_TOKEN_SECONDS = 15 * 60;
export const TOKEN_ISSUER = 'parkit';
export const TOKEN_AUDIENCE = 'parkit-app';

export interface AccessClaims {
  memberId: number;
  /** How the member proved who they are: password or a code to the phone. */
  amr: 'pwd' | 'otp';
  /** When that proof was given (seconds since the epoch); carried over by refresh. */
  authTime: number;
  /**
   * The member's session version when the token was made (claim `sv`). Logout and a password
   * change raise the member's version, which ends every token made before (issue 8, item 7).
   */
  sessionVersion: number;
}

/** How many verified tokens a process remembers (the most recently used): each ~0.5 KB. */
export const VERIFIED_TOKENS = 10_000;

interface Verified {
  claims: AccessClaims;
  iat: number;
  exp: number;
}

export function tokenSigner(secret: string, nowMs: () => number = Date.now) {
  const deviceMac = (body: string) => createHmac('sha256', `device:${secret}`).update(body).digest('base64url');
  const options = {
    issuer: TOKEN_ISSUER,
    audience: TOKEN_AUDIENCE,
    required: ['exp', 'iat', 'sub', 'iss', 'aud'],
    maxAgeSeconds: ACCESS_TOKEN_SECONDS + 60,
  } as const;
  // Issue 9: a client sends the same access token with every request for 15 minutes. A token
  // whose signature and claims were checked once is remembered by its exact text, so the next
  // requests skip the HMAC and the JSON; its time limits are checked again on every use. Only
  // tokens that passed every check are kept, so a forged one is verified (and refused) every time.
  const verified = new Lru<Verified>(VERIFIED_TOKENS);
  const inTime = (v: Verified, now: number) => v.exp > now && v.iat <= now && now - v.iat <= options.maxAgeSeconds;
  return {
    async sign(c: AccessClaims): Promise<string> {
      const iat = Math.floor(Date.now() / 1000);
      return signHs256(secret, {
        amr: [c.amr], auth_time: c.authTime, sv: c.sessionVersion,
        sub: String(c.memberId), iss: TOKEN_ISSUER, aud: TOKEN_AUDIENCE, iat, exp: iat + ACCESS_TOKEN_SECONDS,
      });
    },
    /**
     * Null for anything but a valid, unexpired token of ours: exp, iat, sub, iss, aud and sv are
     * required (a token without exp never expires), and none may claim more than 15 minutes.
     * Synchronous (node:crypto HMAC, hs256.ts).
     */
    verify(token: string): AccessClaims | null {
      const now = Math.floor(nowMs() / 1000);
      const known = verified.get(token);
      if (known) return inTime(known, now) ? known.claims : null;
      const payload = verifyHs256(secret, token, options, now * 1000);
      if (!payload) return null;
      const sub = typeof payload.sub === 'string' ? payload.sub : '';
      const memberId = Number(sub);
      const amr = Array.isArray(payload.amr) && payload.amr[0] === 'otp' ? 'otp' : 'pwd';
      const sv = payload.sv;
      if (!/^\d{1,10}$/.test(sub) || !Number.isSafeInteger(memberId) || memberId <= 0 || memberId > 2_147_483_647) return null;
      if (typeof sv !== 'number' || !Number.isSafeInteger(sv) || sv < 0) return null;
      const claims: AccessClaims = { memberId, amr, authTime: Number(payload.auth_time) || 0, sessionVersion: sv };
      // verifyHs256 checked that iat is a number and exp, when present, one in the future.
      const exp = typeof payload.exp === 'number' ? payload.exp : Infinity;
      verified.set(token, { claims: Object.freeze(claims), iat: payload.iat as number, exp });
      return claims;
    },
    /** A device cookie (OWASP's "device cookies"): this browser signed in to this member before. */
    deviceCookie(memberId: number): string {
      const body = `${memberId}.${randomBytes(12).toString('base64url')}`;
      return `${body}.${deviceMac(body)}`;
    },
    /** The device id of a genuine device cookie of this member, else null. */
    readDevice(value: string | undefined, memberId: number): string | null {
      const m = value ? /^(\d{1,10})\.([\w-]{16})\.([\w-]{43})$/.exec(value) : null;
      if (!m || Number(m[1]) !== memberId) return null;
      const expected = Buffer.from(deviceMac(`${m[1]}.${m[2]}`));
      const given = Buffer.from(m[3]!);
      return expected.length === given.length && timingSafeEqual(expected, given) ? m[2]! : null;
    },
  };
}
export type TokenSigner = ReturnType<typeof tokenSigner>;
