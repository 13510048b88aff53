import { and, eq, getTableColumns, inArray, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { Executor } from '../../../db/client.ts';
import { preparedPerDatabase } from '../../../db/prepared.ts';
import { zones } from '../../../db/schema/index.ts';
import { chordBetween, earthPoint, metresOfChord, searchCubes } from './earth.ts';

/** Every column the API shows: all but created_at (unused, and timestamps are the dearest column to parse). */
export const { createdAt: _createdAt, ...zoneColumns } = getTableColumns(zones);
export type ZoneRecord = Omit<typeof zones.$inferSelect, 'createdAt'>;
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
const rowVersion = sql<string>`${zones}.xmin::text`;
/** Where nearby() gets the rows of the zones it found (ZoneCache). */
export interface ZoneRows {
  records(db: Executor, refs: readonly ZoneRef[]): Promise<ZoneRecord[]>;
}
export type NewZone = Omit<typeof zones.$inferInsert, 'id' | 'operatorId' | 'createdAt'>;

/** The expression of the GiST index zones_operator_earth_idx (with operator_id): queries must repeat it exactly to use the index. */
const zonePoint = sql`ll_to_earth(${zones.lat}, ${zones.lng})`;
/** The chord from a centre cube to the zone: the index's `<->`, turned into metres by toHit. */
export const chordFrom = (centre: Arg<string>) => sql<number>`(${zonePoint} <-> ${centre}::cube)`;

export interface NearbyParams {
  operatorId: number;
  lat: number;
  lng: number;
  radiusM: number;
  limit: number;
}

/**
 * Zones within radiusM, nearest first. The box around the centre (earth_box) is what the GiST
 * index answers, and ordering by the chord `<->` (which grows with the great-circle distance) is a
 * k-nearest scan of the same index: the first `limit` rows in the box come out in order without
 * sorting the box. The query returns ids and row versions only, and the rows come from the cache
 * (issue 9: parsing every column of 20 rows was most of the request's time). The box over-covers
 * the circle, so rows past the radius are dropped here: every row in the circle is nearer than any
 * outside it, so what remains is the nearest within the radius. (Measuring in SQL would run
 * ll_to_earth with its domain checks again for every row: ~0.3 ms.)
 */
export async function nearby(db: Executor, rows: ZoneRows, p: NearbyParams): Promise<ZoneHit[]> {
  const { centre, box, chord } = searchCubes(p.lat, p.lng, p.radiusM);
  const refs = await preparedNearby(db).execute({ operatorId: p.operatorId, centre, box, limit: p.limit });
  const from = earthPoint(p.lat, p.lng);
  const hits: ZoneHit[] = [];
  for (const zone of await rows.records(db, refs)) {
    const c = chordBetween(from, earthPoint(zone.lat, zone.lng));
    if (c > chord) break;
    hits.push({ zone, distanceM: metresOfChord(c) });
  }
  return hits;
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

/** The query of nearby(), with values or with placeholders for a prepared statement. */
function nearbyStatement(db: Executor, a: NearbyArgs) {
  return db
    .select({ id: zones.id, version: rowVersion })
    .from(zones)
    .where(and(eq(zones.operatorId, a.operatorId), sql`${zonePoint} <@ ${a.box}::cube`))
    .orderBy(chordFrom(a.centre))
    .limit(a.limit);
}

/**
 * nearby() is the hot path: prepared once per database (or transaction), drizzle builds its SQL
 * once and PostgreSQL can keep the plan of the named statement.
 */
const preparedNearby = preparedPerDatabase((db) => {
  const p = (name: keyof NearbyArgs) => sql.placeholder(name);
  return nearbyStatement(db, { operatorId: p('operatorId'), centre: p('centre'), box: p('box'), limit: p('limit') }).prepare('zones_nearby');
});

/** The SQL nearby() runs, unexecuted: tests and the benchmark EXPLAIN it. */
export function nearbyQuery(db: Executor, p: NearbyParams): SQL {
  return nearbyStatement(db, { operatorId: p.operatorId, ...searchCubes(p.lat, p.lng, p.radiusM), limit: p.limit }).getSQL();
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
  const [r] = await db.select({ n: sql<number>`count(*)::int` }).from(zones).where(eq(zones.operatorId, operatorId));
  return Number(r?.n ?? 0);
}

/** Which of these zone numbers the operator already has. */
export async function existingNumbers(db: Executor, operatorId: number, numbers: readonly string[]): Promise<Set<string>> {
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
    })),
  );
  await db.execute(sql`
    insert into zones (operator_id, zone_number, name, address, city, state, zip, lat, lng, kind, rate_cents,
      max_stay_minutes, paid_days, paid_from_minute, paid_until_minute, capacity)
    select ${operatorId}::int, r.zone_number, r.name, r.address, r.city, r.state, r.zip, r.lat, r.lng, r.kind, r.rate_cents,
      r.max_stay_minutes, r.paid_days, r.paid_from_minute, r.paid_until_minute, r.capacity
    from json_to_recordset(${json}::json) as r(zone_number text, name text, address text, city text, state text, zip text,
      lat float8, lng float8, kind text, rate_cents int, max_stay_minutes int, paid_days smallint[],
      paid_from_minute smallint, paid_until_minute smallint, capacity int)`);
  return batch.length;
}
