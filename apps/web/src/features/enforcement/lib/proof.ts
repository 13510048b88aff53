import { createLocalJWKSet, errors, jwtVerify, type JSONWebKeySet } from 'jose';

export type ProofResult =
  | { ok: true; sessionId: string; plate: string; state: string; zone: string; endsAt: Date }
  | { ok: false; reason: 'expired' | 'unknown-key' | 'invalid' };

/**
 * Verifies a driver's proof-of-payment code with the kept public keys, with no network
 * (docs/proof-of-payment.md#verifying-the-officers-side): EdDSA only, its type, issuer and
 * audience, and its end against the device's clock with a minute of skew.
 */
export async function verifyProof(token: string, keys: JSONWebKeySet, now: Date): Promise<ProofResult> {
  try {
    const { payload } = await jwtVerify(token.trim(), createLocalJWKSet(keys), {
      issuer: 'parkit',
      audience: 'parkit-enforcement',
      algorithms: ['EdDSA'],
      typ: 'parkit-proof+jwt',
      currentDate: now,
      clockTolerance: 60,
    });
    return {
      ok: true,
      sessionId: String(payload.sub ?? ''),
      plate: String(payload.plate ?? ''),
      state: String(payload.st ?? ''),
      zone: String(payload.zone ?? ''),
      endsAt: new Date((payload.exp ?? 0) * 1000),
    };
  } catch (err) {
    if (err instanceof errors.JWTExpired) return { ok: false, reason: 'expired' };
    if (err instanceof errors.JWKSNoMatchingKey) return { ok: false, reason: 'unknown-key' };
    return { ok: false, reason: 'invalid' };
  }
}
