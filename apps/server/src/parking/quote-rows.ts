import { centsToAmount, QUOTE_HOLD_MINUTES, type PriceSpan, type Quote } from '@parkit/contract';
import type { Executor } from '../db/client.ts';
import { parkingQuotes } from '../db/schema/index.ts';

export type QuoteRow = typeof parkingQuotes.$inferSelect;
export type QuoteInsert = typeof parkingQuotes.$inferInsert;
const MINUTE = 60_000;

/**
 * The time a quote prices and how long its total is held (5 minutes), the same for a
 * member's and a guest's start or extension: `minutes` from `startsAt`, held from `now`.
 */
export function quoteWindow(startsAt: Date, minutes: number, now: Date) {
  return {
    startsAt,
    endsAt: new Date(startsAt.getTime() + minutes * MINUTE),
    durationMinutes: minutes,
    expiresAt: new Date(now.getTime() + QUOTE_HOLD_MINUTES * MINUTE),
  };
}

/** One quote row written and returned (every kind: start, extend, guest). */
export async function insertQuote(db: Executor, values: QuoteInsert): Promise<QuoteRow> {
  const [row] = await db.insert(parkingQuotes).values(values).returning();
  if (!row) throw new Error('quote insert returned no row');
  return row;
}

/** The Quote fields every payer sees alike (member or guest); the caller adds its plan and its funds. */
export function quoteTerms(
  q: QuoteRow,
  rateCents: number,
  price: { paidMinutes: number; spans: PriceSpan[] },
  maxMoreMinutes: number,
) {
  return {
    QuoteId: q.id,
    StartsAt: q.startsAt.toISOString(),
    EndsAt: q.endsAt.toISOString(),
    DurationMinutes: q.durationMinutes,
    RatePerHour: centsToAmount(rateCents),
    PaidMinutes: price.paidMinutes,
    ParkingAmount: centsToAmount(q.parkingCents),
    TotalAmount: centsToAmount(q.totalCents),
    ExpiresAt: q.expiresAt.toISOString(),
    MaxMoreMinutes: maxMoreMinutes,
    Spans: price.spans,
  } satisfies Partial<Quote>;
}
