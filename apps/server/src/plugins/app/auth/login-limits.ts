import type { FastifyInstance } from 'fastify';
import { MESSAGES } from '@parkit/contract';
import { tooManyRequests } from '../../../lib/http-error.ts';
import type { Executor } from '../../../db/client.ts';
import * as backoff from './backoff-repository.ts';
import * as rate from './rate-limit-repository.ts';

/** Fixed-window limits per address on sending codes and registering (issue 2). */
export const LIMITS = {
  /** Code checks per address where no account exists yet to back off on (Quick Park's Verify). */
  loginAddress: { bucket: 'login:address', limit: 60, windowSeconds: 15 * 60 },
  codeAddress: { bucket: 'code:address', limit: 20, windowSeconds: 60 * 60 },
  registerAddress: { bucket: 'register:address', limit: 20, windowSeconds: 60 * 60 },
} as const;

/**
 * Failed sign-ins and wrong codes: sliding window, exponential back-off (issue 8, item 8).
 * - account: wrong passwords for one account from a device it has not signed in on;
 * - device: wrong passwords from a device the account signed in on before (its device cookie),
 *   so a stranger's failures never lock the owner's own device out;
 * - address: every failure from one address, whatever the account (scaled by
 *   ADDRESS_RATE_LIMIT_SCALE for test runs from one address);
 * - phone: wrong codes for one phone across all its codes (item 1).
 */
export const BACKOFF = {
  account: { bucket: 'login:account', free: 5, baseSeconds: 30, maxSeconds: 15 * 60, windowSeconds: 15 * 60 },
  device: { bucket: 'login:device', free: 10, baseSeconds: 30, maxSeconds: 15 * 60, windowSeconds: 15 * 60 },
  address: { bucket: 'login:address', free: 50, baseSeconds: 30, maxSeconds: 15 * 60, windowSeconds: 15 * 60 },
  phone: { bucket: 'otp:phone', free: 10, baseSeconds: 60, maxSeconds: 60 * 60, windowSeconds: 60 * 60 },
} as const satisfies Record<string, backoff.Backoff>;

/** A per-address limit, scaled for test runs that all come from one address. */
export function enforceAddress(app: FastifyInstance, limit: rate.Limit, address: string): Promise<void> {
  return enforce(app.db, { ...limit, limit: limit.limit * app.addressLimitScale }, address);
}

export async function enforce(db: Executor, limit: rate.Limit, key: string): Promise<void> {
  const wait = await rate.hit(db, limit, key);
  if (wait > 0) throw tooManyRequests(MESSAGES.tooManyAttempts, wait);
}

const scaled = (app: FastifyInstance, b: backoff.Backoff) => ({ ...b, free: b.free * app.addressLimitScale });

/**
 * Before a sign-in or code check: 429 while the address is locked, and one attempt counted on each
 * key (atomically, before the check, so a burst cannot slip past; `forgive` them on success).
 */
export async function attempt(app: FastifyInstance, ip: string, ...keys: [backoff.Backoff, string][]): Promise<void> {
  let wait = await backoff.lockedFor(app.db, BACKOFF.address.bucket, ip);
  if (wait === 0) {
    for (const [b, key] of keys) wait = Math.max(wait, await backoff.attempt(app.db, b, key));
  }
  if (wait > 0) throw tooManyRequests(MESSAGES.tooManyAttempts, wait);
}

/** A failed check: counted against the address (only failures count there). */
export async function failed(app: FastifyInstance, ip: string): Promise<void> {
  await backoff.attempt(app.db, scaled(app, BACKOFF.address), ip);
}

/** The attempt succeeded: forget the failures of these keys. */
export async function forgive(app: FastifyInstance, ...keys: [backoff.Backoff, string][]): Promise<void> {
  for (const [b, key] of keys) await backoff.forgive(app.db, b.bucket, key);
}
