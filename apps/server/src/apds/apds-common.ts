import { inArray, or, sql, type SQL } from 'drizzle-orm';
import { APDS_PLATE_TYPES, type ApdsListMeta } from '@parkit/contract';
import { operators, zones } from '../db/schema/index.ts';

/**
 * The APDS objects' shared parts (ids, names, paging, the zone row).
 *
 * ParkIt's model as the APDS API's objects (docs/apds.md#mapping): an operator is a campus and
 * each of its zones a parkingPlace under it; each zone's right specification is "a paid session
 * here"; a price policy's version in force is a RateTable (a zone with no policy: its preset); a
 * parking session is a Session of one segment. Ids are `operator-<id>`, `zone-<id>`,
 * `policy-<id>` / `preset-zone-<id>` and `session-<id>`. Retired zones are left out.
 */
/** The most objects one page holds; the next page is `offset=`. */
export const APDS_PAGE = 500;

export const en = (s: string) => [{ language: 'en', string: s }];
export const ref = (id: string, className: string, version = 1) => ({ id, version, className });
export const placeId = (zoneId: number) => `zone-${zoneId}`;
export const campusId = (operatorId: number) => `operator-${operatorId}`;
export const minutes = (m: number) => `PT${m}M`;
export const money = (cents: number) => Math.round(cents) / 100;
export const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

/** A credential that is a licence plate: its type says so, or, with no type, its class's name. */
export const isPlate = (c: { type?: string | undefined; identifier: { className: string } }) =>
  c.type === undefined
    ? /plate/i.test(c.identifier.className)
    : (APDS_PLATE_TYPES as readonly string[]).includes(c.type);

/** The number in `zone-12` (null for anything else): ids of another form name nothing of ours. */
export function idNumber(id: string, prefix: string): number | null {
  const m = new RegExp(`^${prefix}-(\\d{1,9})$`).exec(id);
  return m ? Number(m[1]) : null;
}

export const meta = (total: number, offset: number, now: Date): ApdsListMeta => ({
  referenceInstant: seconds(now),
  offset,
  pageSize: APDS_PAGE,
  total,
});

export const zoneColumns = {
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
export type ZoneRow = {
  [K in keyof typeof zoneColumns]: (typeof zoneColumns)[K]['_']['notNull'] extends true
    ? (typeof zoneColumns)[K]['_']['data']
    : (typeof zoneColumns)[K]['_']['data'] | null;
};

export const near = (lat: number | undefined, lng: number | undefined, radius: number | undefined): SQL | undefined =>
  lat === undefined || lng === undefined
    ? undefined
    : sql`earth_distance(ll_to_earth(${zones.lat}, ${zones.lng}), ll_to_earth(${lat}::float8, ${lng}::float8)) <= ${radius ?? 500}::float8`;

/** The zone numbers' and ids' filter of a `place` list: `zone-<id>` (or `operator-<id>`: its zones). */
export function placeFilter(places: string[]): SQL | undefined {
  if (places.length === 0) return undefined;
  const zoneIds = places.map((p) => idNumber(p, 'zone')).filter((n) => n !== null);
  const operatorIds = places.map((p) => idNumber(p, 'operator')).filter((n) => n !== null);
  return or(
    zoneIds.length ? inArray(zones.id, zoneIds) : sql`false`,
    operatorIds.length ? inArray(zones.operatorId, operatorIds) : sql`false`,
  );
}

/**
 * A zone as a webhook event carries it (`apds_zone_json` of migration 0052: column names, ISO
 * times), as the row the APDS objects are built from.
 */
export function zoneRowOfEvent(j: Record<string, unknown>): ZoneRow {
  const n = (k: string) => Number(j[k]);
  return {
    id: n('id'),
    operatorId: n('operator_id'),
    zoneNumber: String(j.zone_number),
    name: String(j.name),
    address: String(j.address),
    city: String(j.city),
    state: String(j.state),
    zip: String(j.zip),
    lat: n('lat'),
    lng: n('lng'),
    kind: String(j.kind),
    capacity: n('capacity'),
    curb: j.curb ?? null,
    createdAt: new Date(j.created_at as string),
    rateCents: n('rate_cents'),
    maxStayMinutes: n('max_stay_minutes'),
    paidDays: (j.paid_days as number[]).map(Number),
    paidFromMinute: n('paid_from_minute'),
    paidUntilMinute: n('paid_until_minute'),
    pricePolicyId: j.price_policy_id === null ? null : n('price_policy_id'),
    timezone: String(j.timezone),
  };
}

/** The rate table id of a zone: its policy's, or its preset's. */
export const rateIdOf = (z: { id: number; pricePolicyId: number | null }) =>
  z.pricePolicyId === null ? `preset-zone-${z.id}` : `policy-${z.pricePolicyId}`;
