import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * JWTs signed with HS256, checked synchronously with node:crypto's HMAC (issue 9: jose goes
 * through WebCrypto's async API, a promise and a thread hop per request). The checks are jose's
 * jwtVerify with the options the access token used: algorithm HS256 only, no `crit`, the claims
 * named in `required` present, iss and aud equal to ours, exp in the future, nbf (when present) in
 * the past, iat a number at most maxAgeSeconds old and not in the future.
 */
export interface Hs256Options {
  issuer: string;
  audience: string;
  required: readonly string[];
  maxAgeSeconds: number;
}

const b64 = (s: string) => Buffer.from(s).toString('base64url');
const HEADER = b64(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));

export function signHs256(secret: string, claims: Record<string, unknown>): string {
  const body = `${HEADER}.${b64(JSON.stringify(claims))}`;
  return `${body}.${createHmac('sha256', secret).update(body).digest('base64url')}`;
}

function json(part: string): Record<string, unknown> | null {
  try {
    const v = JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const BASE64URL = /^[\w-]+$/;
const isNumericDate = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** The claims of a valid token, else null. */
export function verifyHs256(secret: string, token: string, o: Hs256Options, nowMs = Date.now()): Record<string, unknown> | null {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts.every((p) => BASE64URL.test(p))) return null;
  const [h, p, s] = parts as [string, string, string];
  const expected = createHmac('sha256', secret).update(`${h}.${p}`).digest();
  const given = Buffer.from(s, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const header = json(h);
  if (!header || header.alg !== 'HS256' || 'crit' in header || 'b64' in header) return null;
  const c = json(p);
  if (!c) return null;
  for (const claim of [...o.required, 'iat', 'aud', 'iss']) if (!Object.hasOwn(c, claim)) return null;
  if (c.iss !== o.issuer) return null;
  if (!(c.aud === o.audience || (Array.isArray(c.aud) && c.aud.includes(o.audience)))) return null;
  const now = Math.floor(nowMs / 1000);
  if (c.nbf !== undefined && (!isNumericDate(c.nbf) || c.nbf > now)) return null;
  if (c.exp !== undefined && (!isNumericDate(c.exp) || c.exp <= now)) return null;
  if (!isNumericDate(c.iat) || now - c.iat > o.maxAgeSeconds || now - c.iat < 0) return null;
  return c;
}
