import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import {
  PolicyBody,
  PolicyVersionRequest,
  PRICING_MESSAGES,
  type PolicyDetail,
  type PolicySummary,
  type PolicyVersion,
} from '@parkit/contract';
import { type Db, type Executor } from '../db/client.ts';
import { pricePolicies, pricePolicyVersions, zones } from '../db/schema/index.ts';
import { audit, type Actor } from '../infra/audit-log.ts';
import { checkPermitTypes } from './permit-holders.ts';
import { conflict, HttpError, notFound } from '../lib/http-error.ts';
import { isUniqueViolation } from '../db/errors.ts';

/**
 * Price policies of an operator (docs/pricing.md): versions, assignment to zones and events.
 * Every statement names the operator, so another operator's policy, zone or event is not found.
 * Every change is audited in its own transaction (docs/architecture.md#the-audit-log).
 */

/** Clock skew a console may have: an EffectiveFrom up to this long ago means now. */
const SKEW_MS = 60_000;
/** A refused body: 400 with every field at fault (its path under the request, e.g. Body.Spans.0.From). */
export function parseOr400<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const errors = parsed.error.issues.map((i) => ({ field: i.path.join('.') || 'body', message: i.message }));
  throw new HttpError(400, errors[0]?.message ?? 'Invalid input', errors);
}

type VersionRow = Omit<typeof pricePolicyVersions.$inferSelect, 'cdsIds'> & { name: string };

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
 * its next version number is taken, so two saves at once are numbered one after the other.
 */
export async function savePolicyVersion(
  db: Db,
  operatorId: number,
  policyId: number | null,
  input: unknown,
  now: Date,
  actor: Actor,
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
      // The types named are locked (shared) until the version is written: none can retire meanwhile.
      await checkPermitTypes(tx, operatorId, r.Body);
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
        if (!locked) throw notFound(PRICING_MESSAGES.policyNotFound);
        if (r.Name) await tx.update(pricePolicies).set({ name: r.Name }).where(eq(pricePolicies.id, id));
      }
      const next = sql<number>`(select coalesce(max(${pricePolicyVersions.version}), 0) + 1 from ${pricePolicyVersions} where ${pricePolicyVersions.policyId} = ${id})`;
      const [v] = await tx
        .insert(pricePolicyVersions)
        .values({ policyId: id, version: next, effectiveFrom, body: r.Body })
        .returning({ id: pricePolicyVersions.id });
      if (!v) throw new Error('the version was not written');
      const rows = await tx
        .select(versionColumns)
        .from(pricePolicyVersions)
        .innerJoin(pricePolicies, eq(pricePolicies.id, pricePolicyVersions.policyId))
        .where(eq(pricePolicyVersions.policyId, id))
        .orderBy(desc(pricePolicyVersions.version))
        .limit(2);
      const after = toView(rows[0]!);
      await audit(tx, {
        operatorId,
        actor,
        action: policyId === null ? 'policy.create' : 'policy.version',
        entity: 'price_policy',
        entityId: id,
        before: rows[1] ? toView(rows[1]) : null,
        after,
      });
      return after;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('Name', PRICING_MESSAGES.nameTaken);
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

/** The version in force at `at` of the policy in `policyId` (a column or a value): 0 when none. */
const currentVersion = (policyId: unknown, at: Date) =>
  sql<number>`coalesce((select v.version from ${pricePolicyVersions} v where v.policy_id = ${policyId} and v.effective_from <= ${at.toISOString()}::timestamptz order by v.effective_from desc, v.version desc limit 1), 0)`;

/** The operator's policies by name: the latest version, the one in force at `now`, how many zones each prices. */
export async function listPolicies(db: Executor, operatorId: number, now: Date): Promise<PolicySummary[]> {
  const rows = await db
    .select({
      id: pricePolicies.id,
      name: pricePolicies.name,
      latest: sql<number>`(select max(${pricePolicyVersions.version}) from ${pricePolicyVersions} where ${pricePolicyVersions.policyId} = ${pricePolicies.id})`,
      current: currentVersion(pricePolicies.id, now),
      zones: sql<number>`(select count(*) from ${zones} where ${zones.pricePolicyId} = ${pricePolicies.id} and ${zones.operatorId} = ${operatorId})`,
    })
    .from(pricePolicies)
    .where(eq(pricePolicies.operatorId, operatorId))
    .orderBy(asc(pricePolicies.name), asc(pricePolicies.id));
  return rows.map((r) => ({
    PolicyId: r.id,
    Name: r.name,
    LatestVersion: Number(r.latest ?? 0),
    CurrentVersion: Number(r.current ?? 0),
    ZoneCount: Number(r.zones ?? 0),
  }));
}

/** One of the operator's policies with its versions and zones; null when it is not theirs. */
export async function getPolicy(
  db: Executor,
  operatorId: number,
  policyId: number,
  now: Date,
): Promise<PolicyDetail | null> {
  const [head] = await db
    .select({ id: pricePolicies.id, name: pricePolicies.name, current: currentVersion(pricePolicies.id, now) })
    .from(pricePolicies)
    .where(and(eq(pricePolicies.id, policyId), eq(pricePolicies.operatorId, operatorId)));
  if (!head) return null;
  const [versions, priced] = await Promise.all([
    listPolicyVersions(db, operatorId, policyId),
    db
      .select({ id: zones.id })
      .from(zones)
      .where(and(eq(zones.pricePolicyId, policyId), eq(zones.operatorId, operatorId)))
      .orderBy(asc(zones.id)),
  ]);
  return {
    PolicyId: head.id,
    Name: head.name,
    CurrentVersion: Number(head.current ?? 0),
    Versions: versions ?? [],
    ZoneIds: priced.map((z) => z.id),
  };
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
 * Gives some of the operator's zones one of the operator's policies (null: back to their preset)
 * from now on: a running session keeps the version it started with. The zones are locked and
 * changed only when every one of them and the policy are the operator's; null when not (nothing
 * changed). Returns the zone ids, in order.
 */
export async function assignPolicy(
  db: Db,
  operatorId: number,
  zoneIds: readonly number[],
  policyId: number | null,
  actor: Actor,
): Promise<number[] | null> {
  const ids = [...new Set(zoneIds)].sort((a, b) => a - b);
  if (ids.length === 0) return [];
  return db.transaction(async (tx) => {
    if (policyId !== null) {
      const [owned] = await tx
        .select({ id: pricePolicies.id })
        .from(pricePolicies)
        .where(and(eq(pricePolicies.id, policyId), eq(pricePolicies.operatorId, operatorId)));
      if (!owned) return null;
    }
    const before = await tx
      .select({ id: zones.id, policyId: zones.pricePolicyId })
      .from(zones)
      .where(and(inArray(zones.id, ids), eq(zones.operatorId, operatorId)))
      .orderBy(asc(zones.id))
      .for('update');
    if (before.length !== ids.length) return null;
    await tx
      .update(zones)
      .set({ pricePolicyId: policyId })
      .where(and(inArray(zones.id, ids), eq(zones.operatorId, operatorId)));
    await audit(tx, {
      operatorId,
      actor,
      action: 'policy.assign',
      entity: policyId === null ? 'zone' : 'price_policy',
      entityId: policyId ?? ids.join(','),
      before: before.map((z) => ({ ZoneId: z.id, PolicyId: z.policyId })),
      after: ids.map((id) => ({ ZoneId: id, PolicyId: policyId })),
    });
    return ids;
  });
}
