import { AMEND_WINDOW_MINUTES, PARKING_MESSAGES } from '@parkit/contract';
import type { Executor } from '../db/client.ts';
import { badRequest, conflict, notFound } from '../lib/http-error.ts';
import { operatorOfMember } from '../zones/index.ts';
import * as zones from '../zones/index.ts';
import { policyForStart } from '../pricing/index.ts';
import { priceOf } from './pricing.ts';
import type { SessionRow } from './session-repository.ts';

const MINUTE = 60_000;

/** The end of a session's amend window: 5 minutes after its start. */
export const amendableUntil = (s: Pick<SessionRow, 'startedAt'>) =>
  new Date(s.startedAt.getTime() + AMEND_WINDOW_MINUTES * MINUTE);

/** 409 unless the session is running and inside its amend window (AmendQuote and Amend). */
export function checkAmendable(s: Pick<SessionRow, 'status' | 'endsAt' | 'startedAt'>, now: Date): void {
  if (s.status !== 'active' || s.endsAt.getTime() <= now.getTime())
    throw conflict('SessionId', PARKING_MESSAGES.sessionEnded);
  if (now.getTime() > amendableUntil(s).getTime()) throw conflict('SessionId', PARKING_MESSAGES.amendTooLate);
}

/**
 * The zone a session may be amended into (one of the member's operator's, 404 otherwise; 400 when
 * the session is longer than its maximum stay) and the whole session priced again there at the
 * session's discount: what AmendQuote shows and Amend charges or refunds the difference of.
 */
export async function amendableZone(
  db: Executor,
  memberId: number,
  s: Pick<SessionRow, 'startedAt' | 'durationMinutes' | 'discountPercent'>,
  zoneId: number,
) {
  const operator = await operatorOfMember(db, memberId);
  const zone = operator && (await zones.byId(db, operator.id, zoneId));
  if (!operator || !zone) throw notFound();
  if (zone.retiredAt) throw conflict('ZoneId', PARKING_MESSAGES.zoneRetired);
  if (s.durationMinutes > zone.maxStayMinutes) throw badRequest('ZoneId', PARKING_MESSAGES.maxStay);
  // The policy the new zone had when the session started: the session is priced as if it had started there.
  const policy = await policyForStart(db, zone, s.startedAt);
  const price = priceOf(policy, operator.timezone, s.startedAt, 0, s.durationMinutes, s.discountPercent);
  if (price.overMaxStay) throw badRequest('ZoneId', PARKING_MESSAGES.maxStay);
  return { operator, zone, price };
}
