import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { hash as argon2Hash, verify as argon2Verify } from '@node-rs/argon2';
import { dictionary } from '@zxcvbn-ts/language-common';

/**
 * argon2id with OWASP's recommended parameters (Password Storage Cheat Sheet: m=19 MiB, t=2,
 * p=1). @node-rs/argon2 hashes on libuv's thread pool, off the event loop, and ships its binary
 * as an npm package (no install script; docs/architecture.md#libraries-and-their-traps). The parameters live in the PHC string, so they
 * can be raised later: `needsRehash` tells sign-in to re-hash an older hash.
 */
export const ARGON2 = {
  algorithm: 2 /* Argon2id */,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
  outputLen: 32,
} as const;
const CURRENT = `$argon2id$v=19$m=${ARGON2.memoryCost},t=${ARGON2.timeCost},p=${ARGON2.parallelism}$`;

export function hashPassword(password: string): Promise<string> {
  return argon2Hash(password.normalize('NFKC'), ARGON2);
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  if (stored.startsWith('$argon2id$')) {
    try {
      return await argon2Verify(stored, password.normalize('NFKC'));
    } catch {
      return false;
    }
  }
  if (stored.startsWith('scrypt$')) return verifyScrypt(password, stored);
  return false;
}

/** A hash made with older parameters (or scrypt): re-hash it with the password just verified. */
export const needsRehash = (stored: string) => !stored.startsWith(CURRENT);

/** A hash to compare against when the account does not exist, so timing does not tell. */
export const DUMMY_HASH = await hashPassword(randomBytes(12).toString('hex'));

// The list of common passwords zxcvbn ships (~49,000; those of 8+ characters matter here).
const COMMON = new Set(dictionary['passwords-common'].filter((p) => p.length >= 8));

/** A password on the shipped list of common passwords (case-insensitive), refused for new passwords. */
export const isCommonPassword = (password: string) => COMMON.has(password.normalize('NFKC').toLowerCase());

// Hashes made before issue 8: node's scrypt, N=2^14. Verified, then re-hashed with argon2id.
function verifyScrypt(password: string, stored: string): Promise<boolean> {
  const [, n, r, p, salt, key] = stored.split('$');
  if (!salt || !key) return Promise.resolve(false);
  const expected = Buffer.from(key, 'base64url');
  const opts: ScryptOptions = { N: Number(n), r: Number(r), p: Number(p), maxmem: 64 * 1024 * 1024 };
  return new Promise((resolve) =>
    scryptCb(password.normalize('NFKC'), Buffer.from(salt, 'base64url'), expected.length || 32, opts, (err, actual) =>
      resolve(!err && actual.length === expected.length && expected.length > 0 && timingSafeEqual(actual, expected)),
    ),
  );
}
