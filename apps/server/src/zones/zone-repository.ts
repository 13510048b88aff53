import { and, eq, getTableColumns, inArray, isNull, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { preparedPerDatabase } from '../db/prepared.ts';
import { zones, zoneSetVersions } from '../db/schema/index.ts';
import type { ZoneMap, ZonePoint } from './zone-map.ts';
import {
  angleOfChord,
  chordBetween,
  earthPoint,
  MEAN_EARTH_RADIUS_M,
  mercator,
  mercatorSearch,
  metresOfChord,
  provenNearest,
  radiusAngle,
  type Seen,
} from './earth.ts';

/** Every column the API shows: all but created_at (unused, and timestamps are the dearest column to parse) and mercator (the index's). */
export const { createdAt: _createdAt, mercator: _mercator, ...zoneColumns } = getTableColumns(zones);
export type ZoneRecord = Omit<typeof zones.$inferSelect, 'createdAt' | 'mercator'>;
/** A zone found, with its great-circle distance in metres from the position asked about (null without one). */
export interface ZoneHit {
  zone: ZoneRecord;
  distanceM: number | null;
}
/** A zone's id and row version: PostgreSQL's xmin, which every UPDATE of the row changes (zone-cache.ts). */
export interface ZoneRef {
  id: number;
  version: string;
}
const rowVersion = sql<string>`${zones}.xmin`;
/** Where nearby() gets the rows of the zones it found, and the operator's zones as points (ZoneCache). */
export interface ZoneRows {
  records(db: Executor, refs: readonly ZoneRef[]): Promise<ZoneRecord[]>;
  /** The operator's zones as they are now in memory, or null: search the database's index. */
  map(db: Executor, operatorId: number): Promise<ZoneMap | null>;
}
export type NewZone = Omit<typeof zones.$inferInsert, 'id' | 'operatorId' | 'createdAt' | 'mercator'>;

/** The expression of earthdistance's cubes: text search orders its matches by the chord `<->` to the position asked about. */
const zonePoint = sql`ll_to_earth(${zones.lat}, ${zones.lng})`;
/** The chord from a centre cube to the zone: `<->`, turned into metres by toHit. */
export const chordFrom = (centre: Arg<string>) => sql<number>`(${zonePoint} <-> ${centre}::cube)`;

export interface NearbyParams {
  operatorId: number;
  lat: number;
  lng: number;
  radiusM: number;
  limit: number;
}

/**
 * Rows past `limit` a k-nearest scan reads, so that its answer can be proven exact (provenNearest) the
 * first time: over the demo's 1,200 zones, 2,000 random downtown searches needed no second scan with
 * 2 (with 1, 0.7% did).
 */
const EXTRA_ROWS = 2;
/** Scans of four times as many rows before reading the whole box (zones at one spot, or a ring of them at one distance). */
const SCANS = 3;

/**
 * Zones within radiusM, nearest first by great-circle distance. Usually from the operator's zones
 * held in memory as points (ZoneMap), checked against the database's version of the set first (one
 * statement by key; on PostgreSQL only after a notification that zones changed, zone-cache.ts), so
 * an edit made anywhere shows on the next request (on PostgreSQL: once told). An operator with more
 * zones than a process holds is searched with a k-nearest scan of the (operator_id, mercator) GiST
 * index, which reads the rows in Mercator order, in the box that holds the circle; the answer is
 * then measured and sorted exactly here. Mercator order is not quite distance order (the scale
 * grows with the latitude, ~0.1% across a city), so the scan reads a few rows more than asked, and
 * provenNearest() checks that no zone it did not reach could be nearer; when it cannot say so, a
 * longer scan, and at last the whole box, decides. Near the antimeridian or a pole the boxes are
 * read whole. Either way the search yields ids and row versions; the rows, positions included,
 * come from the cache (parsing every column of 20 rows was most of the request's time).
 */
export async function nearby(db: Executor, rows: ZoneRows, p: NearbyParams): Promise<ZoneHit[]> {
  const radius = radiusAngle(p.radiusM);
  const from = earthPoint(p.lat, p.lng);
  const [qx, qy] = mercator(p.lat, p.lng);
  const see: See = async (refs) =>
    (await rows.records(db, refs)).map((zone) => {
      const [x, y] = mercator(zone.lat, zone.lng);
      return {
        zone,
        angle: angleOfChord(chordBetween(from, earthPoint(zone.lat, zone.lng))),
        mercatorDistance: Math.hypot(x - qx, y - qy),
      };
    });
  const map = await rows.map(db, p.operatorId);
  // From memory the order is exact already; the extra rows only settle ties that the two formulas round differently.
  const seen = map ? await see(map.nearest(p.lat, p.lng, p.limit + EXTRA_ROWS, radius)) : await scanIndex(db, p, see);
  return seen
    .filter((s) => s.angle <= radius)
    .sort((a, b) => a.angle - b.angle)
    .slice(0, p.limit)
    .map((s) => ({ zone: s.zone, distanceM: s.angle * MEAN_EARTH_RADIUS_M }));
}

/** The zones of these refs, each measured from the position asked about. */
type See = (refs: ZoneRef[]) => Promise<(Seen & { zone: ZoneRecord })[]>;

/** nearby() through the GiST index: k-nearest scans until one is proven exact, else the boxes read whole. */
async function scanIndex(db: Executor, p: NearbyParams, see: See): Promise<(Seen & { zone: ZoneRecord })[]> {
  const search = mercatorSearch(p.lat, p.lng, p.radiusM);
  if (search.knn) {
    for (let scan = 0, wanted = p.limit + EXTRA_ROWS; scan < SCANS; scan++, wanted *= 4) {
      const refs = await preparedNearby(db).execute({
        operatorId: p.operatorId,
        centre: search.centre,
        box: search.boxes[0]!,
        limit: wanted,
      });
      // A zone deleted since the scan is left out by records(): the count read decides whether the box was read whole.
      const found = await see(refs);
      if (provenNearest(found, wanted, p.limit, search.radius, p.lat, refs.length)) return found;
    }
  }
  const seen = [];
  for (const box of search.boxes)
    seen.push(...(await see(await preparedInBox(db).execute({ operatorId: p.operatorId, box }))));
  return seen;
}

/** The version of the operator's set of zones (0: never changed since it had none). */
export async function zoneSetVersion(db: Executor, operatorId: number): Promise<number> {
  const [row] = await preparedSetVersion(db).execute({ operatorId });
  return row?.version ?? 0;
}

const preparedSetVersion = preparedPerDatabase((db) =>
  db
    .select({ version: zoneSetVersions.version })
    .from(zoneSetVersions)
    .where(eq(zoneSetVersions.operatorId, sql.placeholder('operatorId')))
    .prepare('zone_set_version'),
);

/** At most `max` of the operator's zones as points with their row versions, in no order. */
export function zonePoints(db: Executor, operatorId: number, max: number): Promise<ZonePoint[]> {
  return db
    .select({ id: zones.id, version: rowVersion, lat: zones.lat, lng: zones.lng })
    .from(zones)
    .where(and(eq(zones.operatorId, operatorId), isNull(zones.retiredAt)))
    .limit(max);
}

/** Zones by id with their row versions (the cache's reads), in no order; ids not there are left out. */
export function zonesByIds(db: Executor, ids: readonly number[]): Promise<(ZoneRecord & { version: string })[]> {
  return db
    .select({ ...zoneColumns, version: rowVersion })
    .from(zones)
    .where(inArray(zones.id, [...ids]));
}

type Arg<T> = T | Placeholder;
interface NearbyArgs {
  operatorId: Arg<number>;
  centre: Arg<string>;
  box: Arg<string>;
  limit: Arg<number>;
}

const found = { id: zones.id, version: rowVersion };
const inBox = (a: Pick<NearbyArgs, 'operatorId' | 'box'>) =>
  and(eq(zones.operatorId, a.operatorId), isNull(zones.retiredAt), sql`${zones.mercator} <@ ${a.box}::box`);

/** The k-nearest scan of nearby(), with values or with placeholders for a prepared statement. */
function nearbyStatement(db: Executor, a: NearbyArgs) {
  return db
    .select(found)
    .from(zones)
    .where(inBox(a))
    .orderBy(sql`${zones.mercator} <-> ${a.centre}::point`)
    .limit(a.limit);
}

/**
 * nearby() is the hot path: prepared once per database (or transaction), drizzle builds its SQL
 * once and PostgreSQL can keep the plan of the named statement.
 */
const preparedNearby = preparedPerDatabase((db) => {
  const p = (name: keyof NearbyArgs) => sql.placeholder(name);
  return nearbyStatement(db, {
    operatorId: p('operatorId'),
    centre: p('centre'),
    box: p('box'),
    limit: p('limit'),
  }).prepare('zones_nearby');
});

/** Every zone of the operator in a box: nearby()'s answer when the scan cannot be proven. */
const preparedInBox = preparedPerDatabase((db) =>
  db
    .select(found)
    .from(zones)
    .where(inBox({ operatorId: sql.placeholder('operatorId'), box: sql.placeholder('box') }))
    .prepare('zones_in_box'),
);

/** The SQL of nearby()'s first scan, unexecuted: tests and the benchmark EXPLAIN it. */
export function nearbyQuery(db: Executor, p: NearbyParams): SQL {
  const search = mercatorSearch(p.lat, p.lng, p.radiusM);
  return nearbyStatement(db, {
    operatorId: p.operatorId,
    centre: search.centre,
    box: search.boxes[0]!,
    limit: p.limit + EXTRA_ROWS,
  }).getSQL();
}

/** A row with the chord to the position asked about (or null) as a zone with its distance in metres. */
export function toHit({ chord, ...zone }: ZoneRecord & { chord: unknown }): ZoneHit {
  return { zone, distanceM: chord === null ? null : metresOfChord(Number(chord)) };
}

export async function byId(db: Executor, operatorId: number, id: number): Promise<ZoneRecord | null> {
  const [z] = await db
    .select(zoneColumns)
    .from(zones)
    .where(and(eq(zones.id, id), eq(zones.operatorId, operatorId)))
    .limit(1);
  return z ?? null;
}

export async function countForOperator(db: Executor, operatorId: number): Promise<number> {
  const [r] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(zones)
    .where(eq(zones.operatorId, operatorId));
  return Number(r?.n ?? 0);
}

/** Which of these zone numbers the operator already has. */
export async function existingNumbers(
  db: Executor,
  operatorId: number,
  numbers: readonly string[],
): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < numbers.length; i += 5000) {
    const chunk = numbers.slice(i, i + 5000);
    const rows = await db
      .select({ n: zones.zoneNumber })
      .from(zones)
      .where(and(eq(zones.operatorId, operatorId), inArray(zones.zoneNumber, chunk)));
    for (const r of rows) found.add(r.n);
  }
  return found;
}

/**
 * Inserts zones with one statement and one parameter (a JSON array), so a batch of thousands of rows
 * needs neither thousands of bind parameters (PostgreSQL allows 65,535) nor a driver-specific COPY.
 * Callers batch and wrap the batches in a transaction.
 */
export async function insertZones(db: Executor, operatorId: number, batch: readonly NewZone[]): Promise<number> {
  if (batch.length === 0) return 0;
  const json = JSON.stringify(
    batch.map((z) => ({
      zone_number: z.zoneNumber,
      name: z.name,
      address: z.address,
      city: z.city,
      state: z.state,
      zip: z.zip,
      lat: z.lat,
      lng: z.lng,
      kind: z.kind,
      rate_cents: z.rateCents,
      max_stay_minutes: z.maxStayMinutes,
      paid_days: z.paidDays,
      paid_from_minute: z.paidFromMinute,
      paid_until_minute: z.paidUntilMinute,
      capacity: z.capacity,
      // Optional: a curb line or area, a CDS feed's curb_zone_id and price policy (a CDS import).
      curb: z.curb ?? null,
      cds_id: z.cdsId ?? null,
      price_policy_id: z.pricePolicyId ?? null,
    })),
  );
  // The optional columns only when the batch sets one (a migration test inserts into older schemas).
  const extra = batch.some((z) => z.curb != null || z.cdsId != null || z.pricePolicyId != null);
  const columns = sql.raw(extra ? ', curb, cds_id, price_policy_id' : '');
  const values = sql.raw(extra ? ', r.curb, r.cds_id, r.price_policy_id' : '');
  const types = sql.raw(extra ? ', curb jsonb, cds_id uuid, price_policy_id int' : '');
  await db.execute(sql`
    insert into zones (operator_id, zone_number, name, address, city, state, zip, lat, lng, kind, rate_cents,
      max_stay_minutes, paid_days, paid_from_minute, paid_until_minute, capacity${columns})
    select ${operatorId}::int, r.zone_number, r.name, r.address, r.city, r.state, r.zip, r.lat, r.lng, r.kind, r.rate_cents,
      r.max_stay_minutes, r.paid_days, r.paid_from_minute, r.paid_until_minute, r.capacity${values}
    from json_to_recordset(${json}::json) as r(zone_number text, name text, address text, city text, state text, zip text,
      lat float8, lng float8, kind text, rate_cents int, max_stay_minutes int, paid_days smallint[],
      paid_from_minute smallint, paid_until_minute smallint, capacity int${types})`);
  return batch.length;
}
