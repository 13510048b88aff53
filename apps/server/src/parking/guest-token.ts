import { SignJWT, jwtVerify } from 'jose';

/** A Quick Park driver's proof of a verified phone: 24 hours, for that phone's sessions only. */
export const GUEST_TOKEN_HOURS = 24;

export function guestTokenSigner(secret: string) {
  // Its own key (the app secret with a purpose) and audience: a guest token is never an access token.
  const key = crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(`${secret}:quick-park`),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign', 'verify'],
  );
  return {
    async sign(phone: string, now = new Date()): Promise<{ token: string; expiresAt: Date }> {
      const expiresAt = new Date(now.getTime() + GUEST_TOKEN_HOURS * 3_600_000);
      const token = await new SignJWT({})
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(phone)
        .setIssuer('parkit')
        .setAudience('parkit-quick-park')
        .setIssuedAt()
        .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
        .sign(await key);
      return { token, expiresAt };
    },
    /** The verified phone, or null for anything but a valid, unexpired guest token. */
    async verify(token: string): Promise<string | null> {
      try {
        const { payload } = await jwtVerify(token, await key, {
          issuer: 'parkit',
          audience: 'parkit-quick-park',
          algorithms: ['HS256'],
        });
        return typeof payload.sub === 'string' && /^\d{10,15}$/.test(payload.sub) ? payload.sub : null;
      } catch {
        return null;
      }
    },
  };
}
export type GuestTokenSigner = ReturnType<typeof guestTokenSigner>;
