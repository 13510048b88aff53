import { and, asc, eq, gte, isNull, lte, sql } from 'drizzle-orm';
import { PolicyBody, type ApdsListMeta, type ApdsRate, type ApdsRatesQuery, type TimeSpan } from '@parkit/contract';
import type { Executor } from '../db/client.ts';
import { operators, pricePolicies, pricePolicyVersions, zones } from '../db/schema/index.ts';
import { presetPolicy } from '../pricing/index.ts';
import {
  APDS_PAGE,
  en,
  ref,
  campusId,
  minutes,
  money,
  idNumber,
  meta,
  zoneColumns,
  type ZoneRow,
  zoneRowOfEvent,
} from './apds-common.ts';

/** The APDS rate tables: a price policy's version in force, or a zone's preset (docs/apds.md#mapping). */
const DAY_NAMES = ['', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

/** When a span applies, in words (the APDS rate line has no field for a span's days and hours). */
function spanWhen(s: TimeSpan): string {
  const days = s.Days ? s.Days.map((d) => DAY_NAMES[d]).join(' ') : 'every day';
  return `${s.Name}: ${days} ${s.From ?? '00:00'}-${s.Until ?? '24:00'}`;
}

function rateTable(
  id: string,
  version: number,
  name: string,
  operatorId: number,
  body: PolicyBody,
  validFrom: Date,
  currency: string,
): ApdsRate {
  const collections = body.Spans.map((s, i) => ({
    applicableCurrency: currency,
    collectionSequence: i + 1,
    minTime: minutes(Math.max(1, s.IncrementMinutes)),
    maxTime: minutes(s.MaxStayMinutes ?? body.MaxStayMinutes),
    ...(s.MinSessionCents === undefined ? {} : { minValueCollection: money(s.MinSessionCents) }),
    ...(s.MaxSessionCents === undefined ? {} : { maxValueCollection: money(s.MaxSessionCents) }),
    relativeTimes: false,
    resetTime: '00:00',
    taxIncluded: true,
    validStart: validFrom.toISOString(),
    rateLines: s.Rate.map((step, j) => {
      const next = s.Rate[j + 1];
      return {
        rateLineType: 'incrementingRate' as const,
        sequence: j + 1,
        // The price of one increment at this step's hourly rate.
        value: money((step.CentsPerHour * s.IncrementMinutes) / 60),
        incrementPeriod: minutes(s.IncrementMinutes),
        durationStart: minutes(step.FromMinute + s.FreeMinutes),
        ...(next ? { durationEnd: minutes(next.FromMinute + s.FreeMinutes) } : {}),
        description: `${spanWhen(s)}, ${money(step.CentsPerHour).toFixed(2)} ${currency} per hour`,
      };
    }),
  }));
  return {
    id,
    version,
    rateTableName: en(name),
    validityStart: validFrom.toISOString(),
    rateType: 'hourly',
    // The policy repeats every week.
    activeTimes: ['P1W'],
    availability: 'public',
    rateResponsibleParty: ref(campusId(operatorId), 'Campus'),
    rateLineCollections:
      collections.length > 0
        ? collections
        : [
            // No paid span: parking is free (a flat rate of nothing).
            {
              applicableCurrency: currency,
              collectionSequence: 1,
              minTime: 'PT1M',
              maxTime: minutes(body.MaxStayMinutes),
              relativeTimes: false,
              resetTime: '00:00',
              taxIncluded: true,
              validStart: validFrom.toISOString(),
              rateLines: [{ rateLineType: 'flatRate', sequence: 1, value: 0, description: 'Free' }],
            },
          ],
  };
}

/** The version of each policy in force at `now` (the latest effective_from at or before it). */
export async function policiesInForce(db: Executor, now: Date, policyId?: number) {
  return db
    .selectDistinctOn([pricePolicyVersions.policyId], {
      policyId: pricePolicyVersions.policyId,
      version: pricePolicyVersions.version,
      effectiveFrom: pricePolicyVersions.effectiveFrom,
      body: pricePolicyVersions.body,
      name: pricePolicies.name,
      operatorId: pricePolicies.operatorId,
    })
    .from(pricePolicyVersions)
    .innerJoin(pricePolicies, eq(pricePolicies.id, pricePolicyVersions.policyId))
    .where(
      and(
        lte(pricePolicyVersions.effectiveFrom, now),
        policyId === undefined ? undefined : eq(pricePolicyVersions.policyId, policyId),
      ),
    )
    .orderBy(
      asc(pricePolicyVersions.policyId),
      sql`${pricePolicyVersions.effectiveFrom} desc`,
      sql`${pricePolicyVersions.version} desc`,
    );
}

const presetRate = (z: ZoneRow, currency: string) =>
  rateTable(
    `preset-zone-${z.id}`,
    1,
    `Zone ${z.zoneNumber} preset`,
    z.operatorId,
    presetPolicy(z),
    z.createdAt,
    currency,
  );

/**
 * The RateTable a webhook event carries (migration 0052): a policy's version as it was written
 * (`policy`), or a zone's preset (`preset_zone`).
 */
export function rateOfEvent(r: Record<string, unknown>, currency: string): ApdsRate {
  const p = r.policy as Record<string, unknown> | undefined;
  if (!p) return presetRate(zoneRowOfEvent(r.preset_zone as Record<string, unknown>), currency);
  return rateTable(
    `policy-${Number(p.id)}`,
    Number(p.version),
    String(p.name),
    Number(p.operator_id),
    PolicyBody.parse(p.body),
    new Date(p.effective_from as string),
    currency,
  );
}

/** GET /apds/rates: every policy's version in force now, then the presets of live zones without a policy. */
export async function listRates(
  db: Executor,
  q: ApdsRatesQuery,
  currency: string,
  now: Date,
): Promise<{ meta: ApdsListMeta; data: ApdsRate[] }> {
  const since = q.modified_since === undefined ? undefined : new Date(q.modified_since * 1000);
  const policies = (await policiesInForce(db, now)).filter((p) => !since || p.effectiveFrom >= since);
  const presets = await db
    .select(zoneColumns)
    .from(zones)
    .innerJoin(operators, eq(operators.id, zones.operatorId))
    .where(and(isNull(zones.retiredAt), isNull(zones.pricePolicyId), since ? gte(zones.createdAt, since) : undefined))
    .orderBy(asc(zones.id));
  const all = [
    ...policies.map((p) =>
      rateTable(
        `policy-${p.policyId}`,
        p.version,
        p.name,
        p.operatorId,
        PolicyBody.parse(p.body),
        p.effectiveFrom,
        currency,
      ),
    ),
    ...presets.map((z) => presetRate(z, currency)),
  ];
  const offset = q.offset ?? 0;
  return { meta: meta(all.length, offset, now), data: all.slice(offset, offset + APDS_PAGE) };
}

/** GET /apds/rates/{id}. */
export async function getRate(db: Executor, id: string, currency: string, now: Date): Promise<ApdsRate | null> {
  const policyId = idNumber(id, 'policy');
  if (policyId !== null) {
    const [p] = await policiesInForce(db, now, policyId);
    return p
      ? rateTable(id, p.version, p.name, p.operatorId, PolicyBody.parse(p.body), p.effectiveFrom, currency)
      : null;
  }
  const zoneId = idNumber(id, 'preset-zone');
  if (zoneId === null) return null;
  const [z] = await db
    .select(zoneColumns)
    .from(zones)
    .innerJoin(operators, eq(operators.id, zones.operatorId))
    .where(and(eq(zones.id, zoneId), isNull(zones.retiredAt), isNull(zones.pricePolicyId)));
  return z ? presetRate(z, currency) : null;
}
