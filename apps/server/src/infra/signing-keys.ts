import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { calculateJwkThumbprint, exportJWK, type JWK } from 'jose';

/**
 * An Ed25519 key pair that signs what others verify with its public half alone (the parking proof
 * of payment, docs/proof-of-payment.md). The private half comes from configuration (a PKCS#8 PEM)
 * or, when none is given, is made on first start and kept in the data folder (never in the
 * repository); without a data folder (a test app) it lives in memory. The key id is the public
 * key's JWK thumbprint (RFC 7638), so a rotated key gets a new id by itself.
 */
export interface SigningKey {
  kid: string;
  privateKey: KeyObject;
  /** The public half as a JWK (kty OKP, crv Ed25519, x), with its kid, alg and use. */
  publicJwk: JWK;
}

export const PROOF_KEY_FILE = 'proof-signing-key.pem';

function readOrMakePem(pem: string | undefined, dataDir: string | undefined): KeyObject {
  if (pem) return createPrivateKey(pem);
  const file = dataDir ? join(dataDir, PROOF_KEY_FILE) : null;
  if (file && existsSync(file)) return createPrivateKey(readFileSync(file, 'utf8'));
  const { privateKey } = generateKeyPairSync('ed25519');
  if (file && dataDir) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600 });
  }
  return privateKey;
}

export async function loadSigningKey(opts: { pem?: string; dataDir?: string }): Promise<SigningKey> {
  const privateKey = readOrMakePem(opts.pem, opts.dataDir);
  if (privateKey.asymmetricKeyType !== 'ed25519') throw new Error('the proof signing key must be an Ed25519 key');
  const jwk = await exportJWK(createPublicKey(privateKey));
  const kid = await calculateJwkThumbprint(jwk);
  return { kid, privateKey, publicJwk: { ...jwk, kid, alg: 'EdDSA', use: 'sig' } };
}
