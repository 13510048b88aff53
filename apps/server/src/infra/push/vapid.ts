import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import webpush from 'web-push';

/**
 * Web Push's VAPID key pair (RFC 8292), as the proof of payment's signing key is kept
 * (infra/signing-keys.ts): from configuration, else made on first start and kept in the data
 * folder (never in the repository), else, without a data folder (a test app), in memory. Every
 * process of a deployment needs the same pair: a browser subscribed with one public key refuses
 * pushes signed by another (docs/operations.md#web-push).
 */
export interface VapidKeys {
  /** base64url of the 65-byte uncompressed P-256 point: the browser's applicationServerKey. */
  publicKey: string;
  /** base64url of the 32-byte private scalar. */
  privateKey: string;
}

export const VAPID_KEY_FILE = 'vapid-keys.json';

const isKeys = (v: unknown): v is VapidKeys =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as VapidKeys).publicKey === 'string' &&
  typeof (v as VapidKeys).privateKey === 'string';

export function loadVapidKeys(opts: { publicKey?: string; privateKey?: string; dataDir?: string }): VapidKeys {
  if (opts.publicKey && opts.privateKey) return { publicKey: opts.publicKey, privateKey: opts.privateKey };
  const file = opts.dataDir ? join(opts.dataDir, VAPID_KEY_FILE) : null;
  if (file && existsSync(file)) {
    const kept: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (!isKeys(kept)) throw new Error(`${file} does not hold a VAPID key pair`);
    return { publicKey: kept.publicKey, privateKey: kept.privateKey };
  }
  const made = webpush.generateVAPIDKeys();
  if (file && opts.dataDir) {
    mkdirSync(opts.dataDir, { recursive: true });
    writeFileSync(file, JSON.stringify({ publicKey: made.publicKey, privateKey: made.privateKey }), { mode: 0o600 });
  }
  return { publicKey: made.publicKey, privateKey: made.privateKey };
}
