import { sql, type SQL } from 'drizzle-orm';
import { queryRowsNamed, type Tx } from '../db/client.ts';
import type { SessionViewRow } from './session-repository.ts';
import type { SessionSqlRow } from '../db/session-row.ts';

/**
 * Start's common case in one statement (issue 11, the parking bench): the quote claimed, its
 * member, vehicle, zone and Max Payment Amount checked, the session inserted, the wallet debited
 * and the ledger written in one statement.
 *
 * Every write is gated on the `ok` row, which holds only when everything is in order: the quote is
 * this member's unused, unexpired start quote; the vehicle is the member's and has no active row
 * at all (a running session or an expired one the job has not closed); the zone is the member's
 * operator's; the balance covers the total; the total is within Max Payment Amount (or confirmed,
 * or Auto Start). Otherwise nothing is written and the caller takes the step-by-step path, which
 * checks again and answers the precise refusal, closes an expired session, or runs auto-reload.
 *
 * The member row is locked first (FOR NO KEY UPDATE, as postEntry's UPDATE would, in a statement of
 * its own) and the quote row FOR UPDATE, so concurrent requests queue as they do on the
 * step-by-step path; a session started for the same vehicle in between still meets the unique
 * index (the caller maps it to 409). Two round trips in all, instead of twelve; the statement
 * returns the columns of the session's view too, so the answer needs no third read.
 *
 * Returns the new session's id, its view's columns and whether its debit marked an auto-reload
 * due, or null.
 */
export async function startInOneStatement(
  tx: Tx,
  memberId: number,
  quoteId: string,
  confirmedOverMax: boolean,
  key: string | null,
  now: Date,
): Promise<{ sessionId: number; reloadDue: boolean; view: SessionViewRow } | null> {
  // The member's row is locked by its own statement first, so that the statement below starts
  // after every payment of this member that came before has committed, and reads its balance. (A
  // FOR NO KEY UPDATE inside the statement is not enough: the PostgreSQL run of the 10-concurrent-
  // starts test debited past zero, caught by members_balance_nonneg.)
  // Named statements: planned once per connection, not on every Start.
  const locked = await queryRowsNamed<{ id: number }>(tx, 'parking_start_lock', lockMemberSql(memberId));
  if (locked.length === 0) return null;
  const [row] = await queryRowsNamed<StartedRow>(tx, 'parking_start', startSql(memberId, quoteId, confirmedOverMax, key, now));
  if (!row) return null;
  const at = (v: Date | string | null) => (v === null ? null : new Date(v));
  return {
    sessionId: Number(row.id),
    reloadDue: Boolean(row.reload_due),
    view: {
      session: {
        id: Number(row.id),
        zoneId: Number(row.zone_id),
        vehicleId: row.vehicle_id === null ? null : Number(row.vehicle_id),
        vehicleMake: row.vehicle_make,
        vehicleModel: row.vehicle_model,
        plate: row.plate,
        plateState: row.plate_state,
        startedAt: at(row.started_at)!,
        endsAt: at(row.ends_at)!,
        endedAt: at(row.ended_at),
        durationMinutes: Number(row.duration_minutes),
        parkingCents: Number(row.parking_cents),
        feeCents: Number(row.fee_cents),
        refundedCents: Number(row.refunded_cents),
        paidVia: row.paid_via,
        autoSessionUsed: Boolean(row.auto_session_used),
        autoExtendedUsed: Boolean(row.auto_extended_used),
        status: row.status,
      },
      zone: {
        zoneNumber: row.zone_number,
        address: row.address,
        city: row.city,
        state: row.state,
        lat: Number(row.lat),
        lng: Number(row.lng),
        maxStayMinutes: Number(row.max_stay_minutes),
      },
    },
  };
}

interface StartedRow extends SessionSqlRow {
  auto_session_used: boolean;
  auto_extended_used: boolean;
  status: string;
  max_stay_minutes: number;
  reload_due: boolean;
}

/** Start's first statement: the member's row locked (exported for bench/parking.ts's bare-SQL row). */
export const lockMemberSql = (memberId: number): SQL => sql`select id from members where id = ${memberId} for no key update`;

/** Start's second statement (exported for bench/parking.ts's bare-SQL row, which sends the same text). */
export function startSql(memberId: number, quoteId: string, confirmedOverMax: boolean, key: string | null, now: Date): SQL {
  const at = sql`${now.toISOString()}::timestamptz`;
  return sql`with m as (
          select id, client_id, balance_cents from members where id = ${memberId}
        ), q as (
          select * from parking_quotes
          where id = ${quoteId}::uuid and member_id = ${memberId} and kind = 'start' and used_at is null and expires_at > ${at}
          for update
        ), v as (
          select v.id, mk.name as make, md.name as model, v.plate, v.plate_state
          from vehicles v
          join vehicle_makes mk on mk.id = v.make_id
          join vehicle_models md on md.id = v.model_id
          join vehicle_colors c on c.id = v.color_id
          where v.id = (select vehicle_id from q) and v.member_id = ${memberId}
        ), z as (
          select z.id, z.operator_id, z.rate_cents, z.zone_number, z.address, z.city, z.state, z.lat, z.lng, z.max_stay_minutes from zones z
          where z.id = (select zone_id from q) and z.operator_id = (select client_id from m)
        ), ok as (
          select 1 from q
          cross join m
          left join parking_options o on o.member_id = m.id
          where exists (select 1 from v) and exists (select 1 from z)
            and not exists (select 1 from parking_sessions s where s.vehicle_id = q.vehicle_id and s.status = 'active')
            and m.balance_cents >= q.total_cents
            and (q.auto_start or ${confirmedOverMax}::boolean or not coalesce(o.max_payment_enabled, false) or q.total_cents <= o.max_payment_cents)
        ), claim as (
          update parking_quotes set used_at = ${at}
          where id = ${quoteId}::uuid and used_at is null and exists (select 1 from ok)
          returning id
        ), ins as (
          insert into parking_sessions (member_id, operator_id, zone_id, vehicle_id, vehicle_make, vehicle_model, plate, plate_state,
            started_at, ends_at, duration_minutes, initial_minutes, rate_cents, parking_cents, fee_cents, discount_percent,
            paid_via, auto_session_used, updated_at)
          select ${memberId}::int, z.operator_id, z.id, v.id, v.make, v.model, v.plate, v.plate_state,
            ${at}, ${at} + make_interval(mins => q.duration_minutes), q.duration_minutes, q.duration_minutes, z.rate_cents,
            q.parking_cents, q.fee_cents, q.discount_percent, 'Wallet', q.auto_start, ${at}
          from q, v, z where exists (select 1 from claim)
          returning id, zone_id, vehicle_id, vehicle_make, vehicle_model, plate, plate_state, started_at, ends_at, ended_at,
            duration_minutes, parking_cents, fee_cents, refunded_cents, paid_via, auto_session_used, auto_extended_used, status
        ), debit as (
          update members set balance_cents = balance_cents - (select total_cents from q)
          where id = ${memberId} and exists (select 1 from ins)
          returning balance_cents, min_balance_cents
        ), led as (
          insert into ledger_entries (member_id, amount_cents, kind, reference, idempotency_key, balance_after_cents)
          select ${memberId}::int, -q.total_cents, 'parking', 'session:' || ins.id, ${key}::text, debit.balance_cents
          from q, ins, debit
          returning id
        ), mark as (
          update wallet_settings set reload_due_at = now()
          where member_id = ${memberId} and auto_reload and reload_due_at is null
            and exists (select 1 from debit where balance_cents < min_balance_cents)
            and exists (select 1 from payment_methods pm where pm.member_id = ${memberId} and pm.is_default)
          returning member_id
        )
        select ins.*, z.zone_number, z.address, z.city, z.state, z.lat, z.lng, z.max_stay_minutes, exists (select 1 from mark) as reload_due
        from ins, z where exists (select 1 from led)`;
}
