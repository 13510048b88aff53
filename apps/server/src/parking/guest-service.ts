import { createHash } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import {
  PARKING_MESSAGES,
  QUICK_PARK_MESSAGES,
  formatMoney,
  type ParkingSession,
  WALLET_MESSAGES,
} from '@parkit/contract';
import type { Executor, Tx } from '../db/client.ts';
import { parkingCardPayments, parkingQuotes, parkingSessions, walletCharges, zones } from '../db/schema/index.ts';
import { badRequest, conflict, HttpError, notFound } from '../lib/http-error.ts';
import { enqueue } from '../infra/outbox-repository.ts';
import { guestLanguage } from '../infra/recipient-language.ts';
import { expressCard, markRecorded, type ChargeContext, type WalletCharge } from '../wallet/index.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { cardChargePending, claimCardCharge, recordCardPayment, sendCardCharge } from './card-payments.ts';
import * as sessions from './session-repository.ts';
import { guestPaidSms } from './sms-texts.ts';

/**
 * Start for a guest, on the wallet's one card path (card-payments.ts): claims the quote and writes
 * the charge down as pending in one short transaction, charges the card after COMMIT (no lock is
 * held during the provider's call; the provider key names the quote and the card, so a retry
 * cannot charge twice), then opens the session and texts the receipt, with a link that opens it
 * without an account, in another. A decline releases the quote: it can be paid with another card.
 * When the process dies after the charge, the wallet job records it (quickParkChargeHandlers).
 *
 * `idempotencyKey` (the request's Idempotency-Key, null without one) is written on the charge: the
 * same quote sent again with the same key (a double tap, a retry after a lost answer) answers with
 * the session the first request opened (waiting for it while its card charge is under way) rather
 * than "This price has expired".
 */
export async function startGuest(
  ctx: ChargeContext,
  phone: string,
  r: { QuoteId: string; CardToken?: string | undefined; ExpressToken?: string | undefined },
  link: GuestLink,
  now: Date,
  idempotencyKey: string | null = null,
): Promise<ParkingSession> {
  // An express wallet's one-time card is checked before anything is claimed (400 on ExpressToken).
  const express = r.ExpressToken !== undefined;
  const cardToken = express ? (await expressCard(ctx, r.ExpressToken!)).card.providerRef : r.CardToken;
  if (!cardToken) throw badRequest('CardToken', QUICK_PARK_MESSAGES.cardTokenRequired);
  const claimed = await ctx.db.transaction(async (tx): Promise<WalletCharge | { replay: PriorStart }> => {
    // One Start of this phone at a time, so the busy checks below see every plate it is paying for.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`quick-park:${phone}`}, 0))`);
    const [q] = await tx
      .update(parkingQuotes)
      .set({ usedAt: now })
      .where(
        and(
          eq(parkingQuotes.id, r.QuoteId),
          eq(parkingQuotes.guestPhone, phone),
          eq(parkingQuotes.kind, 'start'),
          isNull(parkingQuotes.usedAt),
          sql`${parkingQuotes.expiresAt} > ${now}`,
        ),
      )
      .returning();
    if (!q) {
      const prior = idempotencyKey === null ? undefined : await priorStart(tx, phone, r.QuoteId, idempotencyKey);
      if (!prior) throw conflict('QuoteId', PARKING_MESSAGES.quoteExpired);
      return { replay: prior };
    }
    const [zone] = await tx.select().from(zones).where(eq(zones.id, q.zoneId));
    if (!zone || !q.plate || !q.plateState) throw notFound();
    const { plate, plateState } = q;
    await closeExpiredGuestPlate(tx, phone, plate, plateState, now);
    // A plate whose card another Start is charging (its session opens when it is recorded), then
    // a parked plate, in that order: each statement reads its own snapshot, and the other Start's
    // commit turns its charge to recorded and opens its session at once, so one of the two reads
    // sees it (read the other way round, a commit between them hid both, and the card was charged
    // for a session that could not open). The unique index is the backstop.
    const paying = await cardChargePending(tx, 'quick-park-start', (pq) =>
      and(eq(pq.guestPhone, phone), eq(pq.plate, plate), eq(pq.plateState, plateState)),
    );
    if (paying) throw vehicleBusy();
    const [busy] = await tx
      .select({ id: parkingSessions.id })
      .from(parkingSessions)
      .where(
        and(
          eq(parkingSessions.guestPhone, phone),
          isNull(parkingSessions.memberId),
          eq(parkingSessions.plate, plate),
          eq(parkingSessions.plateState, plateState),
          eq(parkingSessions.status, 'active'),
        ),
      );
    if (busy)
      throw new HttpError(409, PARKING_MESSAGES.vehicleBusy, [
        { field: 'PlateNumber', message: `${PARKING_MESSAGES.vehicleBusy} (session ${busy.id})` },
      ]);
    return claimCardCharge(tx, ctx, {
      kind: 'quick-park-start',
      quoteId: q.id,
      providerKey: `${express ? EXPRESS_KEY : 'quick-park:'}${q.id}:${tokenHash(cardToken)}`,
      amountCents: q.totalCents,
      description: `ParkIt zone ${zone.zoneNumber}`,
      providerRef: cardToken,
      idempotencyKey,
      // A typed card pays the extensions too: its first charge saves it (Stripe refuses to charge
      // a PaymentMethod of no customer twice); an express wallet's one-time card is not kept.
      saveCard: !express,
    });
  });
  if ('replay' in claimed) return replayStart(ctx, phone, claimed.replay);
  const { chargeRef, customerRef } = await sendCardCharge(ctx, claimed, releaseQuote);
  const id = await ctx.db.transaction(async (tx) => {
    const charge = await markRecorded(tx, claimed.id, chargeRef, customerRef);
    // Recorded already (the wallet job got there first): its session.
    if (!charge) return sessionOfCharge(tx, chargeRef);
    try {
      return await recordGuestStart(tx, charge, chargeRef, link, now);
    } catch (err) {
      if (isUniqueViolation(err)) throw vehicleBusy();
      throw err;
    }
  });
  const found = await sessions.findOwned(ctx.db, { guestPhone: phone }, id);
  if (!found) throw new Error('guest session vanished');
  return sessions.toSessionView(found, new Date());
}

/**
 * The provider key's prefix of a start an express wallet paid: its one-time card (a Stripe
 * PaymentMethod of no customer, which Stripe refuses to charge twice) is not kept on the session.
 */
const EXPRESS_KEY = 'quick-park-express:';

/** A short digest of a card token, for provider keys: another card for the same quote is another charge. */
export const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex').slice(0, 16);

type PriorStart = { chargeId: number };

/** The start (or extension) charge an earlier request with this Idempotency-Key claimed for this phone's quote, if any. */
export async function priorStart(
  tx: Executor,
  phone: string,
  quoteId: string,
  key: string,
  kind: 'quick-park-start' | 'quick-park-extend' = 'quick-park-start',
): Promise<PriorStart | undefined> {
  const [row] = await tx
    .select({ chargeId: walletCharges.id })
    .from(walletCharges)
    .innerJoin(parkingQuotes, eq(parkingQuotes.id, walletCharges.quoteId))
    .where(
      and(
        eq(walletCharges.quoteId, quoteId),
        eq(walletCharges.kind, kind),
        eq(walletCharges.idempotencyKey, key),
        eq(parkingQuotes.guestPhone, phone),
      ),
    );
  return row;
}

/** How long a repeated Start waits for the first one's card charge before answering "still running". */
const REPLAY_WAIT_MS = 10_000;
const REPLAY_POLL_MS = 100;

/**
 * The answer of a repeated Start (or Extend): the session the first request opened (or extended). While the first request's
 * card charge is under way (the charge still pending) it waits for it, up to REPLAY_WAIT_MS, then
 * answers 409 as a member's repeated key does; a charge the card refused (the row gone, the quote
 * free again) answers "This price has expired" as before, and the quote can be paid again.
 */
export async function replayStart(ctx: ChargeContext, phone: string, prior: PriorStart): Promise<ParkingSession> {
  const until = Date.now() + REPLAY_WAIT_MS;
  for (;;) {
    const [row] = await ctx.db
      .select({ status: walletCharges.status, chargeRef: walletCharges.chargeRef })
      .from(walletCharges)
      .where(eq(walletCharges.id, prior.chargeId));
    if (!row) throw conflict('QuoteId', PARKING_MESSAGES.quoteExpired);
    if (row.status === 'recorded' && row.chargeRef) {
      const found = await sessions.findOwned(
        ctx.db,
        { guestPhone: phone },
        await sessionOfCharge(ctx.db, row.chargeRef),
      );
      if (!found) throw notFound();
      return sessions.toSessionView(found, new Date());
    }
    if (Date.now() >= until) throw new HttpError(409, WALLET_MESSAGES.idempotencyKeyInFlight);
    await new Promise((resolve) => setTimeout(resolve, REPLAY_POLL_MS));
  }
}

/** The receipt's link to a guest's session (it carries a guest token for the phone). */
export type GuestLink = (sessionId: number, phone: string) => string | Promise<string>;

/** The page the receipt links to: the session, opened with the guest token (and registering from there). */
export const receiptLink = (sessionId: number, token: string) =>
  `/QuickParkRegister?session=${sessionId}&token=${encodeURIComponent(token)}`;

const vehicleBusy = () =>
  new HttpError(409, PARKING_MESSAGES.vehicleBusy, [{ field: 'PlateNumber', message: PARKING_MESSAGES.vehicleBusy }]);

/** A start or extension charge refused: its quote is free again (it can be paid with another card). */
export async function releaseQuote(tx: Tx, charge: WalletCharge): Promise<void> {
  if (charge.quoteId === null) return;
  await tx.update(parkingQuotes).set({ usedAt: null }).where(eq(parkingQuotes.id, charge.quoteId));
}

/** The session a recorded card charge paid for. */
async function sessionOfCharge(tx: Executor, chargeRef: string): Promise<number> {
  const [p] = await tx
    .select({ sessionId: parkingCardPayments.sessionId })
    .from(parkingCardPayments)
    .where(eq(parkingCardPayments.chargeRef, chargeRef));
  if (!p) throw new Error(`card charge ${chargeRef} has no session`);
  return p.sessionId;
}

/**
 * The record of a guest's start charge, in the transaction that marked it recorded (markRecorded):
 * the session opened for the quote's plate and time (from `now`), the card payment written and the
 * receipt texted. Returns the session's id.
 */
export async function recordGuestStart(
  tx: Tx,
  charge: WalletCharge,
  chargeRef: string,
  link: GuestLink,
  now: Date,
): Promise<number> {
  const [q] = charge.quoteId ? await tx.select().from(parkingQuotes).where(eq(parkingQuotes.id, charge.quoteId)) : [];
  if (!q?.guestPhone || !q.plate || !q.plateState) throw new Error(`charge ${charge.id} has no guest quote`);
  const [zone] = await tx.select().from(zones).where(eq(zones.id, q.zoneId));
  if (!zone) throw new Error(`quote ${q.id} has no zone`);
  const s = await sessions.insertSession(tx, {
    guestPhone: q.guestPhone,
    operatorId: zone.operatorId,
    zoneId: zone.id,
    vehicleMake: '',
    vehicleModel: '',
    plate: q.plate,
    plateState: q.plateState,
    ...sessions.paidPeriod(q, zone, now),
    feeCents: 0,
    paidVia: 'Card',
    // A typed card pays the extensions too (Extend from the SMS link), off-session under the
    // customer its first charge saved it under (Stripe; none for the sandbox); an express wallet's
    // one-time card is kept nowhere: each extension brings a new one (guest-extend.ts).
    ...(charge.providerKey.startsWith(EXPRESS_KEY)
      ? { cardRef: null, cardCustomerRef: null }
      : { cardRef: charge.providerRef, cardCustomerRef: charge.customerRef }),
  });
  await recordCardPayment(tx, s.id, chargeRef, charge.amountCents);
  const sms = guestPaidSms(
    { plate: q.plate, zone_number: zone.zoneNumber },
    `$${formatMoney(charge.amountCents / 100)}`,
    q.durationMinutes,
    await link(s.id, q.guestPhone),
  );
  await enqueue(tx, 'sms', q.guestPhone, sms[await guestLanguage(tx, q.guestPhone)]);
  return s.id;
}

async function closeExpiredGuestPlate(tx: Tx, phone: string, plate: string, state: string, now: Date) {
  await tx
    .update(parkingSessions)
    .set({ status: 'ended', endedAt: sql`${parkingSessions.endsAt}`, updatedAt: now })
    .where(
      and(
        eq(parkingSessions.guestPhone, phone),
        isNull(parkingSessions.memberId),
        eq(parkingSessions.plate, plate),
        eq(parkingSessions.plateState, state),
        eq(parkingSessions.status, 'active'),
        sql`${parkingSessions.endsAt} <= ${now}`,
      ),
    );
}

/**
 * Registering with a phone that parked with Quick Park: those sessions become the member's
 *, so they show in Active and Past Parkings. Called once the phone is verified.
 */
export async function claimGuestSessions(db: Executor, memberId: number, phone: string): Promise<number> {
  const rows = await db
    .update(parkingSessions)
    .set({ memberId })
    .where(and(eq(parkingSessions.guestPhone, phone), isNull(parkingSessions.memberId)))
    .returning({ id: parkingSessions.id });
  await db
    .update(parkingQuotes)
    .set({ memberId })
    .where(and(eq(parkingQuotes.guestPhone, phone), isNull(parkingQuotes.memberId)));
  return rows.length;
}
