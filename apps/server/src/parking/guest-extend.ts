import {
  formatMoney,
  PARKING_MESSAGES,
  QUICK_PARK_MESSAGES,
  type GuestExtendQuote,
  type ParkingSession,
} from '@parkit/contract';
import { eq } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.ts';
import { parkingQuotes, parkingSessions, zones } from '../db/schema/index.ts';
import { badRequest, conflict, HttpError, notFound } from '../lib/http-error.ts';
import { enqueue } from '../infra/outbox-repository.ts';
import { guestLanguage } from '../infra/recipient-language.ts';
import { expressCard, markRecorded, type ChargeContext, type WalletCharge } from '../wallet/index.ts';
import {
  cardChargePending,
  claimCardCharge,
  claimRefunds,
  recordCardPayment,
  releaseRefunds,
  sendCardCharge,
  sendRefunds,
} from './card-payments.ts';
import { guestQuoteView, insertGuestQuote } from './guest-quote.ts';
import { priorStart, releaseQuote, replayStart, tokenHash } from './guest-service.ts';
import { guestExtendedSms } from './sms-texts.ts';
import { policyOfSession } from '../pricing/index.ts';
import { priceMore } from './pricing.ts';
import { claimQuote } from './quote-service.ts';
import * as sessions from './session-repository.ts';

const MINUTE = 60_000;

/**
 * Quick Park Extend: a guest with the SMS link buys more minutes of a running session,
 * priced from its current end at its rate, up to the maximum stay, and paid by the same card;
 * a session an express wallet paid keeps no card (ExpressRequired), so its Extend brings a new
 * express payment (ExpressToken).
 */
export async function quoteGuestExtend(
  db: Db,
  phone: string,
  r: { SessionId: number; DurationMinutes: number },
  now: Date,
): Promise<GuestExtendQuote> {
  const found = await sessions.findOwned(db, { guestPhone: phone }, r.SessionId);
  if (!found) throw notFound();
  const { session: s, zone, timezone } = found;
  if (s.status !== 'active' || s.endsAt.getTime() <= now.getTime())
    throw conflict('SessionId', PARKING_MESSAGES.sessionEnded);
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
  return { ...guestQuoteView(q, s.rateCents, price, room), ExpressRequired: s.cardRef === null };
}

/**
 * Spends a guest's extension quote once (one UPDATE claims it) and writes the charge of the
 * session's card down as pending, with the session row locked, in one short transaction; charges
 * the card after COMMIT (the quote is the provider's idempotency key); then moves the end in
 * another (recordGuestExtend). One extension of a session is paid at a time: another quote is
 * stale until it is recorded. A decline releases the quote.
 *
 * The card is the session's, or, for a session an express wallet paid (it keeps none), the
 * one-time card of `ExpressToken`, checked by the provider before anything is claimed; neither is a
 * 400 on ExpressToken and changes nothing. With an Idempotency-Key (`idempotencyKey`), the same
 * request sent again answers with the session once the first one's charge is recorded.
 */
export async function extendGuest(
  ctx: ChargeContext,
  phone: string,
  r: { QuoteId: string; ExpressToken?: string | undefined },
  now: Date,
  idempotencyKey: string | null = null,
): Promise<ParkingSession> {
  const express = r.ExpressToken === undefined ? null : (await expressCard(ctx, r.ExpressToken)).card.providerRef;
  const claimed = await ctx.db
    .transaction(async (tx) => {
      const q = await claimQuote(tx, { guestPhone: phone }, r.QuoteId, 'extend', now);
      if (q.sessionId === null) throw notFound();
      const found = await sessions.lockOwned(tx, { guestPhone: phone }, q.sessionId);
      if (!found) throw notFound();
      const { session: s, zone } = found;
      if (s.status !== 'active' || s.endsAt.getTime() <= now.getTime())
        throw conflict('SessionId', PARKING_MESSAGES.sessionEnded);
      if (s.endsAt.getTime() !== q.startsAt.getTime() || (await extensionPending(tx, s.id)))
        throw conflict('QuoteId', PARKING_MESSAGES.quoteStale);
      if (s.durationMinutes + q.durationMinutes > zone.maxStayMinutes)
        throw conflict('DurationMinutes', PARKING_MESSAGES.maxStayReached);
      // Thrown inside the transaction, so the quote's claim is undone with it.
      const card = express ?? s.cardRef;
      if (!card) throw badRequest('ExpressToken', QUICK_PARK_MESSAGES.expressRequired);
      const charge = await claimCardCharge(tx, ctx, {
        kind: 'quick-park-extend',
        quoteId: q.id,
        // Another card for the same quote (after a decline) is another charge at the provider.
        providerKey: express ? `quick-park:${q.id}:${tokenHash(card)}` : `quick-park:${q.id}`,
        amountCents: q.totalCents,
        description: `ParkIt zone ${zone.zoneNumber} (extension)`,
        providerRef: card,
        // The session's saved card is charged off-session under its customer (Stripe).
        customerRef: express ? null : s.cardCustomerRef,
        idempotencyKey,
      });
      return { charge, sessionId: s.id };
    })
    .catch(async (err: unknown) => {
      // The quote spent already: by the first request with this Idempotency-Key, answer its session.
      const prior =
        err instanceof HttpError && err.statusCode === 409 && idempotencyKey !== null
          ? await priorStart(ctx.db, phone, r.QuoteId, idempotencyKey, 'quick-park-extend')
          : undefined;
      if (!prior) throw err;
      return { replay: prior };
    });
  if ('replay' in claimed) return replayStart(ctx, phone, claimed.replay);
  const { chargeRef } = await sendCardCharge(ctx, claimed.charge, releaseQuote);
  const recorded = await ctx.db.transaction(async (tx) => {
    const charge = await markRecorded(tx, claimed.charge.id, chargeRef);
    return charge ? recordGuestExtend(tx, ctx, charge, chargeRef, now) : null;
  });
  if (recorded?.refunds.length) {
    // The session ended while its card was charged: the extension goes back to the card.
    const sent = await sendRefunds(ctx, recorded.refunds);
    if (!sent.ok) await ctx.db.transaction((tx) => releaseRefunds(tx, sent.refused));
    throw conflict('SessionId', PARKING_MESSAGES.sessionEnded);
  }
  const found = await sessions.findOwned(ctx.db, { guestPhone: phone }, claimed.sessionId);
  if (!found) throw new Error('guest session vanished');
  return sessions.toSessionView(found, new Date());
}

/** Whether an extension of the session is being charged (claimed, not yet recorded). */
const extensionPending = (tx: Tx, sessionId: number) =>
  cardChargePending(tx, 'quick-park-extend', (pq) => eq(pq.sessionId, sessionId));

/**
 * The record of an extension charge, in the transaction that marked it recorded: the card payment
 * written, the session's end moved and the receipt texted, with the session row locked. When the
 * session ended meanwhile (Stop, or its time ran out), the payment is claimed back as a refund
 * instead, returned for the caller to send (the wallet job sends it when the caller is the job).
 */
export async function recordGuestExtend(
  tx: Tx,
  ctx: ChargeContext,
  charge: WalletCharge,
  chargeRef: string,
  now: Date,
): Promise<{ refunds: WalletCharge[] }> {
  const [q] = charge.quoteId ? await tx.select().from(parkingQuotes).where(eq(parkingQuotes.id, charge.quoteId)) : [];
  if (!q?.sessionId) throw new Error(`charge ${charge.id} has no extension quote`);
  const [s] = await tx.select().from(parkingSessions).where(eq(parkingSessions.id, q.sessionId)).for('update');
  if (!s) throw new Error(`quote ${q.id} has no session`);
  await recordCardPayment(tx, s.id, chargeRef, charge.amountCents);
  if (s.status !== 'active' || s.endsAt.getTime() !== q.startsAt.getTime()) {
    // Paid and given back: the session's sums show both.
    await sessions.updateSession(tx, s.id, {
      parkingCents: s.parkingCents + q.parkingCents,
      refundedCents: s.refundedCents + charge.amountCents,
      updatedAt: now,
    });
    return { refunds: await claimRefunds(tx, ctx, s.id, charge.amountCents, now) };
  }
  const [zone] = await tx.select({ zoneNumber: zones.zoneNumber }).from(zones).where(eq(zones.id, s.zoneId));
  await sessions.updateSession(tx, s.id, {
    endsAt: new Date(s.endsAt.getTime() + q.durationMinutes * MINUTE),
    durationMinutes: s.durationMinutes + q.durationMinutes,
    parkingCents: s.parkingCents + q.parkingCents,
    reminderSentAt: null,
    updatedAt: now,
  });
  const to = s.guestPhone ?? q.guestPhone;
  if (to)
    await enqueue(
      tx,
      'sms',
      to,
      guestExtendedSms(
        { plate: s.plate, zone_number: zone?.zoneNumber ?? '' },
        `$${formatMoney(charge.amountCents / 100)}`,
        q.durationMinutes,
      )[await guestLanguage(tx, to)],
    );
  return { refunds: [] };
}
