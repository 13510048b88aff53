import type { FastifyInstance } from 'fastify';
import { MESSAGES } from '@parkit/contract';
import { tooManyRequests } from '../../../lib/http-error.ts';
import type { Executor } from '../../../db/client.ts';
import * as rate from './rate-limit-repository.ts';

/** Login attempts: per account and per address, counted in the database (issue 2). */
export const LIMITS = {
  loginAccount: { bucket: 'login:account', limit: 10, windowSeconds: 15 * 60 },
  loginAddress: { bucket: 'login:address', limit: 60, windowSeconds: 15 * 60 },
  codeAddress: { bucket: 'code:address', limit: 20, windowSeconds: 60 * 60 },
  registerAddress: { bucket: 'register:address', limit: 20, windowSeconds: 60 * 60 },
} as const;

/** A per-address limit, scaled for test runs that all come from one address. */
export function enforceAddress(app: FastifyInstance, limit: rate.Limit, address: string): Promise<void> {
  return enforce(app.db, { ...limit, limit: limit.limit * app.addressLimitScale }, address);
}

export async function enforce(db: Executor, limit: rate.Limit, key: string): Promise<void> {
  const wait = await rate.hit(db, limit, key);
  if (wait > 0) throw tooManyRequests(MESSAGES.tooManyAttempts, wait);
}
