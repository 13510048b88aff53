import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import {
  PolicyBody,
  PolicyVersionRequest,
  PriceEventRequest,
  PRICING_MESSAGES,
  type PolicyVersion,
} from '@parkit/contract';
import { queryRows, type Db, type Executor } from '../db/client.ts';
import { priceEvents, pricePolicies, pricePolicyVersions, zones } from '../db/schema/index.ts';
import { conflict, HttpError, notFound } from '../lib/http-error.ts';

/**
 * Price policies of an operator (docs/pricing.md): versions, assignment to zones and events.
 * Every statement names the operator, so another operator's policy, zone or event is not found.
 */

/** Clock skew a console may have: an EffectiveFrom up to this long ago means now. */
const SKEW_MS = 60_000;
const UNIQUE_VIOLATION = '23505';

/** A refused body: 400 with every field at fault (its path under the request, e.g. Body.Spans.0.From). */
export function parseOr400<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const errors = parsed.error.issues.map((i) => ({ field: i.path.join('.') || 'body', message: i.message }));
  throw new HttpError(400, errors[0]?.message ?? 'Invalid input', errors);
}

function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause)
    if ((e as { code?: unknown }).code === UNIQUE_VIOLATION) return true;
  return false;
}

type VersionRow = typeof pricePolicyVersions.$inferSelect & { name: string };

function toView(r: VersionRow): PolicyVersion {
  return {
    PolicyId: r.policyId,
    Name: r.name,
    Version: r.version,
    EffectiveFrom: r.effectiveFrom.toISOString(),
    CreatedAt: r.createdAt.toISOString(),
    Body: PolicyBody.parse(r.body),
  };
}

const versionColumns = {
  id: pricePolicyVersions.id,
  policyId: pricePolicyVersions.policyId,
  version: pricePolicyVersions.version,
  effectiveFrom: pricePolicyVersions.effectiveFrom,
  body: pricePolicyVersions.body,
  createdAt: pricePolicyVersions.createdAt,
  name: pricePolicies.name,
};

/**
 * Saves a version of a policy: a new policy (policyId null; Name required) or the next version of
 * one of the operator's policies, which prices sessions started from EffectiveFrom on (default
 * now; never in the past, so no session already priced changes). The policy row is locked while
 * its next version number is taken.
 */
export async function savePolicyVersion(
  db: Db,
  operatorId: number,
  policyId: number | null,
  input: unknown,
  now: Date,
): Promise<PolicyVersion> {
  const r = parseOr400(PolicyVersionRequest, input);
  let effectiveFrom = r.EffectiveFrom ? new Date(r.EffectiveFrom) : now;
  if (effectiveFrom.getTime() < now.getTime() - SKEW_MS)
    throw new HttpError(400, PRICING_MESSAGES.effectivePast, [
      { field: 'EffectiveFrom', message: PRICING_MESSAGES.effectivePast },
    ]);
  if (effectiveFrom < now) effectiveFrom = now;
  if (policyId === null && !r.Name)
    throw new HttpError(400, 'Name is required', [{ field: 'Name', message: 'Name is required' }]);
  try {
    return await db.transaction(async (tx) => {
      let id = policyId;
      if (id === null) {
        const [created] = await tx
          .insert(pricePolicies)
          .values({ operatorId, name: r.Name! })
          .returning({ id: pricePolicies.id });
        id = created!.id;
      } else {
        const [locked] = await tx
          .select({ id: pricePolicies.id })
          .from(pricePolicies)
          .where(and(eq(pricePolicies.id, id), eq(pricePolicies.operatorId, operatorId)))
          .for('update');
        if (!locked) throw notFound();
        if (r.Name) await tx.update(pricePolicies).set({ name: r.Name }).where(eq(pricePolicies.id, id));
      }
      const next = sql<number>`(select coalesce(max(${pricePolicyVersions.version}), 0) + 1 from ${pricePolicyVersions} where ${pricePolicyVersions.policyId} = ${id})`;
      const [v] = await tx
        .insert(pricePolicyVersions)
        .values({ policyId: id, version: next, effectiveFrom, body: r.Body })
        .returning({ id: pricePolicyVersions.id });
      const [row] = await tx
        .select(versionColumns)
        .from(pricePolicyVersions)
        .innerJoin(pricePolicies, eq(pricePolicies.id, pricePolicyVersions.policyId))
        .where(eq(pricePolicyVersions.id, v!.id));
      return toView(row!);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('Name', 'A price policy with this name already exists');
    throw err;
  }
}

/** The versions of one of the operator's policies, oldest first; null when it is not theirs. */
export async function listPolicyVersions(
  db: Executor,
  operatorId: number,
  policyId: number,
): Promise<PolicyVersion[] | null> {
  const rows = await db
    .select(versionColumns)
    .from(pricePolicyVersions)
    .innerJoin(pricePolicies, eq(pricePolicies.id, pricePolicyVersions.policyId))
    .where(and(eq(pricePolicies.id, policyId), eq(pricePolicies.operatorId, operatorId)))
    .orderBy(asc(pricePolicyVersions.version));
  return rows.length === 0 ? null : rows.map(toView);
}

/** The operator's policies with their latest version number. */
export async function listPolicies(
  db: Executor,
  operatorId: number,
): Promise<{ PolicyId: number; Name: string; LatestVersion: number }[]> {
  const rows = await db
    .select({
      id: pricePolicies.id,
      name: pricePolicies.name,
      latest: sql<number>`(select max(${pricePolicyVersions.version}) from ${pricePolicyVersions} where ${pricePolicyVersions.policyId} = ${pricePolicies.id})`,
    })
    .from(pricePolicies)
    .where(eq(pricePolicies.operatorId, operatorId))
    .orderBy(asc(pricePolicies.name));
  return rows.map((r) => ({ PolicyId: r.id, Name: r.name, LatestVersion: Number(r.latest ?? 0) }));
}

/**
 * The operator's version of a policy in force at a moment (or a named version); null when the
 * policy is not theirs or had no version yet.
 */
export async function versionOf(
  db: Executor,
  operatorId: number,
  policyId: number,
  at: { at: Date } | { version: number },
): Promise<{ id: number; body: PolicyBody } | null> {
  const [row] = await db
    .select({ id: pricePolicyVersions.id, body: pricePolicyVersions.body })
    .from(pricePolicyVersions)
    .innerJoin(pricePolicies, eq(pricePolicies.id, pricePolicyVersions.policyId))
    .where(
      and(
        eq(pricePolicies.id, policyId),
        eq(pricePolicies.operatorId, operatorId),
        'at' in at
          ? sql`${pricePolicyVersions.effectiveFrom} <= ${at.at.toISOString()}::timestamptz`
          : eq(pricePolicyVersions.version, at.version),
      ),
    )
    .orderBy(desc(pricePolicyVersions.effectiveFrom), desc(pricePolicyVersions.version))
    .limit(1);
  return row ? { id: row.id, body: row.body as PolicyBody } : null;
}

/**
 * Gives one of the operator's zones one of the operator's policies (null: back to its preset).
 * One statement: the zone changes only when both are the operator's; false when not.
 */
export async function assignPolicy(
  db: Executor,
  operatorId: number,
  zoneId: number,
  policyId: number | null,
): Promise<boolean> {
  const owned =
    policyId === null
      ? sql`true`
      : sql`exists (select 1 from ${pricePolicies} where ${pricePolicies.id} = ${policyId} and ${pricePolicies.operatorId} = ${operatorId})`;
  const rows = await db
    .update(zones)
    .set({ pricePolicyId: policyId })
    .where(and(eq(zones.id, zoneId), eq(zones.operatorId, operatorId), owned))
    .returning({ id: zones.id });
  return rows.length > 0;
}

export interface PriceEventView {
  EventId: number;
  Name: string;
  StartsAt: string;
  EndsAt: string;
  PolicyId: number;
  ZoneIds: number[];
}

function toEventView(e: typeof priceEvents.$inferSelect): PriceEventView {
  return {
    EventId: e.id,
    Name: e.name,
    StartsAt: e.startsAt.toISOString(),
    EndsAt: e.endsAt.toISOString(),
    PolicyId: e.policyId,
    ZoneIds: [...e.zoneIds].sort((a, b) => a - b),
  };
}

/**
 * A named event: its policy prices the sessions started in its window in the chosen zones. One
 * statement writes it only when the policy and every zone are the operator's; else 404.
 */
export async function createPriceEvent(db: Executor, operatorId: number, input: unknown): Promise<PriceEventView> {
  const r = parseOr400(PriceEventRequest, input);
  const ids = [...new Set(r.ZoneIds)];
  const idList = sql.join(
    ids.map((id) => sql`${id}::int`),
    sql`, `,
  );
  const zoneArray = sql`array[${idList}]::int[]`;
  const rows = await queryRows<EventRow>(
    db,
    sql`insert into price_events (operator_id, name, starts_at, ends_at, policy_id, zone_ids)
        select ${operatorId}::int, ${r.Name}::text, ${r.StartsAt}::timestamptz, ${r.EndsAt}::timestamptz, p.id, ${zoneArray}
        from price_policies p
        where p.id = ${r.PolicyId}::int and p.operator_id = ${operatorId}::int
          and (select count(*) from zones z where z.operator_id = ${operatorId}::int and z.id = any(${zoneArray})) = ${ids.length}
        returning id, name, starts_at, ends_at, policy_id, zone_ids`,
  );
  const row = rows[0];
  if (!row) throw notFound();
  return {
    EventId: Number(row.id),
    Name: row.name,
    StartsAt: new Date(row.starts_at).toISOString(),
    EndsAt: new Date(row.ends_at).toISOString(),
    PolicyId: Number(row.policy_id),
    ZoneIds: parseIntArray(row.zone_ids).sort((a, b) => a - b),
  };
}

interface EventRow {
  id: number;
  name: string;
  starts_at: string | Date;
  ends_at: string | Date;
  policy_id: number;
  zone_ids: number[] | string;
}

/** An int[] as either driver answers it: an array, or PostgreSQL's text form '{1,2}'. */
function parseIntArray(v: number[] | string): number[] {
  if (Array.isArray(v)) return v.map(Number);
  return v.replace(/[{}]/g, '').split(',').filter(Boolean).map(Number);
}

/** The operator's events that have not ended, by start. */
export async function listPriceEvents(db: Executor, operatorId: number, now: Date): Promise<PriceEventView[]> {
  const rows = await db
    .select()
    .from(priceEvents)
    .where(and(eq(priceEvents.operatorId, operatorId), sql`${priceEvents.endsAt} > ${now.toISOString()}::timestamptz`))
    .orderBy(asc(priceEvents.startsAt), asc(priceEvents.id));
  return rows.map(toEventView);
}
