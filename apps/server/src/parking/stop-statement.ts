import { sql, type Placeholder, type SQL } from 'drizzle-orm';
import { centsToAmount, type StopResponse } from '@parkit/contract';
import { namedStatement, type Executor } from '../db/client.ts';
import { postEntrySql } from '../db/post-entry-sql.ts';
import { stopPriced } from './pricing.ts';
import { toSessionView } from './session-repository.ts';
import { heldSession, termsMatchSql, termsValues, type SessionTerms, type TermsValues } from './session-terms.ts';
import { startedOf, type StartedRow } from './start-statement.ts';

/**
 * A member's Stop of a wallet-paid session in one statement (docs/data-access.md#priced-from-what-the-process-holds),
 * or null when the caller must take the transaction path (session-service.ts's stopOwned): nothing
 * was written then. The refund is pricing's (pricing.ts's refundFor, the engine's), priced by the
 * process from the session's terms it holds (SessionTerms) and the zone's row it holds
 * (app.zoneRows); the statement locks the member's wallet and then the session, as stopOwned does,
 * and writes only when the session is still the member's, running, paid from the wallet with no
 * saved card, with the same terms, in the zone's row held, and its plate held no permit for the
 * zone when it started (a permit prices by its own rules). It gives the refund back through
 * post_ledger_entry (the wallet's one implementation, as refundWallet) and ends the session as
 * stopOwned does.
 */
export async function stopAnswered(
  db: Executor,
  held: SessionTerms,
  memberId: number,
  sessionId: number,
  now: Date,
): Promise<StopResponse | null> {
  const h = await heldSession(db, held, sessionId, now);
  if (!h) return null;
  const { unused, refundCents } = stopPriced(h.policy, h.timezone, h.terms, now);
  const [row] = await stopStatement<StartedRow & { zone_version: string | null; mine: boolean }>(db, {
    ...termsValues(memberId, h, now),
    unused,
    refund: refundCents,
  });
  if (!row || row.id === null) {
    // The member's session, not as held (changed elsewhere), or its zone edited: held no more.
    // Another member's id leaves it held.
    if (row?.mine) held.forget(sessionId);
    if (row?.zone_version !== undefined && row.zone_version !== h.zoneVersion) held.zones.forget(h.zone.id);
    return null;
  }
  held.forget(sessionId);
  return {
    ...toSessionView(startedOf(row).view, now),
    RefundAmount: centsToAmount(refundCents),
    UnusedMinutes: unused,
  };
}

/** The values of Stop's statement (stopQuery's placeholders): the terms checked, and what the Stop takes off and gives back, priced by the process (pricing.ts's stopPriced). */
export interface StopValues extends TermsValues {
  unused: number;
  refund: number;
}

/** The statement, built once (its builder: the permit read). */
const stopStatement = namedStatement<StopValues>('parking_stop', (p, db) => stopQuery(db, p));

/** Stop's statement with a placeholder (`p`) for each value (exported for the bench's bare Stops, which send the same text). */
export function stopQuery(db: Executor, p: (name: keyof StopValues & string) => Placeholder): SQL {
  const at = sql`${p('at')}::timestamptz`;
  const member = sql`${p('member')}::int`;
  const unused = sql`${p('unused')}::int`;
  const refund = sql`${p('refund')}::int`;
  const stopped = sql`select upd.*, z.zone_number, z.address, z.city, z.state, z.lat, z.lng, z.max_stay_minutes, false as reload_due
        from upd, z`;
  return sql`with m as (
          select id from members where id = ${member} for no key update
        ), s as (
          select * from parking_sessions
          where id = ${p('session')}::int and member_id = ${member} and exists (select 1 from m)
          for update
        ), z as (
          select z.id, z.xmin::text as version, z.zone_number, z.address, z.city, z.state, z.lat, z.lng, z.max_stay_minutes
          from zones z where z.id = ${p('zone')}::int
        ), ok as (
          select s.id from s, z
          where ${termsMatchSql(db, p)}
        ), paid as (
          select e.* from ok, ${postEntrySql(member, refund, 'refund', sql`'session:' || ok.id || ':stop'`, null)} e
          where ${refund} > 0
        ), upd as (
          update parking_sessions ps set
            status = 'ended',
            ended_at = ${at},
            ends_at = ps.ends_at - make_interval(mins => ${unused}),
            duration_minutes = ps.duration_minutes - ${unused},
            refunded_cents = ps.refunded_cents + ${refund},
            updated_at = ${at}
          from ok
          where ps.id = ok.id and (${refund} = 0 or exists (select 1 from paid))
          returning ps.id, ps.zone_id, ps.vehicle_id, ps.vehicle_make, ps.vehicle_model, ps.plate, ps.plate_state, ps.started_at,
            ps.ends_at, ps.ended_at, ps.duration_minutes, ps.parking_cents, ps.fee_cents, ps.refunded_cents, ps.paid_via,
            ps.auto_session_used, ps.auto_extended_used, ps.status
        )
        select (select version from z) as zone_version, exists (select 1 from s) as mine, e.* from m left join (${stopped}) e on true`;
}
