import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { postEntrySql } from '../db/post-entry-sql.ts';
import { overMaxPaymentSql } from './rules.ts';
import { runAnswered, storedAnswer, type Answered, type AnsweredAsk } from './start-statement.ts';

/**
 * Extend's whole request in one round trip, as Start's (start-statement.ts's startAnswered): one
 * autocommit statement that locks the member's wallet row first (as every money transaction
 * does), claims the extend quote, locks the session, checks the token's session version and the
 * rules of session-service.ts's extendWith (the member's running session that the quote was made
 * for, ending where the quote starts, in its zone, within the zone's maximum stay) and the Max
 * Payment rule (rules.ts), pays from the wallet through post_ledger_entry (the wallet's one
 * implementation), adds the minutes and the parking money to the session (a new end gets its own
 * reminder), and inserts the Idempotency-Key's row with its answer (`STORED_EXTEND`).
 *
 * Every write is gated on the payment: when a rule refuses, the balance is short (auto-reload may
 * cover it on the transaction path) or the session version differs, nothing is written and the
 * caller takes the transaction path, which checks again and answers the precise refusal. A key
 * already held fails the statement on the key's unique index, and nothing is written either.
 *
 * Answers the member's session version (null: no such member) and the extended session's view
 * columns, or null when it did not extend (`Answered`).
 */
export async function extendAnswered(db: Executor, memberId: number, r: AnsweredAsk, now: Date): Promise<Answered> {
  return runAnswered(db, 'parking_extend_answered', extendSql(memberId, r, now));
}

/** What extendAnswered stores as the key's answer: `{ [STORED_EXTEND]: <the statement's row>, at }`. */
export const STORED_EXTEND = 'parking.extend.row';

/** A stored answer of Extend back to its body: one extendAnswered stored, or the body the transaction path stored. */
export const storedExtend = storedAnswer(STORED_EXTEND);

/** Extend's statement (exported for the bench's bare Extends, which send the same text). */
export function extendSql(memberId: number, r: AnsweredAsk, now: Date): SQL {
  const at = sql`${now.toISOString()}::timestamptz`;
  const extended = sql`select upd.*, z.zone_number, z.address, z.city, z.state, z.lat, z.lng, z.max_stay_minutes, paid.reload_due
        from upd, z, paid`;
  return sql`with m as (
          select id, session_version from members where id = ${memberId} for no key update
        ), q as (
          select * from parking_quotes
          where id = ${r.quoteId}::uuid and member_id = ${memberId} and kind = 'extend' and used_at is null
            and expires_at > ${at} and exists (select 1 from m)
          for update
        ), s as (
          select * from parking_sessions
          where id = (select session_id from q) and member_id = ${memberId}
          for update
        ), z as (
          select z.id, z.zone_number, z.address, z.city, z.state, z.lat, z.lng, z.max_stay_minutes from zones z
          where z.id = (select zone_id from s)
        ), ok as (
          select 1 from q, s, z
          where s.status = 'active' and s.ends_at > ${at} and s.ends_at = q.starts_at and s.zone_id = q.zone_id
            and s.duration_minutes + q.duration_minutes <= z.max_stay_minutes and q.total_cents > 0
            and not ${overMaxPaymentSql(sql`${memberId}::int`, sql`q.total_cents`, sql`${r.confirmedOverMax}::boolean`)}
            and (select session_version from m) = ${r.sessionVersion}::int
        ), sid as (
          select s.id from s where exists (select 1 from ok)
        ), paid as (
          select p.* from q, sid, ${postEntrySql(sql`${memberId}::int`, sql`-q.total_cents`, 'parking', sql`'session:' || sid.id || ':extend'`, r.key)} p
        ), claim as (
          update parking_quotes set used_at = ${at}
          where id = ${r.quoteId}::uuid and used_at is null and exists (select 1 from paid)
          returning id
        ), upd as (
          update parking_sessions ps set
            ends_at = ps.ends_at + make_interval(mins => q.duration_minutes),
            duration_minutes = ps.duration_minutes + q.duration_minutes,
            parking_cents = ps.parking_cents + q.parking_cents,
            reminder_sent_at = null,
            updated_at = ${at}
          from q, sid
          where ps.id = sid.id and exists (select 1 from claim)
          returning ps.id, ps.zone_id, ps.vehicle_id, ps.vehicle_make, ps.vehicle_model, ps.plate, ps.plate_state, ps.started_at,
            ps.ends_at, ps.ended_at, ps.duration_minutes, ps.parking_cents, ps.fee_cents, ps.refunded_cents, ps.paid_via,
            ps.auto_session_used, ps.auto_extended_used, ps.status, ps.discount_percent, ps.rate_cents, ps.policy_version_id
        ), answer as (
          insert into idempotency_keys (member_id, key, request_hash, status_code, response)
          select ${memberId}::int, ${r.key}::text, ${r.requestHash}::text, 200,
            jsonb_build_object(${STORED_EXTEND}::text, to_jsonb(e), 'at', ${at})
          from (${extended}) e
        )
        select m.session_version as member_session_version, e.* from m left join (${extended}) e on true`;
}
