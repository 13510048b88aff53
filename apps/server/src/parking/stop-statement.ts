import { sql, type SQL } from 'drizzle-orm';
import { LruMap } from 'toad-cache';
import { centsToAmount, type StopResponse } from '@parkit/contract';
import { queryRowsNamed, type Executor } from '../db/client.ts';
import { postEntrySql } from '../db/post-entry-sql.ts';
import { normalisePlate } from '../lib/plate.ts';
import { permitsOfPlateQuery, policyOfVersion } from '../pricing/index.ts';
import type { OperatorCache, ZoneCache } from '../zones/index.ts';
import { stopPriced } from './pricing.ts';
import { toSessionView } from './session-repository.ts';
import { startedOf, type Started, type StartedRow } from './start-statement.ts';

declare module 'fastify' {
  interface FastifyInstance {
    sessionTerms: SessionTerms;
  }
}

/** What prices a running session's refund, as the process last saw it (Start's and Extend's statements). */
export interface HeldTerms {
  id: number;
  zoneId: number;
  plate: string;
  startedAt: Date;
  endsAt: Date;
  durationMinutes: number;
  parkingCents: number;
  refundedCents: number;
  discountPercent: number;
  rateCents: number;
  policyVersionId: number | null;
}

/**
 * Running sessions' pricing terms as this process last wrote them (Start's and Extend's one
 * statements answer them), so that Stop can price its refund before its one statement, which
 * checks every one of them is still so (stop-statement.ts). A session changed elsewhere (another
 * process, a job, Amend) is only a miss: Stop then takes its transaction path.
 */
export class SessionTerms {
  private readonly held = new LruMap<HeldTerms>(100_000);

  constructor(
    readonly zones: ZoneCache,
    readonly operators: OperatorCache,
  ) {}

  /** A session as Start's or Extend's statement answered it (with its terms). */
  saw(started: Started): void {
    const row = started.row;
    if (row.rate_cents === undefined || row.discount_percent === undefined) return;
    const s = started.view.session;
    this.held.set(s.id, {
      id: s.id,
      zoneId: s.zoneId,
      plate: s.plate,
      startedAt: s.startedAt,
      endsAt: s.endsAt,
      durationMinutes: s.durationMinutes,
      parkingCents: s.parkingCents,
      refundedCents: s.refundedCents,
      discountPercent: Number(row.discount_percent),
      rateCents: Number(row.rate_cents),
      policyVersionId: row.policy_version_id === null ? null : Number(row.policy_version_id),
    });
  }

  get(id: number): HeldTerms | undefined {
    return this.held.get(id);
  }

  forget(id: number): void {
    this.held.delete(id);
  }
}

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
  const terms = held.get(sessionId);
  if (!terms || terms.endsAt.getTime() <= now.getTime()) return null;
  const found = await held.zones.held(db, terms.zoneId);
  if (!found) return null;
  const { zone, version: zoneVersion } = found;
  const operator = await held.operators.byOperatorId(db, zone.operatorId);
  if (!operator) return null;
  const policy = await policyOfVersion(db, { ...zone, rateCents: terms.rateCents }, terms.policyVersionId);
  const { unused, refundCents } = stopPriced(policy, operator.timezone, terms, now);
  const [row] = await queryRowsNamed<StartedRow & { zone_version: string | null }>(
    db,
    'parking_stop',
    stopSql(db, memberId, terms, { operatorId: zone.operatorId, zoneVersion, unused, refundCents }, now),
  );
  if (!row || row.id === null) {
    // Changed since this process saw it (or not this member's): the transaction path reads it.
    held.forget(sessionId);
    if (row?.zone_version !== undefined && row.zone_version !== zoneVersion) held.zones.forget(zone.id);
    return null;
  }
  held.forget(sessionId);
  return {
    ...toSessionView(startedOf(row).view, now),
    RefundAmount: centsToAmount(refundCents),
    UnusedMinutes: unused,
  };
}

/** Stop's statement (exported for the bench's bare Stops, which send the same text). */
export function stopSql(
  db: Executor,
  memberId: number,
  t: HeldTerms,
  p: { operatorId: number; zoneVersion: string; unused: number; refundCents: number },
  now: Date,
): SQL {
  const at = sql`${now.toISOString()}::timestamptz`;
  const startedAt = sql`${t.startedAt.toISOString()}::timestamptz`;
  const permits = permitsOfPlateQuery(db, {
    operatorId: sql`${p.operatorId}::int`,
    zoneId: sql`${t.zoneId}::int`,
    plate: sql`${normalisePlate(t.plate)}::text`,
    at: startedAt,
  });
  const stopped = sql`select upd.*, z.zone_number, z.address, z.city, z.state, z.lat, z.lng, z.max_stay_minutes, false as reload_due
        from upd, z`;
  return sql`with m as (
          select id from members where id = ${memberId}::int for no key update
        ), s as (
          select * from parking_sessions
          where id = ${t.id}::int and member_id = ${memberId}::int and exists (select 1 from m)
          for update
        ), z as (
          select z.id, z.xmin::text as version, z.zone_number, z.address, z.city, z.state, z.lat, z.lng, z.max_stay_minutes
          from zones z where z.id = ${t.zoneId}::int
        ), ok as (
          select s.id from s, z
          where s.status = 'active' and s.ends_at > ${at} and s.paid_via = 'Wallet' and s.card_ref is null
            and s.zone_id = ${t.zoneId}::int and s.plate = ${t.plate}::text and s.started_at = ${startedAt}
            and s.ends_at = ${t.endsAt.toISOString()}::timestamptz and s.duration_minutes = ${t.durationMinutes}::int
            and s.parking_cents = ${t.parkingCents}::int and s.refunded_cents = ${t.refundedCents}::int
            and s.discount_percent = ${t.discountPercent}::int and s.rate_cents = ${t.rateCents}::int
            and s.policy_version_id is not distinct from ${t.policyVersionId}::int
            and z.version = ${p.zoneVersion}::text
            and not exists (${permits})
        ), paid as (
          select e.* from ok, ${postEntrySql(sql`${memberId}::int`, sql`${p.refundCents}::int`, 'refund', sql`'session:' || ok.id || ':stop'`, null)} e
          where ${p.refundCents}::int > 0
        ), upd as (
          update parking_sessions ps set
            status = 'ended',
            ended_at = ${at},
            ends_at = ps.ends_at - make_interval(mins => ${p.unused}::int),
            duration_minutes = ps.duration_minutes - ${p.unused}::int,
            refunded_cents = ps.refunded_cents + ${p.refundCents}::int,
            updated_at = ${at}
          from ok
          where ps.id = ok.id and (${p.refundCents}::int = 0 or exists (select 1 from paid))
          returning ps.id, ps.zone_id, ps.vehicle_id, ps.vehicle_make, ps.vehicle_model, ps.plate, ps.plate_state, ps.started_at,
            ps.ends_at, ps.ended_at, ps.duration_minutes, ps.parking_cents, ps.fee_cents, ps.refunded_cents, ps.paid_via,
            ps.auto_session_used, ps.auto_extended_used, ps.status
        )
        select (select version from z) as zone_version, e.* from m left join (${stopped}) e on true`;
}
