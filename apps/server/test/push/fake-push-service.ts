import { execFileSync } from 'node:child_process';
import { createDecipheriv, createECDH, createHmac, createPublicKey, randomBytes, verify, type ECDH } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A stand-in push service on 127.0.0.1 speaking RFC 8030 (a push message is a POST of the
 * encrypted body to the subscription's endpoint, answered 201; 404/410 mean the subscription is
 * gone), over HTTPS with a certificate made for the test, and a browser's side of a subscription
 * (RFC 8291: its P-256 key pair and 16-byte auth secret) that decrypts what arrived. Real push
 * services are not reachable from here; this checks the bytes a real one would forward.
 */
export interface PushRequest {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export interface FakePushService {
  /** The https origin; endpoints are `${origin}/push/<id>`. */
  origin: string;
  /** Its certificate (PEM), to trust as WEB_PUSH_CA. */
  ca: string;
  requests: PushRequest[];
  /** What the service answers a path with (default 201). */
  answer(path: string, status: number): void;
  close(): Promise<void>;
}

/** A self-signed certificate for 127.0.0.1 (openssl, as the test machine has it). */
function certificate(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'parkit-push-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function fakePushService(
  /** onRequest: called as each push arrives; delayMs: how long each answer takes. */
  opts: { onRequest?: (r: PushRequest) => void; delayMs?: number } = {},
): Promise<FakePushService> {
  const { key, cert } = certificate();
  const requests: PushRequest[] = [];
  const answers = new Map<string, number>();
  const server: Server = createServer({ key, cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '';
      if (req.method !== 'POST') {
        res.writeHead(405).end();
        return;
      }
      const pushed = { path, headers: req.headers, body: Buffer.concat(chunks) };
      requests.push(pushed);
      opts.onRequest?.(pushed);
      const status = answers.get(path) ?? 201;
      const n = requests.length;
      setTimeout(
        () => res.writeHead(status, status === 201 ? { location: `${path}/messages/${n}` } : {}).end(),
        opts.delayMs ?? 0,
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `https://127.0.0.1:${port}`,
    ca: cert,
    requests,
    answer: (path, status) => answers.set(path, status),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A browser's subscription keys, as PushManager.subscribe() makes them. */
export interface BrowserKeys {
  ecdh: ECDH;
  auth: Buffer;
  /** What PushSubscription.toJSON() sends: keys.p256dh and keys.auth, base64url. */
  json: { p256dh: string; auth: string };
}

export function browserKeys(): BrowserKeys {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return { ecdh, auth, json: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') } };
}

const hmac = (key: Buffer, data: Buffer) => createHmac('sha256', key).update(data).digest();

/**
 * Decrypts an aes128gcm push message body (RFC 8188's header, RFC 8291's keys) with the browser's
 * private key and auth secret, written out from the RFCs rather than with web-push's own code.
 */
export function decryptPush(body: Buffer, keys: BrowserKeys): string {
  const salt = body.subarray(0, 16);
  const rs = body.readUInt32BE(16);
  const idlen = body[20]!;
  const serverPublic = body.subarray(21, 21 + idlen);
  const ciphertext = body.subarray(21 + idlen);
  if (ciphertext.length > rs) throw new Error('more than one record');
  const uaPublic = keys.ecdh.getPublicKey();
  const ecdhSecret = keys.ecdh.computeSecret(serverPublic);
  // Web Push's input keying material: from the ECDH secret and the auth secret.
  const prkKey = hmac(keys.auth, ecdhSecret);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), uaPublic, serverPublic, Buffer.from([1])]);
  const ikm = hmac(prkKey, keyInfo);
  // aes128gcm's content encryption key and nonce, from the salt.
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0\x01', 'binary')).subarray(0, 16);
  const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0\x01', 'binary')).subarray(0, 12);
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  // The last record: the data, the delimiter 0x02, then zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error('no last-record delimiter');
  return padded.subarray(0, end).toString('utf8');
}

/**
 * Checks the VAPID authorization (RFC 8292): `vapid t=<JWT>, k=<public key>`, the JWT signed with
 * ES256 by that key, for the push service's origin. Answers the key and the JWT's claims.
 */
export function checkVapid(authorization: string | undefined): { k: string; claims: Record<string, unknown> } {
  const m = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization ?? '');
  if (!m) throw new Error(`not a vapid authorization: ${authorization}`);
  const [, jwt, k] = m as unknown as [string, string, string];
  const [h, p, s] = jwt.split('.') as [string, string, string];
  const header = JSON.parse(Buffer.from(h, 'base64url').toString()) as { alg: string };
  if (header.alg !== 'ES256') throw new Error(`alg ${header.alg}`);
  const point = Buffer.from(k, 'base64url');
  const key = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33, 65).toString('base64url'),
    },
    format: 'jwk',
  });
  const ok = verify(
    'sha256',
    Buffer.from(`${h}.${p}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(s, 'base64url'),
  );
  if (!ok) throw new Error('the VAPID signature does not verify');
  return { k, claims: JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown> };
}
