import type { FastifyInstance } from 'fastify';
import { MESSAGES } from '@parkit/contract';
import { tooManyRequests } from '../lib/http-error.ts';
import type { Executor } from '../db/client.ts';
import * as backoff from './backoff-repository.ts';
import * as rate from '../infra/rate-limits/rate-limit-repository.ts';

/*
 * The exact rate limits of sign-in, codes and registration: fixed windows (hit(),
 * infra/rate-limits/rate-limit-repository.ts) and back-off with reservations (backoff-repository.ts), each a
 * statement in the database before the act. Why these are not the request limit of
 * plugins/rate-limit.ts: docs/decisions/011-two-rate-limits.md.
 */

/** Fixed-window limits per address on sending codes and registering. */
export const LIMITS = {
  /** Code checks per address where no account exists yet to back off on (Quick Park's Verify). */
  loginAddress: { bucket: 'login:address', limit: 60, windowSeconds: 15 * 60 },
  codeAddress: { bucket: 'code:address', limit: 20, windowSeconds: 60 * 60 },
  registerAddress: { bucket: 'register:address', limit: 20, windowSeconds: 60 * 60 },
} as const;

/**
 * Failed sign-ins and wrong codes: sliding window, exponential back-off.
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

/** How long a check waits for the checks under way of the same key before it is refused. */
export const BUSY_WAIT_MS = 5000;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A sign-in or code check under back-off: 429 while the address or the key is locked. The check
 * runs on one reservation of the key, made atomically before it (checks under way count as
 * failures, so a burst cannot slip past the limit) and settled by its outcome: `true` forgets the
 * key's failures, `false` counts a failure against the key and the address. When the checks
 * under way leave no room, it waits for them to settle (a burst of right passwords from one
 * account all succeed) instead of refusing; a burst of wrong ones locks the key meanwhile.
 */
export async function underBackoff(
  app: FastifyInstance,
  ip: string,
  [b, key]: [backoff.Backoff, string],
  check: () => Promise<boolean>,
): Promise<boolean> {
  const addressWait = await backoff.lockedFor(app.db, BACKOFF.address.bucket, ip);
  if (addressWait > 0) throw tooManyRequests(MESSAGES.tooManyAttempts, addressWait);
  const deadline = Date.now() + BUSY_WAIT_MS;
  for (;;) {
    const r = await backoff.attempt(app.db, b, key);
    if (r.go) break;
    if ('wait' in r) throw tooManyRequests(MESSAGES.tooManyAttempts, r.wait);
    if (Date.now() > deadline) throw tooManyRequests(MESSAGES.tooManyAttempts, 1);
    await pause(10 + Math.random() * 40);
  }
  let ok: boolean;
  try {
    ok = await check();
  } catch (err) {
    await backoff.settle(app.db, b, key, 'released');
    throw err;
  }
  await backoff.settle(app.db, b, key, ok ? 'ok' : 'failed');
  // Only failures count against the address.
  if (!ok) await backoff.countFailure(app.db, scaled(app, BACKOFF.address), ip);
  return ok;
}
