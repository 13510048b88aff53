import { and, asc, count, eq, gte, inArray, isNull, sql } from 'drizzle-orm';
import { apdsList, type ApdsListMeta, type ApdsRightSpecification, type ApdsSpecsQuery } from '@parkit/contract';
import type { Executor } from '../db/client.ts';
import { operators, pricePolicyVersions, zones } from '../db/schema/index.ts';
import {
  APDS_PAGE,
  en,
  ref,
  placeId,
  campusId,
  idNumber,
  meta,
  zoneColumns,
  type ZoneRow,
  near,
  placeFilter,
  rateIdOf,
  zoneRowOfEvent,
} from './apds-common.ts';
import { policiesInForce } from './apds-rates.ts';

/** The APDS right specifications (a paid session in a zone) and what an APDS quote reads (docs/apds.md#mapping). */
/** The version number of each policy in force now, for the rate tables' references. */
async function rateVersions(db: Executor, now: Date): Promise<Map<number, number>> {
  return new Map((await policiesInForce(db, now)).map((p) => [p.policyId, p.version]));
}

function zoneSpec(z: ZoneRow, versions: Map<number, number>): ApdsRightSpecification {
  return {
    id: placeId(z.id),
    version: 1,
    description: en(`Park in zone ${z.zoneNumber} (${z.name}) for the time paid, by licence plate`),
    issuer: ref(campusId(z.operatorId), 'Campus'),
    transferable: false,
    type: 'oneTimeUseParking',
    hierarchyElements: [ref(placeId(z.id), 'Place')],
    credentials: [{ type: 'licensePlate' }],
    rateEligibility: [
      {
        id: `${placeId(z.id)}-rate`,
        version: 1,
        priority: 1,
        eligibility: { id: 'any-driver', version: 1, eligibilityName: en('Any driver') },
        rateTable: ref(rateIdOf(z), 'RateTable', z.pricePolicyId === null ? 1 : (versions.get(z.pricePolicyId) ?? 1)),
      },
    ],
    validity: {
      validityStatus: 'active',
      validityTimeSpecification: { overallStartTime: z.createdAt.toISOString() },
    },
  };
}

/**
 * The zone's RightSpecification as a webhook event carries it (migration 0052's `zone`, with the
 * version of its policy in force at the change).
 */
export function specOfEvent(zone: Record<string, unknown>): ApdsRightSpecification {
  const z = zoneRowOfEvent(zone);
  const version = zone.rate_version === null || zone.rate_version === undefined ? 1 : Number(zone.rate_version);
  return zoneSpec(z, new Map(z.pricePolicyId === null ? [] : [[z.pricePolicyId, version]]));
}

/** GET /apds/rights/specs: one right specification per live zone (a paid session there). */
export async function listSpecs(
  db: Executor,
  q: ApdsSpecsQuery,
  now: Date,
): Promise<{ meta: ApdsListMeta; data: ApdsRightSpecification[] }> {
  const credentialTypes = apdsList(q.credential_type);
  const since = q.modified_since === undefined ? undefined : new Date(q.modified_since * 1000);
  const where = and(
    isNull(zones.retiredAt),
    credentialTypes.length === 0 || credentialTypes.includes('licensePlate') ? undefined : sql`false`,
    placeFilter(apdsList(q.place)),
    since ? gte(zones.createdAt, since) : undefined,
    near(q.latitude, q.longitude, q.radius),
  );
  const offset = q.offset ?? 0;
  const [rows, [total], versions] = await Promise.all([
    db
      .select(zoneColumns)
      .from(zones)
      .innerJoin(operators, eq(operators.id, zones.operatorId))
      .where(where)
      .orderBy(asc(zones.id))
      .offset(offset)
      .limit(APDS_PAGE),
    db.select({ n: count() }).from(zones).where(where),
    rateVersions(db, now),
  ]);
  return { meta: meta(total?.n ?? 0, offset, now), data: rows.map((z) => zoneSpec(z, versions)) };
}

/** GET /apds/rights/specs/{id}. */
export async function getSpec(db: Executor, id: string, now: Date): Promise<ApdsRightSpecification | null> {
  const zoneId = idNumber(id, 'zone');
  if (zoneId === null) return null;
  const [z] = await db
    .select(zoneColumns)
    .from(zones)
    .innerJoin(operators, eq(operators.id, zones.operatorId))
    .where(and(eq(zones.id, zoneId), isNull(zones.retiredAt)));
  return z ? zoneSpec(z, await rateVersions(db, now)) : null;
}

/** A policy version's policy and number, by the version's row id. */
export async function policyVersionRef(db: Executor, versionId: number) {
  const [row] = await db
    .select({ policyId: pricePolicyVersions.policyId, version: pricePolicyVersions.version })
    .from(pricePolicyVersions)
    .where(eq(pricePolicyVersions.id, versionId));
  return row ?? null;
}

/** The live zones (ids) an APDS quote names, with what prices them. */
export async function zonesForQuote(db: Executor, ids: number[]) {
  if (ids.length === 0) return [];
  return db
    .select(zoneColumns)
    .from(zones)
    .innerJoin(operators, eq(operators.id, zones.operatorId))
    .where(and(inArray(zones.id, ids), isNull(zones.retiredAt)));
}
