import { and, eq } from 'drizzle-orm';
import { PARKING_MESSAGES, QUICK_PARK_MESSAGES, type GuestQuote, type Quote } from '@parkit/contract';
import type { Db, Executor } from '../db/client.ts';
import { zones } from '../db/schema/index.ts';
import { badRequest, conflict, notFound } from '../lib/http-error.ts';
import { defaultOperatorId, operatorById } from '../zones/index.ts';
import { policyForStart } from '../pricing/index.ts';
import { priceOf, type Priced } from './pricing.ts';
import { insertQuote, quoteTerms, quoteWindow, type QuoteInsert, type QuoteRow } from './quote-rows.ts';

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
): Promise<GuestQuote> {
  const { zone, operator } = await zoneByNumber(db, r.ZoneNumber);
  if (r.DurationMinutes > zone.maxStayMinutes) throw badRequest('DurationMinutes', PARKING_MESSAGES.maxStay);
  const policy = await policyForStart(db, zone, now, r.PlateNumber);
  const price = priceOf(policy, operator.timezone, now, 0, r.DurationMinutes);
  if (price.overMaxStay) throw badRequest('DurationMinutes', PARKING_MESSAGES.maxStay);
  if (price.paidMinutes === 0) throw conflict('ZoneNumber', PARKING_MESSAGES.zoneFree);
  const q = await insertGuestQuote(
    db,
    phone,
    {
      kind: 'start',
      zoneId: zone.id,
      plate: r.PlateNumber,
      plateState: r.PlateState,
      policyVersionId: price.versionId,
    },
    now,
    r.DurationMinutes,
    price.parkingCents,
    now,
  );
  return {
    ...guestQuoteView(q, zone.rateCents, price, Math.min(zone.maxStayMinutes, policy.policy.maxStayMinutes)),
    ZoneNumber: zone.zoneNumber,
    Name: zone.name,
    Address: zone.address,
    City: zone.city,
    State: zone.state,
  };
}

/** A guest's quote row: the card pays the parking alone (no plan, so no fee and no discount). */
export function insertGuestQuote(
  db: Executor,
  phone: string,
  what: Pick<QuoteInsert, 'kind' | 'zoneId' | 'sessionId' | 'plate' | 'plateState' | 'policyVersionId'>,
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
export function guestQuoteView(q: QuoteRow, rateCents: number, price: Priced, maxMoreMinutes: number): Quote {
  return {
    ...quoteTerms(q, rateCents, price, maxMoreMinutes),
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
