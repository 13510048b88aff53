import { sql, type Placeholder, type SQL } from 'drizzle-orm';
import { LruMap } from 'toad-cache';
import type { Quote } from '@parkit/contract';
import { namedStatement, type Executor } from '../db/client.ts';
import { policyOfVersion, policyVersionAt, permitsOfPlateQuery } from '../pricing/index.ts';
import { autoReloadCentsSql, listPlans, memberPlanIdSql } from '../wallet/index.ts';
import type { OperatorCache, ZoneCache } from '../zones/index.ts';
import { priceOf, type Priced } from './pricing.ts';
import { quoteWindow, type QuoteRow } from './quote-rows.ts';
import { quoteOf } from './quote-service.ts';
import { overMaxPaymentSql, vehicleSessionsSql } from './rules.ts';

declare module 'fastify' {
  interface FastifyInstance {
    quoteInputs: QuoteInputs;
  }
}

/**
 * A member's start quote in one round trip (docs/data-access.md#priced-from-what-the-process-holds). The price
 * is the pricing engine's (pricing/engine.ts, in code, written once): the statement cannot price,
 * so the process prices first from what it holds, and the statement checks that what it held is
 * still so before it writes the quote:
 * - the zone's row, at the row version held (`xmin`; app.zoneRows);
 * - the policy version in force for the zone now (pricing's policyVersionAt), as last seen for the
 *   zone (none yet: the zone's preset);
 * - the member's plan (wallet's memberPlanIdSql) among the plans held, with the discount and fee
 *   they were priced with: the process prices the stay once per discount of its plans;
 * - the zone's operator's, and the member's operator's.
 * It also checks what quoteStart checks: the vehicle is the member's and not parked (rules.ts's
 * busy-vehicle rule), the zone is not retired. It writes no quote when the vehicle holds a permit
 * for the zone (a permit prices by its own rules: quoteStart's), and the process does not try when
 * the stay is free, too long or under a no-return rule (quoteStart's refusals and its read of the
 * vehicle's last stay). Whatever stopped it, nothing is written and the caller takes quoteStart,
 * which checks again and answers the precise refusal; the statement's row tells what it saw (the
 * zone's version, the policy version, the member's plan) so the next quote holds that.
 */
export class QuoteInputs {
  /** Zone id -> the policy version last seen in force there (null: the preset). */
  private readonly versions = new LruMap<number | null>(50_000);
  /** The plans' terms (few; a plan the statement does not find among them reads them again). */
  private plans: Promise<PlanTerms[]> | null = null;

  constructor(
    readonly zones: ZoneCache,
    readonly operators: OperatorCache,
  ) {}

  versionOf(zoneId: number): number | null {
    return this.versions.get(zoneId) ?? null;
  }

  saw(zoneId: number, versionId: number | null): void {
    this.versions.set(zoneId, versionId);
  }

  planTerms(db: Executor): Promise<PlanTerms[]> {
    this.plans ??= listPlans(db).then(
      (ps) => ps.map((p) => ({ id: p.id, discountPercent: p.zoneDiscountPercent, feeCents: p.convenienceFeeCents })),
      (err: unknown) => {
        this.plans = null;
        throw err;
      },
    );
    return this.plans;
  }

  forgetPlans(): void {
    this.plans = null;
  }
}

interface PlanTerms {
  id: number;
  discountPercent: number;
  feeCents: number;
}

/** One priced row per plan: what the statement may write for a member of that plan. */
export interface PlanPrice {
  plan_id: number;
  discount: number;
  fee: number;
  parking: number;
  total: number;
}

/** What a quote statement answers: the member's funds, and the quote it wrote (or nulls). */
export interface QuotedRow {
  balance_cents: number | null;
  reload_cents: number | null;
  over: boolean | null;
  id: string | null;
  starts_at: Date | string;
  ends_at: Date | string;
  duration_minutes: number;
  parking_cents: number;
  fee_cents: number;
  total_cents: number;
  discount_percent: number;
  policy_version_id: number | null;
  expires_at: Date | string;
  created_at: Date | string;
}

/** The start quote's row: also what it saw (the zone's version, the policy version, the member's plan). */
interface QuoteStatementRow extends QuotedRow {
  zone_version: string | null;
  version_id: number | null;
  plan_id: number | null;
  plan_discount: number | null;
  plan_fee: number | null;
}

/**
 * The start quote in one statement, or null when the caller must take quoteStart (see QuoteInputs:
 * nothing was written then).
 */
export async function quoteStartAnswered(
  db: Executor,
  held: QuoteInputs,
  memberId: number,
  r: { ZoneId: number; VehicleId: number; DurationMinutes: number },
  now: Date,
): Promise<Quote | null> {
  const found = await held.zones.held(db, r.ZoneId);
  if (!found || found.zone.retiredAt !== null || r.DurationMinutes > found.zone.maxStayMinutes) return null;
  const { zone, version: zoneVersion } = found;
  const [operator, plans] = await Promise.all([held.operators.byOperatorId(db, zone.operatorId), held.planTerms(db)]);
  if (!operator) return null;
  const versionId = held.versionOf(zone.id);
  const policy = await policyOfVersion(db, zone, versionId);
  const priced = new Map<number, Priced>();
  const rows: PlanPrice[] = [];
  for (const p of plans) {
    let price = priced.get(p.discountPercent);
    if (!price)
      priced.set(
        p.discountPercent,
        (price = priceOf(policy, operator.timezone, now, 0, r.DurationMinutes, p.discountPercent)),
      );
    // quoteStart's refusals (too long, free) and its no-return read: the step-by-step path's.
    if (price.overMaxStay || price.paidMinutes === 0 || price.noReturnMinutes > 0) return null;
    rows.push({
      plan_id: p.id,
      discount: p.discountPercent,
      fee: p.feeCents,
      parking: price.parkingCents,
      total: price.parkingCents + p.feeCents,
    });
  }
  const [row] = await quoteStartStatement<QuoteStatementRow>(
    db,
    quoteStartValues(memberId, r, now, { operatorId: zone.operatorId, zoneVersion, versionId, rows }),
  );
  if (!row) return null;
  // What the statement saw, for the next quote: another version in force, a zone edited, a plan unknown.
  const seenVersion = row.version_id === null ? null : Number(row.version_id);
  if (row.zone_version !== null) {
    if (seenVersion !== versionId) held.saw(zone.id, seenVersion);
    if (row.zone_version !== zoneVersion) held.zones.forget(zone.id);
  }
  const plan = { id: Number(row.plan_id), discountPercent: Number(row.plan_discount), feeCents: Number(row.plan_fee) };
  if (
    row.plan_id !== null &&
    !plans.some((p) => p.id === plan.id && p.discountPercent === plan.discountPercent && p.feeCents === plan.feeCents)
  )
    held.forgetPlans();
  if (row.id === null) return null;
  const q = quoteRowOf(row, { memberId, kind: 'start', zoneId: r.ZoneId, vehicleId: r.VehicleId, sessionId: null });
  const maxMore = Math.min(zone.maxStayMinutes, policy.policy.maxStayMinutes);
  return quoteOf(q, zone.rateCents, maxMore, priced.get(q.discountPercent)!, fundsOf(row));
}

/** A quote statement's row (the start quote's, quote-extend-statement.ts's) as the quote row it wrote. */
export function quoteRowOf(
  row: QuotedRow,
  of: {
    memberId: number;
    kind: 'start' | 'extend';
    zoneId: number;
    vehicleId: number | null;
    sessionId: number | null;
  },
): QuoteRow {
  return {
    id: row.id!,
    memberId: of.memberId,
    guestPhone: null,
    kind: of.kind,
    zoneId: of.zoneId,
    vehicleId: of.vehicleId,
    sessionId: of.sessionId,
    plate: null,
    plateState: null,
    startsAt: new Date(row.starts_at),
    endsAt: new Date(row.ends_at),
    durationMinutes: Number(row.duration_minutes),
    parkingCents: Number(row.parking_cents),
    feeCents: Number(row.fee_cents),
    totalCents: Number(row.total_cents),
    discountPercent: Number(row.discount_percent),
    policyVersionId: row.policy_version_id === null ? null : Number(row.policy_version_id),
    autoStart: false,
    expiresAt: new Date(row.expires_at),
    usedAt: null,
    createdAt: new Date(row.created_at),
  };
}

/**
 * The member's funds as a quote statement reads them (QuotedRow's balance_cents, reload_cents and
 * over), from its `m` (the member's row) and `ins` (the quote it wrote): the balance, what
 * auto-reload would add (wallet's autoReloadCentsSql) and the Max Payment rule (rules.ts).
 */
export function fundsSql(db: Executor): SQL {
  return sql`m.balance_cents, ${autoReloadCentsSql(db, sql`m.id`)} as reload_cents,
          ${overMaxPaymentSql(sql`m.id`, sql`ins.total_cents`)} as over`;
}

/** The member's funds a quote statement reads with the quote (quote-service.ts's quoteOf takes them). */
export function fundsOf(row: QuotedRow): { balanceCents: number; reloadCents: number; over: boolean } {
  return { balanceCents: Number(row.balance_cents), reloadCents: Number(row.reload_cents), over: Boolean(row.over) };
}

/** The values of the start quote's statement (quoteStartQuery's placeholders). */
export interface QuoteStartValues extends Record<string, unknown> {
  member: number;
  zone: number;
  vehicle: number;
  minutes: number;
  /** Now, the quote's end and the end of its hold (timestamptz text). */
  at: string;
  endsAt: string;
  expiresAt: string;
  /** The zone's operator, row version and policy version as held (null: the preset). */
  operator: number;
  zoneVersion: string;
  versionId: number | null;
  /** The plans priced (PlanPrice[] as JSON). */
  prices: string;
}

/** The start quote's values: the ask, the moment, and what the process holds. */
export function quoteStartValues(
  memberId: number,
  r: { ZoneId: number; VehicleId: number; DurationMinutes: number },
  now: Date,
  held: { operatorId: number; zoneVersion: string; versionId: number | null; rows: readonly PlanPrice[] },
): QuoteStartValues {
  const w = quoteWindow(now, r.DurationMinutes, now);
  return {
    member: memberId,
    zone: r.ZoneId,
    vehicle: r.VehicleId,
    minutes: r.DurationMinutes,
    at: now.toISOString(),
    endsAt: w.endsAt.toISOString(),
    expiresAt: w.expiresAt.toISOString(),
    operator: held.operatorId,
    zoneVersion: held.zoneVersion,
    versionId: held.versionId,
    prices: JSON.stringify(held.rows),
  };
}

/** The statement, built once (its builders: the permit read, auto-reload's read). */
const quoteStartStatement = namedStatement<QuoteStartValues>('parking_quote_start', (p, db) => quoteStartQuery(db, p));

/**
 * The start quote's statement with a placeholder (`p`) for each value (exported for the bench's
 * bare Quotes, which send the same text): it answers one row whenever the member exists, with what
 * it saw and the quote it wrote (or nulls).
 */
export function quoteStartQuery(db: Executor, p: (name: keyof QuoteStartValues & string) => Placeholder): SQL {
  const at = sql`${p('at')}::timestamptz`;
  const member = sql`${p('member')}::int`;
  const zone = sql`${p('zone')}::int`;
  const vehicle = sql`${p('vehicle')}::int`;
  const versionId = sql`${p('versionId')}::int`;
  const permits = permitsOfPlateQuery(db, {
    operatorId: sql`${p('operator')}::int`,
    zoneId: zone,
    plate: sql`v.plate_key`,
    at,
  });
  return sql`with m as (
          select id, client_id, balance_cents, ${memberPlanIdSql(sql`members.id`)} as plan_id from members where id = ${member}
        ), z as (
          -- The zone and its operator as values: policyVersionAt's subqueries name zones "z" themselves.
          select z.id, z.operator_id, z.xmin::text as version,
            ${policyVersionAt({ id: zone, operatorId: sql`${p('operator')}::int` }, at)} as version_id
          from zones z
          where z.id = ${zone} and z.operator_id = (select client_id from m) and z.retired_at is null
        ), v as (
          select v.id, v.plate_key from vehicles v
          -- The permit read takes plate_key (letters and digits) for the plate check's normalised
          -- plate: the same for every plate the contract lets a member save.
          where v.id = ${vehicle} and v.member_id = ${member} and v.plate ~ '^[A-Z0-9 -]+$'
        ), p as (
          select p.* from jsonb_to_recordset(${p('prices')}::jsonb)
            as p(plan_id int, discount int, fee int, parking int, total int)
          join plans pl on pl.id = p.plan_id and pl.zone_discount_percent = p.discount and pl.convenience_fee_cents = p.fee
          where p.plan_id = (select plan_id from m)
        ), ok as (
          select p.* from p, z, v
          where z.version = ${p('zoneVersion')}::text and z.version_id is not distinct from ${versionId}
            and not exists (${vehicleSessionsSql(vehicle, at)})
            and not exists (${permits})
        ), ins as (
          insert into parking_quotes (member_id, kind, zone_id, vehicle_id, starts_at, ends_at, duration_minutes,
            parking_cents, fee_cents, total_cents, discount_percent, policy_version_id, auto_start, expires_at)
          select ${member}, 'start', ${zone}, ${vehicle}, ${at}, ${p('endsAt')}::timestamptz, ${p('minutes')}::int,
            ok.parking, ok.fee, ok.total, ok.discount, ${versionId}, false, ${p('expiresAt')}::timestamptz
          from ok
          returning id, starts_at, ends_at, duration_minutes, parking_cents, fee_cents, total_cents, discount_percent,
            policy_version_id, expires_at, created_at
        )
        select z.version as zone_version, z.version_id, m.plan_id, pl.zone_discount_percent as plan_discount,
          pl.convenience_fee_cents as plan_fee, ${fundsSql(db)}, ins.*
        from m left join plans pl on pl.id = m.plan_id left join z on true left join ins on true`;
}
