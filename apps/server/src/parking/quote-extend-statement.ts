import { sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { Quote } from '@parkit/contract';
import { namedStatement, type Executor } from '../db/client.ts';
import { priceMore } from './pricing.ts';
import { quoteWindow } from './quote-rows.ts';
import { quoteOf } from './quote-service.ts';
import { fundsOf, fundsSql, quoteRowOf, type QuotedRow } from './quote-statement.ts';
import { heldSession, termsMatchSql, termsValues, type SessionTerms, type TermsValues } from './session-terms.ts';

/**
 * A member's quote for more minutes of a running session in one statement
 * (docs/data-access.md#priced-from-what-the-process-holds), or null when the caller must take
 * quote-service.ts's quoteExtend: nothing was written then. It prices as quoteExtend does, from the
 * session's terms this process holds (session-terms.ts: Start's and Extend's statements answer
 * them) and its zone's row: the minutes after the session's end under its own policy version and
 * discount (pricing.ts's priceMore), within the room its maximum stay leaves. The statement writes
 * the quote only when the session is still the member's with those terms (termsMatchSql), and reads
 * the member's funds with it. A refusal (no room, too long) is quoteExtend's to answer.
 */
export async function quoteExtendAnswered(
  db: Executor,
  held: SessionTerms,
  memberId: number,
  r: { SessionId: number; DurationMinutes: number },
  now: Date,
): Promise<Quote | null> {
  const h = await heldSession(db, held, r.SessionId, now);
  if (!h) return null;
  const { terms: t, zone, policy, timezone } = h;
  const room = Math.min(zone.maxStayMinutes, policy.policy.maxStayMinutes) - t.durationMinutes;
  if (room <= 0 || r.DurationMinutes > room) return null;
  const price = priceMore(policy, timezone, t, r.DurationMinutes);
  if (price.overMaxStay) return null;
  const w = quoteWindow(t.endsAt, r.DurationMinutes, now);
  const [row] = await quoteExtendStatement<QuotedRow & { mine: boolean }>(db, {
    ...termsValues(memberId, h, now),
    more: r.DurationMinutes,
    quoteEndsAt: w.endsAt.toISOString(),
    expiresAt: w.expiresAt.toISOString(),
    price: price.parkingCents,
  });
  if (!row || row.id === null) {
    // The member's session, not as held: held no more (another member's id leaves it held).
    if (row?.mine) held.forget(t.id);
    return null;
  }
  const q = quoteRowOf(row, { memberId, kind: 'extend', zoneId: t.zoneId, vehicleId: t.vehicleId, sessionId: t.id });
  return quoteOf(q, t.rateCents, room, price, fundsOf(row));
}

/** The values of the extension quote's statement: the terms checked, the minutes added, the quote's end and hold, its price. */
export interface QuoteExtendValues extends TermsValues {
  more: number;
  quoteEndsAt: string;
  expiresAt: string;
  price: number;
}

/** The statement, built once (its builders: the permit read, auto-reload's read). */
const quoteExtendStatement = namedStatement<QuoteExtendValues>('parking_quote_extend', (p, db) =>
  quoteExtendQuery(db, p),
);

/** The extension quote's statement with a placeholder (`p`) for each value: one row whenever the member exists. */
export function quoteExtendQuery(db: Executor, p: (name: keyof QuoteExtendValues & string) => Placeholder): SQL {
  const member = sql`${p('member')}::int`;
  return sql`with m as (
          select id, balance_cents from members where id = ${member}
        ), s as (
          select * from parking_sessions where id = ${p('session')}::int and member_id = ${member}
        ), z as (
          select z.id, z.xmin::text as version from zones z where z.id = ${p('zone')}::int
        ), ins as (
          insert into parking_quotes (member_id, kind, zone_id, vehicle_id, session_id, starts_at, ends_at, duration_minutes,
            parking_cents, fee_cents, total_cents, discount_percent, policy_version_id, auto_start, expires_at)
          select ${member}, 'extend', s.zone_id, s.vehicle_id, s.id, s.ends_at, ${p('quoteEndsAt')}::timestamptz, ${p('more')}::int,
            ${p('price')}::int, 0, ${p('price')}::int, s.discount_percent, s.policy_version_id, false, ${p('expiresAt')}::timestamptz
          from s, z
          where ${termsMatchSql(db, p)}
          returning id, starts_at, ends_at, duration_minutes, parking_cents, fee_cents, total_cents, discount_percent,
            policy_version_id, expires_at, created_at
        )
        select exists (select 1 from s) as mine, ${fundsSql(db)}, ins.* from m left join ins on true`;
}
