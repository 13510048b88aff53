import { and, eq, isNull, sql } from 'drizzle-orm';
import { PARKING_MESSAGES, QUICK_PARK_MESSAGES, formatMoney, type ParkingSession, type Quote } from '@parkit/contract';
import type { Db, Executor, Tx } from '../db/client.ts';
import { parkingQuotes, parkingSessions, zones } from '../db/schema/index.ts';
import { badRequest, conflict, HttpError, notFound } from '../lib/http-error.ts';
import { enqueue } from '../infra/outbox-repository.ts';
import type { PaymentProvider } from '../wallet/index.ts';
import { defaultOperatorId, operatorById } from '../zones/index.ts';
import { chargeCard, recordCardPayment } from './card-payments.ts';
import { priceOf } from './pricing.ts';
import { insertQuote, quoteTerms, quoteWindow, type QuoteInsert, type QuoteRow } from './quote-rows.ts';
import * as sessions from './session-repository.ts';

/** The zone a guest typed from the sign, of the default operator (Quick Park has no account to say which). */
async function zoneByNumber(db: Executor, zoneNumber: string) {
  const operator = await operatorById(db, await defaultOperatorId(db));
  if (!operator) throw notFound();
  const [zone] = await db
    .select()
    .from(zones)
    .where(and(eq(zones.operatorId, operator.id), eq(zones.zoneNumber, zoneNumber)))
    .limit(1);
  if (!zone) throw badRequest('ZoneNumber', QUICK_PARK_MESSAGES.zoneNotFound);
  if (zone.retiredAt) throw conflict('ZoneNumber', PARKING_MESSAGES.zoneRetired);
  return { zone, operator };
}

/** A Quick Park price: the zone's paid minutes, no plan fee (no account, no plan). */
export async function quoteGuest(
  db: Db,
  phone: string,
  r: { ZoneNumber: string; PlateNumber: string; PlateState: string; DurationMinutes: number },
  now: Date,
): Promise<Quote> {
  const { zone, operator } = await zoneByNumber(db, r.ZoneNumber);
  if (r.DurationMinutes > zone.maxStayMinutes) throw badRequest('DurationMinutes', PARKING_MESSAGES.maxStay);
  const price = priceOf(zone, operator.timezone, now, r.DurationMinutes);
  if (price.paidMinutes === 0) throw conflict('ZoneNumber', PARKING_MESSAGES.zoneFree);
  const q = await insertGuestQuote(
    db,
    phone,
    { kind: 'start', zoneId: zone.id, plate: r.PlateNumber, plateState: r.PlateState },
    now,
    r.DurationMinutes,
    price.parkingCents,
    now,
  );
  return guestQuoteView(q, zone.rateCents, price.paidMinutes, zone.maxStayMinutes);
}

/** A guest's quote row: the card pays the parking alone (no plan, so no fee and no discount). */
export function insertGuestQuote(
  db: Executor,
  phone: string,
  what: Pick<QuoteInsert, 'kind' | 'zoneId' | 'sessionId' | 'plate' | 'plateState'>,
  startsAt: Date,
  minutes: number,
  parkingCents: number,
  now: Date,
): Promise<QuoteRow> {
  return insertQuote(db, {
    guestPhone: phone,
    ...what,
    ...quoteWindow(startsAt, minutes, now),
    parkingCents,
    feeCents: 0,
    totalCents: parkingCents,
  });
}

/** A guest's quote on the wire: no plan (no fee, no discount), a card pays (no balance). */
export function guestQuoteView(q: QuoteRow, rateCents: number, paidMinutes: number, maxMoreMinutes: number): Quote {
  return {
    ...quoteTerms(q, rateCents, paidMinutes, maxMoreMinutes),
    DiscountPercent: 0,
    DiscountAmount: 0,
    FeeAmount: 0,
    Balance: 0,
    BalanceCovers: true,
    AutoReloadCovers: false,
    AutoReloadAmount: 0,
    OverMaxPayment: false,
  };
}

/**
 * Start for a guest: claims the quote, charges the card for its total (the provider's idempotency
 * key is the quote id, so a retry cannot charge twice), opens the session and texts the receipt
 * with a link that opens it without an account.
 */
export async function startGuest(
  db: Db,
  provider: PaymentProvider,
  phone: string,
  r: { QuoteId: string; CardToken: string },
  link: (sessionId: number) => string,
  now: Date,
): Promise<ParkingSession> {
  const id = await db.transaction(async (tx) => {
    const [q] = await tx
      .update(parkingQuotes)
      .set({ usedAt: now })
      .where(
        and(
          eq(parkingQuotes.id, r.QuoteId),
          eq(parkingQuotes.guestPhone, phone),
          isNull(parkingQuotes.usedAt),
          sql`${parkingQuotes.expiresAt} > ${now}`,
        ),
      )
      .returning();
    if (!q) throw conflict('QuoteId', PARKING_MESSAGES.quoteExpired);
    const [zone] = await tx.select().from(zones).where(eq(zones.id, q.zoneId));
    if (!zone || !q.plate || !q.plateState) throw notFound();
    const plate = q.plate;
    await closeExpiredGuestPlate(tx, phone, plate, q.plateState, now);
    // Refuse a parked plate before the card is charged (the unique index is the backstop).
    const [busy] = await tx
      .select({ id: parkingSessions.id })
      .from(parkingSessions)
      .where(
        and(
          eq(parkingSessions.guestPhone, phone),
          isNull(parkingSessions.memberId),
          eq(parkingSessions.plate, plate),
          eq(parkingSessions.plateState, q.plateState),
          eq(parkingSessions.status, 'active'),
        ),
      );
    if (busy)
      throw new HttpError(409, PARKING_MESSAGES.vehicleBusy, [
        { field: 'PlateNumber', message: `${PARKING_MESSAGES.vehicleBusy} (session ${busy.id})` },
      ]);
    const chargeRef = await chargeCard(tx, provider, {
      sessionId: null,
      cardRef: r.CardToken,
      amountCents: q.totalCents,
      description: `ParkIt zone ${zone.zoneNumber}`,
      idempotencyKey: `quick-park:${q.id}`,
    });
    try {
      const s = await sessions.insertSession(tx, {
        guestPhone: phone,
        operatorId: zone.operatorId,
        zoneId: zone.id,
        vehicleMake: '',
        vehicleModel: '',
        plate,
        plateState: q.plateState,
        ...sessions.paidPeriod(q, zone, now),
        feeCents: 0,
        paidVia: 'Card',
        // The card pays the extensions too (Extend from the SMS link).
        cardRef: r.CardToken,
      });
      await recordCardPayment(tx, s.id, chargeRef, q.totalCents);
      await enqueue(
        tx,
        'sms',
        phone,
        `ParkIt: you paid $${formatMoney(q.totalCents / 100)} for ${plate} in zone ${zone.zoneNumber}, ${q.durationMinutes} minutes. Your session: ${link(s.id)}`,
      );
      return s.id;
    } catch (err) {
      if (
        (err as { code?: string; cause?: { code?: string } }).code === '23505' ||
        (err as { cause?: { code?: string } }).cause?.code === '23505'
      ) {
        throw new HttpError(409, PARKING_MESSAGES.vehicleBusy, [
          { field: 'PlateNumber', message: PARKING_MESSAGES.vehicleBusy },
        ]);
      }
      throw err;
    }
  });
  const found = await sessions.findOwned(db, { guestPhone: phone }, id);
  if (!found) throw new Error('guest session vanished');
  return sessions.toSessionView(found, new Date());
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
 * (issue 11), so they show in Active and Past Parkings. Called once the phone is verified.
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
