import { and, eq, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { EnforcementAnswer } from '@parkit/contract';
import { namedStatement, type Executor } from '../db/client.ts';
import { normalisePlate } from '../lib/plate.ts';
import { operators, zones, type CheckOutcome, type PermitKind } from '../db/schema/index.ts';
import { freePermitAt, permitsOfPlateQuery, policyOfVersion, policyVersionAt, type Preset } from '../pricing/index.ts';
import {
  asRight,
  assignedRightQuery,
  RIGHT_ZONE_COLUMNS,
  sessionRightQuery,
  visitorDayQuery,
  type ParkingRight,
  type RightZone,
  type RightRef,
  type RightZoneRef,
} from './rights.ts';

export interface CheckResult {
  zoneFound: boolean;
  /** The zone's number as the operator wrote it ('' when not found). */
  zoneNumber: string;
  address: string;
  /** The right that covers the plate now (rights.ts), or null. */
  right: ParkingRight | null;
}

/**
 * Who asked and what (the audit row's columns before the answer): the route's. An API key's check
 * names its zone by number (keyId set, memberId null); an officer's page by id, from the
 * operator's own list (memberId set, keyId and keyPrefix null).
 */
export type CheckAsk = Omit<AuditEntry, 'outcome' | 'paid' | 'sessionId' | 'address' | 'operatorId' | 'zoneNumber'> & {
  operatorId: number;
  zone: { number: string } | { id: number };
};

/** What the check's statement answers: the rights' reads of the zone, and whether it wrote the audit row. */
interface CheckRow {
  zone: (RightZone & Preset & { address: string; zoneNumber: string }) | null;
  session: { id: number; endsAtMs: number } | null;
  held: { id: number; typeId: number; kind: PermitKind; typeName: string; validUntilMs: number | null }[];
  versionId: number | null;
  day: { id: number; endsAt: string } | null;
  assigned: { apdsId: string; endsAtMs: number } | null;
  audited: boolean;
}

/**
 * Does a right cover this plate in this zone of this operator right now? Answered and audited in
 * one statement (checkStatement): only the operator's own zones are looked at, so another
 * operator's sessions and permits are invisible; the rights are rights.ts's reads, the one place
 * that knows them all, in its order. When the plate holds a permit and no session, whether the
 * permit parks free is the zone's policy's answer (pricing, in code): the audit row is then
 * written by a second statement. One round trip a check, two for a permit holder.
 */
export async function checkPlate(db: Executor, ask: CheckAsk, at: Date = new Date()): Promise<CheckResult> {
  const r = await checkStatement(db, ask, at);
  const zone = r.zone;
  if (!zone) return { zoneFound: false, zoneNumber: '', address: '', right: null };
  const later =
    (r.day && asRight.visitorDay(r.day)) ??
    (r.assigned && asRight.assigned({ ...r.assigned, endsAt: new Date(r.assigned.endsAtMs) }));
  let right: ParkingRight | null;
  if (r.session) right = asRight.session({ id: r.session.id, endsAt: new Date(r.session.endsAtMs) }, zone.graceMinutes);
  else if (r.held.length === 0) right = later;
  else {
    // A permit parks free when the zone's policy in force now lets its type (docs/pricing.md#permit-holders).
    const policy = await policyOfVersion(db, zone, r.versionId);
    const held = r.held.map((p) => ({ ...p, validUntil: p.validUntilMs === null ? null : new Date(p.validUntilMs) }));
    const permit = freePermitAt(policy.policy, zone.timezone, at.getTime(), held);
    right = permit ? asRight.permit(permit) : later;
  }
  if (!r.audited)
    await audit(db, {
      ...ask,
      zoneNumber: 'number' in ask.zone ? ask.zone.number : zone.zoneNumber,
      outcome: right ? 'paid' : 'not_paid',
      paid: right !== null,
      sessionId: right?.kind === 'session' ? Number(right.id) : null,
      address: zone.address,
    });
  return { zoneFound: true, zoneNumber: zone.zoneNumber, address: zone.address, right };
}

/**
 * A found check as both routes answer it (the key's and the officer's page's): the right that
 * covers the plate, its end, and what was asked; `zoneNumber` as the route names the zone.
 */
export function checkAnswer(
  found: CheckResult,
  asked: { zoneNumber: string; plate: string; plateState: string },
): EnforcementAnswer {
  const right = found.right;
  return {
    Paid: right !== null,
    EndsAt: right?.endsAt ?? null,
    ZoneNumber: asked.zoneNumber,
    PlateNumber: asked.plate,
    PlateState: asked.plateState,
    Right: right && { Kind: right.kind, Id: right.id, EndsAt: right.endsAt },
  };
}

/** The values of the check's statement, in its placeholders: the ask's, the plate normalised, the moment as ISO text. */
export interface CheckValues extends Record<string, unknown> {
  keyId: number | null;
  memberId: number | null;
  operatorId: number;
  keyPrefix: string | null;
  clientAddress: string;
  /** The zone's number (the key's check) or id (the officer's). */
  zone: string | number;
  plate: string;
  plateState: string;
  at: string;
}

/**
 * The check's one statement, built once per way of naming the zone (a named statement: the
 * enforcement bench measures it; one name per zone lookup, as the two differ in text).
 */
const checkStatements = {
  number: namedStatement<CheckValues>('enforcement_check', (p, db) => checkStatementQuery(db, true, p)),
  id: namedStatement<CheckValues>('enforcement_check_by_zone_id', (p, db) => checkStatementQuery(db, false, p)),
};

async function checkStatement(db: Executor, ask: CheckAsk, at: Date): Promise<CheckRow> {
  const byNumber = 'number' in ask.zone;
  const [row] = await checkStatements[byNumber ? 'number' : 'id']<{ check: CheckRow }>(db, {
    keyId: ask.keyId,
    memberId: ask.memberId,
    operatorId: ask.operatorId,
    keyPrefix: ask.keyPrefix,
    clientAddress: ask.clientAddress,
    zone: 'number' in ask.zone ? ask.zone.number : ask.zone.id,
    plate: normalisePlate(ask.plate),
    plateState: ask.plateState,
    at: at.toISOString(),
  });
  return row!.check;
}

/**
 * checkStatement's SQL, with a placeholder (`p`) for each value (exported for the plan test,
 * test/routes/api/enforcement-plan.test.ts): the zone by its number or its id, rights.ts's reads
 * of the plate there (each a builder, its zone read from the statement's own `chk_zone`), the
 * permits it holds and, only when those decide, the policy version; and, when the answer does not
 * wait on the policy, the audit row with that answer and the key's last use, as audit() writes them.
 */
export function checkStatementQuery(
  db: Executor,
  byNumber: boolean,
  p: (name: keyof CheckValues & string) => Placeholder,
): SQL {
  const z = {
    id: sql`(select id from chk_zone)`,
    operatorId: sql`(select operator_id from chk_zone)`,
    graceMinutes: sql`(select grace_minutes from chk_zone)`,
    timezone: sql`(select timezone from chk_zone)`,
  } satisfies RightZoneRef;
  const at = sql`${p('at')}::timestamptz`;
  const q: RightRef = { plate: sql`${p('plate')}::text`, at, plateState: sql`${p('plateState')}::text` };
  const zone = db
    .select({ ...RIGHT_ZONE_COLUMNS, address: zones.address, zoneNumber: zones.zoneNumber })
    .from(zones)
    .innerJoin(operators, eq(operators.id, zones.operatorId))
    .where(
      and(
        eq(zones.operatorId, sql`${p('operatorId')}::int`),
        byNumber ? sql`upper(${zones.zoneNumber}) = upper(${p('zone')}::text)` : eq(zones.id, sql`${p('zone')}::int`),
      ),
    )
    .limit(1);
  // The audit row's zone: as a key asked it, or the zone's own number. An officer's check of a zone
  // that is not the operator's writes no row: the page lists only the operator's zones, and a
  // request with another operator's id changes nothing (test/guards/identity.test.ts); a key's
  // check audits it (zone_not_found), as it audits every refusal.
  const zoneNumber = byNumber ? sql`${p('zone')}::text` : sql`(select zone_number from chk_zone)`;
  const ms = (t: SQL) => sql`floor(extract(epoch from ${t}) * 1000)::float8`;
  return sql`with chk_zone as ${zone},
        chk_session as ${sessionRightQuery(db, z, q)},
        chk_held as ${permitsOfPlateQuery(db, { ...q, operatorId: z.operatorId, zoneId: z.id })},
        chk_day as ${visitorDayQuery(db, z, q)},
        chk_assigned as ${assignedRightQuery(db, z, q)},
        chk_answer as (
          select zz.id is null as zone_missing, ss.id as session_id, coalesce(zz.address, '') as address,
                 (zz.id is not null and ss.id is null and exists (select from chk_held)) as waits_on_policy,
                 (ss.id is not null or exists (select from chk_day) or exists (select from chk_assigned)) as covered
          from (select 1) one left join chk_zone zz on true left join chk_session ss on true),
        chk_entry as (
          insert into enforcement_checks (key_id, member_id, operator_id, key_prefix, client_address, zone_number,
                                          plate, plate_state, outcome, paid, session_id, address)
          select ${p('keyId')}::int, ${p('memberId')}::int, ${p('operatorId')}::int, ${p('keyPrefix')}::text,
                 ${p('clientAddress')}::text, ${zoneNumber}, ${p('plate')}::text, ${p('plateState')}::text,
                 case when zone_missing then 'zone_not_found' when covered then 'paid' else 'not_paid' end,
                 covered, session_id, address
          from chk_answer where not waits_on_policy${byNumber ? sql`` : sql` and not zone_missing`}
          returning id),
        chk_key as (
          update operator_api_keys set last_used_at = now()
          where id = ${p('keyId')}::int and exists (select from chk_entry)
            and (last_used_at is null or last_used_at < now() - interval '1 minute')
          returning id)
        select json_build_object(
          'zone', (select json_build_object('id', id, 'operatorId', operator_id, 'rateCents', rate_cents,
                     'maxStayMinutes', max_stay_minutes, 'paidDays', paid_days, 'paidFromMinute', paid_from_minute,
                     'paidUntilMinute', paid_until_minute, 'timezone', timezone, 'graceMinutes', grace_minutes,
                     'address', address, 'zoneNumber', zone_number) from chk_zone),
          'session', (select json_build_object('id', id, 'endsAtMs', ${ms(sql`ends_at`)}) from chk_session),
          'held', coalesce((select json_agg(json_build_object('id', id, 'typeId', type_id, 'kind', kind, 'typeName', name,
                     'validUntilMs', ${ms(sql`valid_until`)}) order by id) from chk_held), '[]'::json),
          'versionId', (select case when waits_on_policy then ${policyVersionAt(z, at)} end from chk_answer),
          'day', (select json_build_object('id', id, 'endsAt', ends_at) from chk_day),
          'assigned', (select json_build_object('apdsId', apds_id, 'endsAtMs', ${ms(sql`ends_at`)}) from chk_assigned),
          'audited', exists (select from chk_entry)) as check,
        ${AUDIT_COMMIT} as audit_commit`;
}

/**
 * The audit rows of plate checks commit without waiting for their WAL to reach the disk
 * (docs/decisions/018-plate-check-audit-commit.md): `synchronous_commit` off for the statement's own
 * transaction only (`set_config(…, true)`: it ends with the statement's implicit transaction, so
 * nothing else on the connection commits so). A crash of PostgreSQL itself can lose the checks of
 * its last fraction of a second (at most 3 × wal_writer_delay); never a half-written row, and no
 * other write of ours commits so. Only in statements that run alone, never inside a caller's
 * transaction, whose every write it would relax: checkPlate and audit() run on the pool.
 */
const AUDIT_COMMIT = sql`set_config('synchronous_commit', 'off', true)`;

export type { CheckOutcome };

export interface AuditEntry {
  /** The key row the presented key matched (live or revoked), else null. */
  keyId: number | null;
  /** The signed-in officer who checked from the officer's page (no key), else null. */
  memberId: number | null;
  operatorId: number | null;
  /** presentedPrefix(): never the whole presented key. */
  keyPrefix: string | null;
  clientAddress: string;
  zoneNumber: string;
  plate: string;
  plateState: string;
  outcome: CheckOutcome;
  /** The answer given; null when refused. */
  paid: boolean | null;
  sessionId: number | null;
  address: string;
}

/**
 * The audit: who (key, operator, key prefix, client address), when, what (zone, plate,
 * state) and the outcome, for answers and refusals alike. An answer also marks the key as used (at
 * most once a minute: a check a second need not write the key's row each time), in the same
 * statement as the audit row: one round trip and one commit per check, not waited for (AUDIT_COMMIT).
 */
export async function audit(db: Executor, e: AuditEntry): Promise<void> {
  const markKey = e.keyId !== null && e.paid !== null;
  await db.execute(
    sql`with entry as (
          insert into enforcement_checks (key_id, member_id, operator_id, key_prefix, client_address, zone_number,
                                          plate, plate_state, outcome, paid, session_id, address)
          values (${e.keyId}, ${e.memberId}, ${e.operatorId}, ${e.keyPrefix}, ${e.clientAddress}, ${e.zoneNumber}, ${e.plate},
                  ${e.plateState}, ${e.outcome}, ${e.paid}, ${e.sessionId}, ${e.address})),
        used as (
          update operator_api_keys set last_used_at = now()
          where ${markKey} and id = ${e.keyId}
            and (last_used_at is null or last_used_at < now() - interval '1 minute'))
        select ${AUDIT_COMMIT}`,
  );
}
