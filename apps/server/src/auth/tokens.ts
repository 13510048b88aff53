import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { SignJWT, jwtVerify, type JWTPayload } from 'jose';
import { Lru } from 'toad-cache';

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
   * change raise the member's version, which ends every token made before.
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

const COMPACT = /^[\w-]+\.[\w-]+\.[\w-]+$/;

/** A token's claims, at once when the token was verified before, else once jose has checked it. */
export type ClaimsOrPromise = AccessClaims | null | Promise<AccessClaims | null>;

export function tokenSigner(secret: string, nowMs: () => number = Date.now) {
  const deviceMac = (body: string) => createHmac('sha256', `device:${secret}`).update(body).digest('base64url');
  // Imported once: given the secret's bytes, jose would import a key on every call.
  const key = crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign', 'verify'],
  );
  // jose's jwtVerify: HS256 only (a token saying "none", RS256 or HS512 is refused before its
  // signature is read), no unknown `crit`, these claims present, iss and aud ours, exp in the
  // future, nbf (when present) in the past, iat a number at most maxTokenAge old and not ahead.
  const options = {
    algorithms: ['HS256'],
    issuer: TOKEN_ISSUER,
    audience: TOKEN_AUDIENCE,
    requiredClaims: ['exp', 'iat', 'sub', 'iss', 'aud'],
    maxTokenAge: ACCESS_TOKEN_SECONDS + 60,
  };
  // A client sends the same access token with every request for 15 minutes. A token
  // whose signature and claims were checked once is remembered by its exact text, so the next
  // requests skip jose (its WebCrypto HMAC answers through a promise) and answer synchronously;
  // its time limits are checked again on every use. Only tokens that passed every check are kept,
  // so a forged one is verified (and refused) every time.
  const verified = new Lru<Verified>(VERIFIED_TOKENS);
  const inTime = (v: Verified, now: number) => v.exp > now && v.iat <= now && now - v.iat <= options.maxTokenAge;

  /** The claims of a payload jose accepted, or null when they are not a member's; remembered. */
  function accept(token: string, payload: JWTPayload): AccessClaims | null {
    const sub = typeof payload.sub === 'string' ? payload.sub : '';
    const memberId = Number(sub);
    const amr = Array.isArray(payload.amr) && payload.amr[0] === 'otp' ? 'otp' : 'pwd';
    const sv = payload.sv;
    if (!/^\d{1,10}$/.test(sub) || !Number.isSafeInteger(memberId) || memberId <= 0 || memberId > 2_147_483_647)
      return null;
    if (typeof sv !== 'number' || !Number.isSafeInteger(sv) || sv < 0) return null;
    const claims: AccessClaims = { memberId, amr, authTime: Number(payload.auth_time) || 0, sessionVersion: sv };
    // jose checked that iat and exp are present and numbers, exp one in the future.
    verified.set(token, { claims: Object.freeze(claims), iat: payload.iat!, exp: payload.exp! });
    return claims;
  }

  return {
    async sign(c: AccessClaims): Promise<string> {
      const iat = Math.floor(nowMs() / 1000);
      // The claims in this order and the header {"alg":"HS256","typ":"JWT"}: the same text as
      // every token issued before jose signed them (tokens.test.ts holds one).
      return new SignJWT({ amr: [c.amr], auth_time: c.authTime, sv: c.sessionVersion })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(String(c.memberId))
        .setIssuer(TOKEN_ISSUER)
        .setAudience(TOKEN_AUDIENCE)
        .setIssuedAt(iat)
        .setExpirationTime(iat + ACCESS_TOKEN_SECONDS)
        .sign(await key);
    },
    /**
     * Null for anything but a valid, unexpired token of ours: exp, iat, sub, iss, aud and sv are
     * required (a token without exp never expires), and none may claim more than 15 minutes.
     * A remembered token answers synchronously; any other is checked by jose (a promise).
     */
    verify(token: string): ClaimsOrPromise {
      const now = Math.floor(nowMs() / 1000);
      const known = verified.get(token);
      if (known) return inTime(known, now) ? known.claims : null;
      // Three unpadded base64url parts, as every token of ours (jose would also take a padded signature).
      if (!COMPACT.test(token)) return null;
      return key
        .then((k) => jwtVerify(token, k, { ...options, currentDate: new Date(now * 1000) }))
        .then(
          ({ payload }) => accept(token, payload),
          () => null,
        );
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
