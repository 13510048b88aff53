import { SignJWT, type JWK } from 'jose';
import type { SigningKey } from '../infra/signing-keys.ts';

/**
 * Proof of payment an officer checks without a network (docs/proof-of-payment.md): a JWT signed
 * with Ed25519 (EdDSA) whose claims are the plate, its state, the zone number, the operator and the
 * paid end time (exp). The officer's device holds the public keys (GET /api/Parking/ProofKeys) and
 * checks the signature and the time offline.
 */
export const PROOF_ISSUER = 'parkit';
export const PROOF_AUDIENCE = 'parkit-enforcement';
export const PROOF_TYPE = 'parkit-proof+jwt';

export interface ProofClaims {
  /** The plate as the session has it (upper case, as on the screen). */
  plate: string;
  plateState: string;
  zoneNumber: string;
  operatorId: number;
  sessionId: number;
  endsAt: Date;
}

export function proofSigner(key: SigningKey) {
  return {
    kid: key.kid,
    /** The public keys an officer's device keeps, as a JWK Set. */
    keySet: (): { keys: JWK[] } => ({ keys: [key.publicJwk] }),
    async sign(c: ProofClaims, now = new Date()): Promise<string> {
      return new SignJWT({ plate: c.plate, st: c.plateState, zone: c.zoneNumber, op: c.operatorId })
        .setProtectedHeader({ alg: 'EdDSA', typ: PROOF_TYPE, kid: key.kid })
        .setIssuer(PROOF_ISSUER)
        .setAudience(PROOF_AUDIENCE)
        .setSubject(String(c.sessionId))
        .setIssuedAt(Math.floor(now.getTime() / 1000))
        .setExpirationTime(Math.floor(c.endsAt.getTime() / 1000))
        .sign(key.privateKey);
    },
  };
}
export type ProofSigner = ReturnType<typeof proofSigner>;
