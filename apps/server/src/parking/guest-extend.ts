import { formatMoney, PARKING_MESSAGES, QUICK_PARK_MESSAGES, type ParkingSession, type Quote } from '@parkit/contract';
import type { Db } from '../db/client.ts';
import { conflict, notFound } from '../lib/http-error.ts';
import { enqueue } from '../infra/outbox-repository.ts';
import type { PaymentProvider } from '../wallet/index.ts';
import { chargeCard } from './card-payments.ts';
import { guestQuoteView, insertGuestQuote } from './guest-service.ts';
import { policyOfSession } from '../pricing/index.ts';
import { priceMore } from './pricing.ts';
import { claimQuote } from './quote-service.ts';
import * as sessions from './session-repository.ts';

const MINUTE = 60_000;

/**
 * Quick Park Extend (issue 11): a guest with the SMS link buys more minutes of a running session,
 * priced from its current end at its rate, up to the maximum stay, and paid by the same card.
 */
export async function quoteGuestExtend(
  db: Db,
  phone: string,
  r: { SessionId: number; DurationMinutes: number },
  now: Date,
): Promise<Quote> {
  const found = await sessions.findOwned(db, { guestPhone: phone }, r.SessionId);
  if (!found) throw notFound();
  const { session: s, zone, timezone } = found;
  if (s.status !== 'active' || s.endsAt.getTime() <= now.getTime())
    throw conflict('SessionId', PARKING_MESSAGES.sessionEnded);
  if (!s.cardRef) throw conflict('SessionId', QUICK_PARK_MESSAGES.noCard);
  const policy = await policyOfSession(db, s, zone);
  const room = Math.min(zone.maxStayMinutes, policy.policy.maxStayMinutes) - s.durationMinutes;
  if (room <= 0) throw conflict('DurationMinutes', PARKING_MESSAGES.maxStayReached);
  if (r.DurationMinutes > room) throw conflict('DurationMinutes', PARKING_MESSAGES.maxStay);
  const price = priceMore(policy, timezone, s, r.DurationMinutes);
  if (price.overMaxStay) throw conflict('DurationMinutes', PARKING_MESSAGES.maxStay);
  if (price.parkingCents === 0) throw conflict('DurationMinutes', PARKING_MESSAGES.zoneFree);
  const q = await insertGuestQuote(
    db,
    phone,
    {
      kind: 'extend',
      zoneId: s.zoneId,
      sessionId: s.id,
      plate: s.plate,
      plateState: s.plateState,
      policyVersionId: s.policyVersionId,
    },
    s.endsAt,
    r.DurationMinutes,
    price.parkingCents,
    now,
  );
  return guestQuoteView(q, s.rateCents, price, room);
}

/**
 * Spends a guest's extension quote once (one UPDATE claims it), charges the session's card with
 * the quote as the provider's idempotency key, and moves the end, with the session row locked.
 */
export async function extendGuest(
  db: Db,
  provider: PaymentProvider,
  phone: string,
  r: { QuoteId: string },
  now: Date,
): Promise<ParkingSession> {
  const id = await db.transaction(async (tx) => {
    const q = await claimQuote(tx, { guestPhone: phone }, r.QuoteId, 'extend', now);
    if (q.sessionId === null) throw notFound();
    const found = await sessions.lockOwned(tx, { guestPhone: phone }, q.sessionId);
    if (!found) throw notFound();
    const { session: s, zone } = found;
    if (s.status !== 'active' || s.endsAt.getTime() <= now.getTime())
      throw conflict('SessionId', PARKING_MESSAGES.sessionEnded);
    if (s.endsAt.getTime() !== q.startsAt.getTime()) throw conflict('QuoteId', PARKING_MESSAGES.quoteStale);
    if (s.durationMinutes + q.durationMinutes > zone.maxStayMinutes)
      throw conflict('DurationMinutes', PARKING_MESSAGES.maxStayReached);
    if (!s.cardRef) throw conflict('SessionId', QUICK_PARK_MESSAGES.noCard);
    await chargeCard(tx, provider, {
      sessionId: s.id,
      cardRef: s.cardRef,
      amountCents: q.totalCents,
      description: `ParkIt zone ${zone.zoneNumber} (extension)`,
      idempotencyKey: `quick-park:${q.id}`,
    });
    const endsAt = new Date(s.endsAt.getTime() + q.durationMinutes * MINUTE);
    await sessions.updateSession(tx, s.id, {
      endsAt,
      durationMinutes: s.durationMinutes + q.durationMinutes,
      parkingCents: s.parkingCents + q.parkingCents,
      reminderSentAt: null,
      updatedAt: now,
    });
    await enqueue(
      tx,
      'sms',
      phone,
      `ParkIt: you paid $${formatMoney(q.totalCents / 100)} to extend ${s.plate} in zone ${zone.zoneNumber} by ${q.durationMinutes} minutes.`,
    );
    return s.id;
  });
  const found = await sessions.findOwned(db, { guestPhone: phone }, id);
  if (!found) throw new Error('guest session vanished');
  return sessions.toSessionView(found, new Date());
}
