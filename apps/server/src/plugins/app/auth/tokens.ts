import { SignJWT, jwtVerify } from 'jose';

export const ACCESS_TOKEN_SECONDS = 15 * 60;

export interface AccessClaims {
  memberId: number;
  /** How the member proved who they are: password or a code to the phone. */
  amr: 'pwd' | 'otp';
  /** When that proof was given (seconds since the epoch); carried over by refresh. */
  authTime: number;
}

export function tokenSigner(secret: string) {
  // Imported once as a CryptoKey: handing jose the raw bytes imports the key on every call,
  // which was most of the cost of an authenticated request.
  const key = crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
  return {
    async sign(c: AccessClaims): Promise<string> {
      return new SignJWT({ amr: [c.amr], auth_time: c.authTime })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(String(c.memberId))
        .setIssuer('parkit')
        .setAudience('parkit-app')
        .setIssuedAt()
        .setExpirationTime(`${ACCESS_TOKEN_SECONDS}s`)
        .sign(await key);
    },
    /** Null for anything but a valid, unexpired token of ours. */
    async verify(token: string): Promise<AccessClaims | null> {
      try {
        const { payload } = await jwtVerify(token, await key, { issuer: 'parkit', audience: 'parkit-app', algorithms: ['HS256'] });
        const memberId = Number(payload.sub);
        const amr = Array.isArray(payload.amr) && payload.amr[0] === 'otp' ? 'otp' : 'pwd';
        if (!Number.isSafeInteger(memberId) || memberId <= 0) return null;
        return { memberId, amr, authTime: Number(payload.auth_time) || 0 };
      } catch {
        return null;
      }
    },
  };
}
export type TokenSigner = ReturnType<typeof tokenSigner>;
