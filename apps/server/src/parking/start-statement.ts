import { sql, type SQL } from 'drizzle-orm';
import { queryRowsNamed, type Executor, type Tx } from '../db/client.ts';
import type { ParkingSession } from '@parkit/contract';
import { toSessionView, type SessionViewRow } from './session-repository.ts';
import type { SessionSqlRow } from '../db/session-row.ts';
import { postEntrySql } from '../db/post-entry-sql.ts';
import { overMaxPaymentSql, vehicleSessionsSql } from './rules.ts';

/**
 * Start's common case in one statement (the parking bench): the quote claimed, its
 * member, vehicle, zone and Max Payment Amount checked, the session inserted and the wallet paid in
 * one statement. The payment is the wallet's own: the database function post_ledger_entry
 * (wallet/ledger.ts's postEntry calls it too), which checks and moves the balance, writes the
 * ledger entry and marks a due auto-reload. Parking writes no ledger row or balance itself.
 *
 * Every write is gated: the payment runs only when the quote is this member's unused, unexpired
 * start quote, the vehicle is the member's and has no active row at all (rules.ts's busy-vehicle
 * rule with no time: a running session or an expired one the job has not closed), the zone is the
 * member's operator's and the Max Payment rule (rules.ts) lets the total through; the claim and the session's insert run only when the payment
 * was made (post_ledger_entry answers no row when the balance is short). Otherwise nothing is
 * written and the caller takes the step-by-step path, which checks again and answers the precise
 * refusal, closes an expired session, or has auto-reload cover the total.
 *
 * The caller's transaction holds the member's wallet lock already (the Idempotency-Key's claim
 * takes it first, idempotency.ts), and the quote row is locked FOR UPDATE, so concurrent requests
 * queue as they do on the step-by-step path; a session started for the same vehicle in between
 * still meets the unique index (the caller maps it to 409). The statement returns the columns of
 * the session's view too, so the answer needs no further read.
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
): Promise<Started | null> {
  // A named statement: planned once per connection, not on every Start.
  const [row] = await queryRowsNamed<StartedRow>(
    tx,
    'parking_start',
    startSql(memberId, quoteId, confirmedOverMax, key, now),
  );
  return row ? startedOf(row) : null;
}

/** A Start the statement made: the session's id, its view's columns, and whether its debit marked an auto-reload due. */
export interface Started {
  sessionId: number;
  reloadDue: boolean;
  view: SessionViewRow;
  /** The statement's row as it came (its pricing terms: stop-statement.ts's SessionTerms). */
  row: StartedRow;
}

/**
 * Start's whole request in one round trip: one autocommit statement (no BEGIN, no COMMIT) that
 * claims the Idempotency-Key and stores its answer, checks the token's session version, and does
 * what startInOneStatement does. The key's row is inserted with its answer (status 201 and the
 * statement's own row, `STORED_START`), after the session and the payment, by a plain INSERT: a
 * key already held (a replay, a request in flight, an expired key) fails the statement on the
 * key's unique index and nothing is written, and the caller takes the transaction path
 * (idempotency.ts), which replays, waits or takes the expired key over. The member's wallet row is
 * locked first, as every money transaction locks it (ledger.ts).
 *
 * Answers the member's session version (null: no such member) and the Start, or null when a
 * rule refused it, the balance was short or the session version differs: then nothing was
 * written, and the caller checks the version and takes the transaction path.
 */
export async function startAnswered(db: Executor, memberId: number, r: AnsweredAsk, now: Date): Promise<Answered> {
  return runAnswered(
    db,
    'parking_start_answered',
    startSql(memberId, r.quoteId, r.confirmedOverMax, r.key, now, {
      requestHash: r.requestHash,
      sessionVersion: r.sessionVersion,
    }),
  );
}

/** What startAnswered and extendAnswered are asked: the quote, the Max Payment confirmation, the key, the request's hash and the token's session version. */
export interface AnsweredAsk {
  quoteId: string;
  confirmedOverMax: boolean;
  key: string;
  requestHash: string;
  sessionVersion: number;
}

/**
 * Runs an answered statement (startAnswered's, extend-statement.ts's extendAnswered's) under its
 * name and reads its row: the member's session version (null: no such member) and the session it
 * wrote (null: none).
 */
export async function runAnswered(db: Executor, name: string, statement: SQL): Promise<Answered> {
  const [row] = await queryRowsNamed<StartedRow & { member_session_version: number }>(db, name, statement);
  if (!row) return { sessionVersion: null, session: null };
  return {
    sessionVersion: Number(row.member_session_version),
    session: row.id === null ? null : startedOf(row),
  };
}

/** What startAnswered and extendAnswered answer: the member's session version (null: no such member) and the session written (null: none). */
export interface Answered {
  sessionVersion: number | null;
  session: Started | null;
}

/** What startAnswered stores as the key's answer: `{ [STORED_START]: <the statement's row>, at }`. */
export const STORED_START = 'parking.start.row';

/**
 * A stored answer of a one-statement session route back to its body: the row its statement stored
 * under `marker` (with its moment, drawn as the first answer was), or the body the transaction
 * path stored, as it is.
 */
export function storedAnswer(marker: string): (stored: unknown) => ParkingSession {
  return (stored) => {
    const s = stored as Record<string, unknown> | null;
    if (s && typeof s === 'object' && marker in s)
      return toSessionView(startedOf(s[marker] as StartedRow).view, new Date(String(s.at)));
    return stored as ParkingSession;
  };
}

/** A stored answer of Start back to its body (storedAnswer). */
export const storedStart = storedAnswer(STORED_START);

/** A session statement's row (Start's, Extend's: extend-statement.ts) as its id, view and auto-reload flag. */
export function startedOf(row: StartedRow): Started {
  const at = (v: Date | string | null) => (v === null ? null : new Date(v));
  return {
    sessionId: Number(row.id),
    reloadDue: Boolean(row.reload_due),
    row,
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

/** The row Start's and Extend's statements answer: the session's view columns and whether the debit marked an auto-reload due. */
export interface StartedRow extends SessionSqlRow {
  auto_session_used: boolean;
  auto_extended_used: boolean;
  status: string;
  max_stay_minutes: number;
  reload_due: boolean;
  /** The session's pricing terms (Start's and Extend's statements answer them; stop-statement.ts's SessionTerms holds them). */
  discount_percent?: number;
  rate_cents?: number;
  policy_version_id?: number | null;
}

/**
 * Start's statement (exported for bench/parking-bare.ts, which sends the same text). With
 * `answered`, startAnswered's: the wallet locked first, the session version checked, the key's row
 * and its answer inserted, and one row answered whatever happened (the member's session version,
 * with the Start's columns or nulls).
 */
export function startSql(
  memberId: number,
  quoteId: string,
  confirmedOverMax: boolean,
  key: string | null,
  now: Date,
  answered?: { requestHash: string; sessionVersion: number },
): SQL {
  const at = sql`${now.toISOString()}::timestamptz`;
  const m = answered
    ? sql`select id, client_id, session_version from members where id = ${memberId} for no key update`
    : sql`select id, client_id from members where id = ${memberId}`;
  // With the wallet's lock taken in m, q waits for it first (a one-time filter on m).
  const locked = answered ? sql` and exists (select 1 from m)` : sql``;
  const sameSession = answered ? sql` and (select session_version from m) = ${answered.sessionVersion}::int` : sql``;
  const started = sql`select ins.*, z.zone_number, z.address, z.city, z.state, z.lat, z.lng, z.max_stay_minutes, paid.reload_due
        from ins, z, paid`;
  const answer = answered
    ? sql`, answer as (
          insert into idempotency_keys (member_id, key, request_hash, status_code, response)
          select ${memberId}::int, ${key}::text, ${answered.requestHash}::text, 201,
            jsonb_build_object(${STORED_START}::text, to_jsonb(s), 'at', ${at})
          from (${started}) s
        )
        select m.session_version as member_session_version, s.* from m left join (${started}) s on true`
    : sql`
        ${started}`;
  return sql`with m as (
          ${m}
        ), q as (
          select * from parking_quotes
          where id = ${quoteId}::uuid and member_id = ${memberId} and kind = 'start' and used_at is null and expires_at > ${at}${locked}
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
          where z.id = (select zone_id from q) and z.operator_id = (select client_id from m) and z.retired_at is null
        ), ok as (
          -- The vehicle as a value ((select vehicle_id from q)), not q's column: a join to q let the
          -- planner, when its statistics said no session ran, read every running session and filter
          -- them (test/parking-start-plan.test.ts).
          select 1 from q
          where exists (select 1 from v) and exists (select 1 from z)
            and not exists (${vehicleSessionsSql(sql`(select vehicle_id from q)`, null)})
            and not ${overMaxPaymentSql(sql`${memberId}::int`, sql`q.total_cents`, sql`(q.auto_start or ${confirmedOverMax}::boolean)`)}${sameSession}
        ), sid as (
          select nextval('parking_sessions_id_seq')::int as id where exists (select 1 from ok)
        ), paid as (
          select p.* from q, sid, ${postEntrySql(sql`${memberId}::int`, sql`-q.total_cents`, 'parking', sql`'session:' || sid.id`, key)} p
        ), claim as (
          update parking_quotes set used_at = ${at}
          where id = ${quoteId}::uuid and used_at is null and exists (select 1 from paid)
          returning id
        ), ins as (
          insert into parking_sessions (id, member_id, operator_id, zone_id, vehicle_id, vehicle_make, vehicle_model, plate, plate_state,
            started_at, ends_at, duration_minutes, initial_minutes, rate_cents, parking_cents, fee_cents, discount_percent,
            paid_via, auto_session_used, policy_version_id, updated_at)
          select sid.id, ${memberId}::int, z.operator_id, z.id, v.id, v.make, v.model, v.plate, v.plate_state,
            ${at}, ${at} + make_interval(mins => q.duration_minutes), q.duration_minutes, q.duration_minutes, z.rate_cents,
            q.parking_cents, q.fee_cents, q.discount_percent, 'Wallet', q.auto_start, q.policy_version_id, ${at}
          from q, v, z, sid where exists (select 1 from claim)
          returning id, zone_id, vehicle_id, vehicle_make, vehicle_model, plate, plate_state, started_at, ends_at, ended_at,
            duration_minutes, parking_cents, fee_cents, refunded_cents, paid_via, auto_session_used, auto_extended_used, status,
            discount_percent, rate_cents, policy_version_id
        )${answer}`;
}
