import { createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLocalJWKSet, decodeProtectedHeader, exportJWK, jwtVerify } from 'jose';
import type { ParkingProof, ProofKeySet } from '@parkit/contract';
import { loadSigningKey } from '../../../src/infra/signing-keys.ts';
import { as, buildTestApp, registerAndSignIn } from '../../helpers.ts';
import { addVehicle, addZone, credit, startSession } from '../../parking-helpers.ts';

// The proof of payment (docs/proof-of-payment.md): an officer's device holds the published keys and
// checks a session's token with no network, here with jose's own JWK Set verifier.
const dataDir = mkdtempSync(join(tmpdir(), 'parkit-proof-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const { app, database } = await buildTestApp({ DATA_DIR: dataDir });
const alice = await registerAndSignIn(app);
const bob = await registerAndSignIn(app);
const zone = await addZone(database.db, '7301');
await credit(database.db, alice.memberId, 10_000);
const car = await addVehicle(app, alice, 'prf 101');
const session = await startSession(app, alice, { zoneId: zone, vehicleId: car, minutes: 60 });

const keySet = async () => {
  const res = await app.inject({ method: 'GET', url: '/api/Parking/ProofKeys' });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<ProofKeySet>();
};
const proofOf = (id: number, who = alice) => as(app, who, { method: 'GET', url: `/api/Parking/Session/${id}/Proof` });
const verify = (token: string, keys: ProofKeySet, now = new Date()) =>
  jwtVerify(token, createLocalJWKSet(keys), {
    issuer: 'parkit',
    audience: 'parkit-enforcement',
    algorithms: ['EdDSA'],
    typ: 'parkit-proof+jwt',
    currentDate: now,
  });

describe('GET /api/Parking/ProofKeys', () => {
  it('publishes one Ed25519 public key with its id, and no private part', async () => {
    const { keys } = await keySet();
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig' });
    expect(keys[0]!.kid).toMatch(/^[\w-]{43}$/);
    expect(keys[0]).not.toHaveProperty('d');
  });

  it('keeps the key made on first start in the data folder, readable by the owner only', async () => {
    const file = join(dataDir, 'proof-signing-key.pem');
    expect(existsSync(file)).toBe(true);
    expect(statSync(file).mode & 0o077).toBe(0);
    // The next start reads it back: the same key id.
    expect((await loadSigningKey({ dataDir })).kid).toBe((await keySet()).keys[0]!.kid);
  });

  it('takes the key from configuration when one is given', async () => {
    const pem = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    const before = readFileSync(join(dataDir, 'proof-signing-key.pem'), 'utf8');
    const configured = await loadSigningKey({ pem, dataDir });
    expect(configured.kid).not.toBe((await keySet()).keys[0]!.kid);
    expect(configured.publicJwk.x).toBe((await exportJWK(createPublicKey(createPrivateKey(pem)))).x);
    // The data folder's key is left as it was.
    expect(readFileSync(join(dataDir, 'proof-signing-key.pem'), 'utf8')).toBe(before);
  });
});

describe('GET /api/Parking/Session/{id}/Proof', () => {
  it('signs the plate, zone and paid end time, verifiable with the published keys alone', async () => {
    const res = await proofOf(session.SessionId);
    expect(res.statusCode, res.body).toBe(200);
    const proof = res.json<ParkingProof>();
    expect(proof).toMatchObject({
      SessionId: session.SessionId,
      PlateNumber: 'PRF 101',
      PlateState: 'TX',
      ZoneNumber: '7301',
      EndsAt: session.EndsAt,
    });
    const keys = await keySet();
    expect(decodeProtectedHeader(proof.Token)).toEqual({ alg: 'EdDSA', typ: 'parkit-proof+jwt', kid: proof.KeyId });
    const { payload } = await verify(proof.Token, keys);
    expect(payload).toMatchObject({
      plate: 'PRF 101',
      st: 'TX',
      zone: '7301',
      sub: String(session.SessionId),
      exp: Math.floor(Date.parse(session.EndsAt) / 1000),
    });
    // After the paid end the same token no longer verifies.
    await expect(verify(proof.Token, keys, new Date(Date.parse(session.EndsAt) + 1000))).rejects.toThrow(/exp/);
  });

  it('a changed claim or another key does not verify', async () => {
    const { Token } = (await proofOf(session.SessionId)).json<ParkingProof>();
    const [h, p, s] = Token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown>;
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...claims, plate: 'OTHER 1' })).toString('base64url')}.${s}`;
    await expect(verify(forged, await keySet())).rejects.toThrow(/signature/);
    // A key set without the signing key (another server's, made in memory).
    const stranger = await loadSigningKey({});
    await expect(verify(Token, { keys: [stranger.publicJwk] as ProofKeySet['keys'] })).rejects.toThrow();
  });

  it("another member's session is not found, and nothing is signed for it", async () => {
    const res = await proofOf(session.SessionId, bob);
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('eyJ');
  });
});
