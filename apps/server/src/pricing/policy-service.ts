import { eq, sql, type SQL } from 'drizzle-orm';
import {
  centsToAmount,
  PARKING_MESSAGES,
  PolicyBody,
  PRICING_MESSAGES,
  PricePreviewRequest,
  type PricePreview,
  type PriceSpan,
  type UserClass,
} from '@parkit/contract';
import { queryRows, type Db, type Executor } from '../db/client.ts';
import { pricePolicyVersions } from '../db/schema/index.ts';
import { notFound } from '../lib/http-error.ts';
import { operatorById } from '../zones/index.ts';
import { compilePolicy, type CompiledPolicy } from './compiled-policy.ts';
import { priceWindow, type WindowPrice } from './engine.ts';
import { permitsOfPlate, type ZonePermit } from './permit-holders.ts';
import { parseOr400, versionOf } from './policy-repository.ts';
import { presetPolicy, type Preset } from './preset.ts';
import { rateNow, type RateNow } from './rate-now.ts';

/**
 * What parking asks of pricing (docs/pricing.md#versions-and-events): the policy that prices a
 * session starting now in a zone, and the one a running session keeps.
 */

export interface SessionPolicy {
  /** The version that priced it; null: the zone's preset (a zone with no policy of its own). */
  versionId: number | null;
  policy: CompiledPolicy;
  /** The permits the session's plate holds for the zone at its start: the spans' rules price it by them. */
  permits: readonly ZonePermit[];
}

// Versions never change once written, so a compiled one is good for as long as the process runs.
const compiled = new Map<number, CompiledPolicy>();
const CACHE_LIMIT = 2_000;

async function compiledVersion(db: Executor, id: number): Promise<CompiledPolicy> {
  const hit = compiled.get(id);
  if (hit) return hit;
  const [row] = await db
    .select({ body: pricePolicyVersions.body })
    .from(pricePolicyVersions)
    .where(eq(pricePolicyVersions.id, id));
  if (!row) throw new Error(`price policy version ${id} vanished`);
  const c = compilePolicy(PolicyBody.parse(row.body));
  if (compiled.size >= CACHE_LIMIT) compiled.clear();
  compiled.set(id, c);
  return c;
}

function presetOf(zone: Preset): SessionPolicy {
  return { versionId: null, policy: compilePolicy(presetPolicy(zone)), permits: [] };
}

/**
 * The policy for a session starting at `at` in a zone: an event's (the latest started whose
 * window holds `at` and names the zone), else the zone's policy, each at its version in force at
 * `at`; without either, the zone's preset. Given the plate, with the permits it holds for the zone
 * then (docs/pricing.md#permit-holders).
 */
export async function policyForStart(
  db: Executor,
  zone: Preset & { id: number; operatorId: number },
  at: Date,
  plate?: string,
): Promise<SessionPolicy> {
  const [policy, permits] = await Promise.all([
    policyAt(db, zone, at),
    plate === undefined ? [] : permitsOfPlate(db, { operatorId: zone.operatorId, zoneId: zone.id, plate, at }),
  ]);
  return { ...policy, permits };
}

async function policyAt(
  db: Executor,
  zone: Preset & { id: number; operatorId: number },
  at: Date,
): Promise<SessionPolicy> {
  const [row] = await queryRows<{ version_id: number | null }>(
    db,
    sql`select ${policyVersionAt({ id: sql`${zone.id}::int`, operatorId: sql`${zone.operatorId}::int` }, at)} as version_id`,
  );
  const id = row?.version_id === null || row?.version_id === undefined ? null : Number(row.version_id);
  return policyOfVersion(db, zone, id);
}

/**
 * The id of the policy version that prices a session starting at `at` in the zone (an event's, else
 * the zone's version in force), or null (the preset), as an SQL expression: the zone's id and
 * operator as SQL, values or columns of the statement it is part of (the plate check's; not of an
 * alias `e`, `v` or `pz`, which its subqueries name themselves); the moment as a value or SQL (a
 * timestamptz: the check's placeholder).
 */
export function policyVersionAt(zone: { id: SQL; operatorId: SQL }, at: Date | SQL): SQL {
  const t = at instanceof Date ? sql`${at.toISOString()}::timestamptz` : at;
  return sql`coalesce(
          (select v.id from price_events e join price_policy_versions v on v.policy_id = e.policy_id
           where e.operator_id = ${zone.operatorId} and ${zone.id} = any(e.zone_ids) and e.cancelled_at is null
             and e.starts_at <= ${t} and e.ends_at > ${t} and v.effective_from <= ${t}
           order by e.starts_at desc, e.id desc, v.effective_from desc, v.version desc limit 1),
          (select v.id from zones pz join price_policy_versions v on v.policy_id = pz.price_policy_id
           where pz.id = ${zone.id} and v.effective_from <= ${t}
           order by v.effective_from desc, v.version desc limit 1)
        )`;
}

/** The policy of a version read by policyVersionAt (null: the zone's preset), compiled once per process. */
export async function policyOfVersion(db: Executor, zone: Preset, versionId: number | null): Promise<SessionPolicy> {
  return versionId === null ? presetOf(zone) : { versionId, policy: await compiledVersion(db, versionId), permits: [] };
}

/**
 * Find Parking's prices of some zones of one operator at `now`, by the policy the quote engine would
 * price a stay starting now with (an event's, else the zone's version in force, else the preset):
 * one statement for all of them, the versions compiled once per process.
 */
export async function ratesNow(
  db: Executor,
  zones: readonly (Preset & { id: number; operatorId: number })[],
  timeZone: string,
  now: Date,
): Promise<Map<number, RateNow>> {
  const out = new Map<number, RateNow>();
  if (zones.length === 0) return out;
  const t = sql`${now.toISOString()}::timestamptz`;
  const ids = sql`array[${sql.join(
    zones.map((z) => sql`${z.id}::int`),
    sql`, `,
  )}]::int[]`;
  const rows = await queryRows<{ zone_id: number; version_id: number | null }>(
    db,
    sql`select z.id as zone_id, coalesce(
          (select v.id from price_events e join price_policy_versions v on v.policy_id = e.policy_id
           where e.operator_id = z.operator_id and z.id = any(e.zone_ids) and e.cancelled_at is null
             and e.starts_at <= ${t} and e.ends_at > ${t} and v.effective_from <= ${t}
           order by e.starts_at desc, e.id desc, v.effective_from desc, v.version desc limit 1),
          (select v.id from price_policy_versions v
           where v.policy_id = z.price_policy_id and v.effective_from <= ${t}
           order by v.effective_from desc, v.version desc limit 1)
        ) as version_id
        from zones z where z.id = any(${ids})`,
  );
  const versionOfZone = new Map(
    rows.map((r) => [Number(r.zone_id), r.version_id === null ? null : Number(r.version_id)]),
  );
  for (const z of zones) {
    const id = versionOfZone.get(z.id) ?? null;
    const policy = id === null ? presetOf(z).policy : await compiledVersion(db, id);
    out.set(z.id, rateNow(policy, timeZone, now.getTime()));
  }
  return out;
}

/**
 * The policy a session keeps for its extensions and refunds: the version it started with, or the
 * zone's preset at the rate the session started with; with the permits its plate held for the zone
 * when it started, so a permit's own rate prices the minutes added or given back as it priced the start.
 */
export async function policyOfSession(
  db: Executor,
  s: {
    policyVersionId: number | null;
    rateCents: number;
    plate: string;
    zoneId: number;
    operatorId: number;
    startedAt: Date;
  },
  zone: Preset,
): Promise<SessionPolicy> {
  const permits = await permitsOfPlate(db, {
    operatorId: s.operatorId,
    zoneId: s.zoneId,
    plate: s.plate,
    at: s.startedAt,
  });
  if (s.policyVersionId === null) return { ...presetOf({ ...zone, rateCents: s.rateCents }), permits };
  return { versionId: s.policyVersionId, policy: await compiledVersion(db, s.policyVersionId), permits };
}

/** A window's stretches as the API shows them. */
export function spansView(p: WindowPrice, startMs: number): PriceSpan[] {
  const at = (m: number) => new Date(startMs + m * 60_000).toISOString();
  return p.stretches.map((s) => ({
    Name: s.name,
    StartsAt: at(s.startMinute),
    EndsAt: at(s.endMinute),
    Minutes: s.endMinute - s.startMinute,
    Amount: centsToAmount(s.cents),
  }));
}

/**
 * "A 2-hour stay at 17:30 on a Saturday costs …": a stay priced by one of the operator's policies
 * (its version in force then, or a named version) or by a draft body not yet saved, in the
 * operator's time zone. 404 for another operator's policy; 400 for a bad request or draft.
 */
export async function previewPrice(
  db: Db,
  operatorId: number,
  source: { policyId: number; version?: number } | { body: unknown },
  input: unknown,
): Promise<PricePreview> {
  const r = parseOr400(PricePreviewRequest, input);
  const operator = await operatorById(db, operatorId);
  if (!operator) throw notFound();
  const startsAt = new Date(r.StartsAt);
  let body: PolicyBody;
  if ('body' in source) body = parseOr400(PolicyBody, source.body);
  else {
    const v = await versionOf(
      db,
      operatorId,
      source.policyId,
      source.version === undefined ? { at: startsAt } : { version: source.version },
    );
    if (!v) throw notFound(PRICING_MESSAGES.policyNotFound);
    body = v.body;
  }
  const startMs = startsAt.getTime();
  const price = priceWindow(compilePolicy(body), operator.timezone, startMs, 0, r.DurationMinutes, {
    classes: new Set<UserClass>(r.UserClasses),
  });
  return {
    StartsAt: startsAt.toISOString(),
    EndsAt: new Date(startMs + r.DurationMinutes * 60_000).toISOString(),
    DurationMinutes: r.DurationMinutes,
    PaidMinutes: price.paidMinutes,
    Amount: centsToAmount(price.parkingCents),
    Refusal: price.refusal === 'maxStay' ? PARKING_MESSAGES.maxStay : null,
    Spans: spansView(price, startMs),
  };
}

function presetName(p: Preset): string {
  const clock = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
  const days = [...p.paidDays].sort((a, b) => a - b).join('');
  return `Preset ${p.rateCents}c/h days ${days || '-'} ${clock(p.paidFromMinute)}-${clock(p.paidUntilMinute)} max ${p.maxStayMinutes} min`;
}

/**
 * Every zone without a policy gets the policy equal to its preset (docs/pricing.md#presets): one
 * policy per operator and preset, version 1 in force since 1970, so every price stays what it was.
 * Run at start (after the migrations and the demo seed) and after a zone import; safe to run
 * twice or from two processes at once (the policy's name is unique per operator, and only zones
 * still without a policy are changed). Returns how many zones it gave a policy.
 */
export async function adoptPresetPolicies(db: Db): Promise<number> {
  const groups = await queryRows<{
    operator_id: number;
    rate_cents: number;
    max_stay_minutes: number;
    paid_days: number[] | string;
    paid_from_minute: number;
    paid_until_minute: number;
  }>(
    db,
    sql`select distinct operator_id, rate_cents, max_stay_minutes, paid_days, paid_from_minute, paid_until_minute
        from zones where price_policy_id is null`,
  );
  if (groups.length === 0) return 0;
  // One row per preset, sent as one JSON batch: the same four statements for 1 preset or 1,000.
  const batch = JSON.stringify(
    groups.map((g) => {
      const preset: Preset = {
        rateCents: Number(g.rate_cents),
        maxStayMinutes: Number(g.max_stay_minutes),
        paidDays: smallints(g.paid_days),
        paidFromMinute: Number(g.paid_from_minute),
        paidUntilMinute: Number(g.paid_until_minute),
      };
      return {
        operator_id: Number(g.operator_id),
        name: presetName(preset),
        body: presetPolicy(preset),
        rate_cents: preset.rateCents,
        max_stay_minutes: preset.maxStayMinutes,
        paid_days: `{${preset.paidDays.join(',')}}`,
        paid_from_minute: preset.paidFromMinute,
        paid_until_minute: preset.paidUntilMinute,
      };
    }),
  );
  const rows = sql`json_to_recordset(${batch}::json) as g(operator_id int, name text, body jsonb, rate_cents int,
    max_stay_minutes int, paid_days smallint[], paid_from_minute smallint, paid_until_minute smallint)`;
  return db.transaction(async (tx) => {
    await tx.execute(
      sql`insert into price_policies (operator_id, name) select g.operator_id, g.name from ${rows}
          on conflict (operator_id, name) do nothing`,
    );
    await tx.execute(
      sql`insert into price_policy_versions (policy_id, version, effective_from, body)
          select p.id, 1, 'epoch'::timestamptz, g.body from ${rows}
          join price_policies p on p.operator_id = g.operator_id and p.name = g.name
          on conflict (policy_id, version) do nothing`,
    );
    const changed = await queryRows<{ id: number }>(
      tx,
      sql`update zones z set price_policy_id = p.id
          from ${rows} join price_policies p on p.operator_id = g.operator_id and p.name = g.name
          where z.price_policy_id is null and z.operator_id = g.operator_id and z.rate_cents = g.rate_cents
            and z.max_stay_minutes = g.max_stay_minutes and z.paid_days = g.paid_days
            and z.paid_from_minute = g.paid_from_minute and z.paid_until_minute = g.paid_until_minute
          returning z.id`,
    );
    return changed.length;
  });
}

/** A smallint[] as either driver answers it: an array, or PostgreSQL's text form '{1,2}'. */
function smallints(v: number[] | string): number[] {
  if (Array.isArray(v)) return v.map(Number);
  return v.replace(/[{}]/g, '').split(',').filter(Boolean).map(Number);
}
