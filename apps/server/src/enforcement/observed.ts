import { ENFORCEMENT_MESSAGES } from '@parkit/contract';
import { badRequest } from '../lib/http-error.ts';

/** What an officer saw offline may be sent this late (the Idempotency-Key is kept 24 hours from its first use, which is later). */
export const OBSERVED_MAX_AGE_MS = 24 * 60 * 60 * 1000;
/** A device's clock may run this far ahead. */
const OBSERVED_SKEW_MS = 60 * 1000;

/**
 * The moment an officer saw a plate, sent later from the device's offline queue (a citation, a
 * chalk; docs/enforcement.md#offline): null when absent (now); refused (400) when it is more than a
 * minute ahead of the server's clock, or more than 24 hours ago (`tooOld`, the caller's message).
 * A moment ahead within the skew counts as now.
 */
export function observedMoment(observedAt: string | undefined, now: Date, tooOld: string): Date | null {
  if (observedAt === undefined) return null;
  const observed = new Date(observedAt);
  if (observed.getTime() > now.getTime() + OBSERVED_SKEW_MS)
    throw badRequest('ObservedAt', ENFORCEMENT_MESSAGES.observedInFuture);
  if (observed.getTime() < now.getTime() - OBSERVED_MAX_AGE_MS) throw badRequest('ObservedAt', tooOld);
  return observed < now ? observed : now;
}
