import { and, asc, count, eq, gt, gte, inArray, isNull, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import {
  apdsList,
  PolicyBody,
  type ApdsListMeta,
  type ApdsPlace,
  type ApdsPlacesQuery,
  type ApdsRate,
  type ApdsRatesQuery,
  type ApdsRightSpecification,
  type ApdsSession,
  type ApdsSessionsQuery,
  type ApdsSpecsQuery,
  type TimeSpan,
} from '@parkit/contract';
import type { Executor } from '../db/client.ts';
import { operators, parkingSessions, pricePolicies, pricePolicyVersions, zones } from '../db/schema/index.ts';
import { presetPolicy } from '../pricing/index.ts';

/**
 * ParkIt's model as the APDS API's objects (docs/apds.md#mapping): an operator is a campus and
 * each of its zones a parkingPlace under it; each zone's right specification is "a paid session
 * here"; a price policy's version in force is a RateTable (a zone with no policy: its preset); a
 * parking session is a Session of one segment. Ids are `operator-<id>`, `zone-<id>`,
 * `policy-<id>` / `preset-zone-<id>` and `session-<id>`. Retired zones are left out.
 */

/** The most objects one page holds; the next page is `offset=`. */
export const APDS_PAGE = 500;

const en = (s: string) => [{ language: 'en', string: s }];
const ref = (id: string, className: string, version = 1) => ({ id, version, className });
const placeId = (zoneId: number) => `zone-${zoneId}`;
const campusId = (operatorId: number) => `operator-${operatorId}`;
const minutes = (m: number) => `PT${m}M`;
const money = (cents: number) => Math.round(cents) / 100;
const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

/** The number in `zone-12` (null for anything else): ids of another form name nothing of ours. */
export function idNumber(id: string, prefix: string): number | null {
  const m = new RegExp(`^${prefix}-(\\d{1,9})$`).exec(id);
  return m ? Number(m[1]) : null;
}

const meta = (total: number, offset: number, now: Date): ApdsListMeta => ({
  referenceInstant: seconds(now),
  offset,
  pageSize: APDS_PAGE,
  total,
});

const zoneColumns = {
  id: zones.id,
  operatorId: zones.operatorId,
  zoneNumber: zones.zoneNumber,
  name: zones.name,
  address: zones.address,
  city: zones.city,
  state: zones.state,
  zip: zones.zip,
  lat: zones.lat,
  lng: zones.lng,
  kind: zones.kind,
  capacity: zones.capacity,
  curb: zones.curb,
  createdAt: zones.createdAt,
  rateCents: zones.rateCents,
  maxStayMinutes: zones.maxStayMinutes,
  paidDays: zones.paidDays,
  paidFromMinute: zones.paidFromMinute,
  paidUntilMinute: zones.paidUntilMinute,
  pricePolicyId: zones.pricePolicyId,
  timezone: operators.timezone,
};
type ZoneRow = {
  [K in keyof typeof zoneColumns]: (typeof zoneColumns)[K]['_']['notNull'] extends true
    ? (typeof zoneColumns)[K]['_']['data']
    : (typeof zoneColumns)[K]['_']['data'] | null;
};

const near = (lat: number | undefined, lng: number | undefined, radius: number | undefined): SQL | undefined =>
  lat === undefined || lng === undefined
    ? undefined
    : sql`earth_distance(ll_to_earth(${zones.lat}, ${zones.lng}), ll_to_earth(${lat}::float8, ${lng}::float8)) <= ${radius ?? 500}::float8`;

/** The zone numbers' and ids' filter of a `place` list: `zone-<id>` (or `operator-<id>`: its zones). */
function placeFilter(places: string[]): SQL | undefined {
  if (places.length === 0) return undefined;
  const zoneIds = places.map((p) => idNumber(p, 'zone')).filter((n) => n !== null);
  const operatorIds = places.map((p) => idNumber(p, 'operator')).filter((n) => n !== null);
  return or(
    zoneIds.length ? inArray(zones.id, zoneIds) : sql`false`,
    operatorIds.length ? inArray(zones.operatorId, operatorIds) : sql`false`,
  );
}

/** The rate table id of a zone: its policy's, or its preset's. */
const rateIdOf = (z: { id: number; pricePolicyId: number | null }) =>
  z.pricePolicyId === null ? `preset-zone-${z.id}` : `policy-${z.pricePolicyId}`;

const STRUCTURE = { street: 'onStreet', lot: 'offStreetSurface', garage: 'offStreetStructure' } as const;

function zonePlace(z: ZoneRow): ApdsPlace {
  const curb = z.curb as { type?: string; coordinates?: unknown } | null;
  return {
    id: placeId(z.id),
    version: 1,
    name: en(z.name),
    layer: 1,
    type: 'parkingPlace',
    parentId: ref(campusId(z.operatorId), 'Campus'),
    operatorDefinedReference: en(z.zoneNumber),
    hierarchyElementRecord: { creationTime: z.createdAt.toISOString() },
    rightSpecifications: [ref(placeId(z.id), 'RightSpecification')],
    timeZone: z.timezone,
    placeStreetAddress: [
      {
        addressLines: [{ order: 1, text: en(z.address), type: 'street' }],
        city: en(z.city || '-'),
        countryCode: 'us',
        postCode: z.zip,
      },
    ],
    ...(curb?.type === 'Polygon'
      ? { placeBoundedZone: [{ type: 'MultiPolygon' as const, coordinates: [curb.coordinates as number[][][]] }] }
      : {}),
    indicativePlacePointLocation: [{ type: 'Point', coordinates: [z.lng, z.lat] }],
    characteristics: [
      {
        openToPublic: true,
        operatingModes: ['app', 'payByPlate'],
        spacesTotal: z.capacity,
        structureType: STRUCTURE[z.kind as keyof typeof STRUCTURE] ?? 'onStreet',
      },
    ],
  };
}

/** GET /apds/places: operators (campus, layer 0) and their live zones (parkingPlace, layer 1). */
export async function listPlaces(
  db: Executor,
  q: ApdsPlacesQuery,
  now: Date,
): Promise<{ meta: ApdsListMeta; data: ApdsPlace[] }> {
  const types = apdsList(q.type);
  const rightTypes = apdsList(q.right_type);
  const structures = apdsList(q.structure_type);
  const wantsZones =
    (types.length === 0 || types.includes('parkingPlace')) &&
    (q.layer === undefined || q.layer >= 1) &&
    (rightTypes.length === 0 || rightTypes.includes('oneTimeUseParking')) &&
    apdsList(q.structure_grade).every((g) => g === 'groundLevel');
  const wantsCampus =
    (types.length === 0 || types.includes('campus')) &&
    q.latitude === undefined &&
    rightTypes.length === 0 &&
    structures.length === 0 &&
    apdsList(q.structure_grade).length === 0;
  const kinds = Object.entries(STRUCTURE)
    .filter(([, s]) => structures.length === 0 || structures.includes(s))
    .map(([k]) => k);
  const name = q.name?.toLowerCase();
  const since = q.modified_since === undefined ? undefined : new Date(q.modified_since * 1000);

  const campuses = wantsCampus
    ? (
        await db
          .select({ id: operators.id, name: operators.name, createdAt: operators.createdAt })
          .from(operators)
          .where(
            and(
              name ? sql`lower(${operators.name}) like ${`%${name}%`}` : undefined,
              since ? gte(operators.createdAt, since) : undefined,
            ),
          )
          .orderBy(asc(operators.id))
      ).map((o): ApdsPlace => ({
        id: campusId(o.id),
        version: 1,
        name: en(o.name),
        layer: 0,
        type: 'campus',
        hierarchyElementRecord: { creationTime: o.createdAt.toISOString() },
      }))
    : [];
  const where = wantsZones
    ? and(
        isNull(zones.retiredAt),
        kinds.length ? inArray(zones.kind, kinds) : sql`false`,
        name ? sql`(lower(${zones.name}) like ${`%${name}%`} or lower(${zones.zoneNumber}) = ${name})` : undefined,
        since ? gte(zones.createdAt, since) : undefined,
        near(q.latitude, q.longitude, q.radius),
      )
    : sql`false`;
  const offset = q.offset ?? 0;
  const zoneOffset = Math.max(0, offset - campuses.length);
  const [rows, [total]] = await Promise.all([
    db
      .select(zoneColumns)
      .from(zones)
      .innerJoin(operators, eq(operators.id, zones.operatorId))
      .where(where)
      .orderBy(asc(zones.id))
      .offset(zoneOffset)
      .limit(APDS_PAGE),
    db.select({ n: count() }).from(zones).where(where),
  ]);
  const data = [...campuses.slice(offset), ...rows.map(zonePlace)].slice(0, APDS_PAGE);
  return { meta: meta(campuses.length + (total?.n ?? 0), offset, now), data };
}

/** GET /apds/places/{id}: one campus or zone; null when there is none (or it is retired). */
export async function getPlace(db: Executor, id: string, now: Date): Promise<ApdsPlace | null> {
  const zoneId = idNumber(id, 'zone');
  if (zoneId !== null) {
    const [row] = await db
      .select(zoneColumns)
      .from(zones)
      .innerJoin(operators, eq(operators.id, zones.operatorId))
      .where(and(eq(zones.id, zoneId), isNull(zones.retiredAt)));
    return row ? zonePlace(row) : null;
  }
  const operatorId = idNumber(id, 'operator');
  if (operatorId === null) return null;
  const list = await listPlaces(db, { type: 'campus' }, now);
  return list.data.find((p) => p.id === id) ?? null;
}

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
async function policiesInForce(db: Executor, now: Date, policyId?: number) {
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

const sessionColumns = {
  id: parkingSessions.id,
  zoneId: parkingSessions.zoneId,
  plate: parkingSessions.plate,
  plateState: parkingSessions.plateState,
  vehicleMake: parkingSessions.vehicleMake,
  vehicleModel: parkingSessions.vehicleModel,
  startedAt: parkingSessions.startedAt,
  endsAt: parkingSessions.endsAt,
  endedAt: parkingSessions.endedAt,
  durationMinutes: parkingSessions.durationMinutes,
  parkingCents: parkingSessions.parkingCents,
  refundedCents: parkingSessions.refundedCents,
  updatedAt: parkingSessions.updatedAt,
  showPlates: operators.showPlates,
};
type SessionRow = {
  [K in keyof typeof sessionColumns]: (typeof sessionColumns)[K]['_']['notNull'] extends true
    ? (typeof sessionColumns)[K]['_']['data']
    : (typeof sessionColumns)[K]['_']['data'] | null;
};

function toSession(s: SessionRow, currency: string): ApdsSession {
  const id = `session-${s.id}`;
  const end = s.endedAt ? { actualEnd: s.endedAt.toISOString() } : {};
  // The plate only where the operator opted in (operators.show_plates); otherwise the session's
  // own electronic id is its credential.
  const credential = s.showPlates
    ? { identifier: { className: 'LicensePlate', id: s.plate }, issuer: en(s.plateState), type: 'licensePlate' }
    : { identifier: { className: 'Session', id }, issuer: en('ParkIt'), type: 'electronicID' };
  return {
    id,
    version: 1,
    actualStart: s.startedAt.toISOString(),
    ...end,
    initiator: ref('parkit', 'Application'),
    identifiedCredentials: [credential],
    segments: [
      {
        id: `${id}-1`,
        version: 1,
        actualStart: s.startedAt.toISOString(),
        ...end,
        assignedRight: {
          id,
          version: 1,
          rightHolder: {},
          rightSpecification: ref(placeId(s.zoneId), 'RightSpecification'),
          issuanceTime: s.startedAt.toISOString(),
          expiry: s.endsAt.toISOString(),
          totalMinutes: s.durationMinutes,
          totalRightValue: { currencyType: currency, currencyValue: money(s.parkingCents - s.refundedCents) },
          issueMethod: 'electronic',
        },
        validationType: ['licensePlate'],
      },
    ],
    hierachyElement: ref(placeId(s.zoneId), 'Place'),
    identifiedVehicle: { country: 'us', stateProvince: s.plateState, make: s.vehicleMake, model: s.vehicleModel },
  };
}

/** Sessions with their zone and operator; every caller scopes them by the zone's operator. */
const sessionsWith = (db: Executor) =>
  db
    .select(sessionColumns)
    .from(parkingSessions)
    .innerJoin(zones, eq(zones.id, parkingSessions.zoneId))
    .innerJoin(operators, eq(operators.id, zones.operatorId))
    .$dynamic();

/** GET /apds/sessions: the key's operator's sessions (only its zones'), oldest first. */
export async function listSessions(
  db: Executor,
  operatorId: number,
  q: ApdsSessionsQuery,
  currency: string,
  now: Date,
): Promise<{ meta: ApdsListMeta; data: ApdsSession[] }> {
  const at = (s: number | undefined) => (s === undefined ? undefined : new Date(s * 1000));
  const rightSpecs = apdsList(q.right_spec);
  const credentialIds = apdsList(q.credential_id);
  const credentialTypes = apdsList(q.credential_type);
  const ended = sql`coalesce(${parkingSessions.endedAt}, ${parkingSessions.endsAt})`;
  const where = and(
    eq(zones.operatorId, operatorId),
    placeFilter(apdsList(q.place)),
    rightSpecs.length ? placeFilter(rightSpecs) : undefined,
    credentialTypes.length === 0 || credentialTypes.some((t) => t === 'licensePlate' || t === 'electronicID')
      ? undefined
      : sql`false`,
    // A plate is a credential only where the operator shows plates; a session's own id always is.
    credentialIds.length
      ? or(
          inArray(
            parkingSessions.id,
            credentialIds.map((c) => idNumber(c, 'session') ?? 0),
          ),
          and(
            eq(operators.showPlates, true),
            inArray(
              sql`upper(replace(replace(${parkingSessions.plate}, ' ', ''), '-', ''))`,
              credentialIds.map((c) => c.replace(/[\s-]/g, '').toUpperCase()),
            ),
          ),
        )
      : undefined,
    at(q.start_before) ? lt(parkingSessions.startedAt, at(q.start_before)!) : undefined,
    at(q.start_after) ? gt(parkingSessions.startedAt, at(q.start_after)!) : undefined,
    at(q.end_before) ? sql`${ended} < ${at(q.end_before)!.toISOString()}::timestamptz` : undefined,
    at(q.end_after) ? sql`${ended} > ${at(q.end_after)!.toISOString()}::timestamptz` : undefined,
    at(q.modified_since) ? gte(parkingSessions.updatedAt, at(q.modified_since)!) : undefined,
    near(q.latitude, q.longitude, q.radius),
  );
  const offset = q.offset ?? 0;
  const [rows, [total]] = await Promise.all([
    sessionsWith(db).where(where).orderBy(asc(parkingSessions.id)).offset(offset).limit(APDS_PAGE),
    db
      .select({ n: count() })
      .from(parkingSessions)
      .innerJoin(zones, eq(zones.id, parkingSessions.zoneId))
      .innerJoin(operators, eq(operators.id, zones.operatorId))
      .where(where),
  ]);
  return { meta: meta(total?.n ?? 0, offset, now), data: rows.map((s) => toSession(s, currency)) };
}

/** GET /apds/sessions/{id}: null for another operator's session (the key must not reveal it exists). */
export async function getSession(
  db: Executor,
  operatorId: number,
  id: string,
  currency: string,
): Promise<ApdsSession | null> {
  const sessionId = idNumber(id, 'session');
  if (sessionId === null) return null;
  const [row] = await sessionsWith(db).where(and(eq(zones.operatorId, operatorId), eq(parkingSessions.id, sessionId)));
  return row ? toSession(row, currency) : null;
}
