/**
 * Zone benchmark: 1,000,000 generated zones over the Austin metro area, loaded into
 * PostgreSQL and into PGlite; nearest 20 within 2 km from 1,000 random points and exact zone-number
 * search for 1,000 random numbers, timed in-process through the repository (no HTTP), beside an
 * in-memory kd-tree (kdbush + geokdbush) and a Map on the same points. Prints p50/p99 and memory.
 *
 * Env: ZONES_BENCH_COUNT (1000000), ZONES_BENCH_PGLITE_COUNT (same; 0 skips PGlite),
 * BENCH_DATABASE_URL (an admin URL of the PostgreSQL server; a database is created and dropped).
 * Run alone: `node --import tsx bench/zones.ts`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql } from 'drizzle-orm';
import { around } from 'geokdbush';
import KDBush from 'kdbush';
import { openDatabase, queryRows, type Database, type Db } from '@parkit/server/src/db/client.ts';
import { operators } from '@parkit/server/src/db/schema/index.ts';
import { insertZones, nearby, nearbyQuery, type NewZone } from '@parkit/server/src/zones/zone-repository.ts';
import { search } from '@parkit/server/src/zones/zone-search.ts';
import { ZoneCache } from '@parkit/server/src/zones/zone-cache.ts';
import { scratchPostgres } from '@parkit/server/test/support/scratch-database.ts';
import { printTable } from './table.ts';
import { byArea, CENTRE, FIRST_NUMBER, metroPoints, mulberry32, zoneAt, type Points } from './zones/data.ts';

const COUNT = Number(process.env.ZONES_BENCH_COUNT ?? 1_000_000);
const PGLITE_COUNT = Math.min(COUNT, Number(process.env.ZONES_BENCH_PGLITE_COUNT ?? COUNT));
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const QUERIES = 1000;
// Queries before timing (other points and numbers): caches, JIT and the prepared statement settle.
const WARM_UP = 200;
const BATCH = 5000;

/** Drops the secondary indexes, inserts in batches of 5,000 rows, rebuilds the indexes: the usual bulk load. */
async function bulkLoad(db: Db, operatorId: number, count: number, points: Points): Promise<void> {
  const indexes = await queryRows<{ indexname: string; indexdef: string }>(
    db,
    sql`select indexname, indexdef from pg_indexes where tablename = 'zones' and indexname <> 'zones_pkey'`,
  );
  for (const i of indexes) await db.execute(sql.raw(`drop index ${i.indexname}`));
  for (let start = 0; start < count; start += BATCH) {
    const batch: NewZone[] = [];
    for (let i = start; i < Math.min(count, start + BATCH); i++) batch.push(zoneAt(i, points));
    await insertZones(db, operatorId, batch);
  }
  await db.transaction(async (tx) => {
    await tx.execute(sql`set local maintenance_work_mem = '256MB'`);
    for (const i of indexes) await tx.execute(sql.raw(i.indexdef));
  });
  // As after any bulk load: set the visibility hints and statistics before the first reader does,
  // and write the dirty pages out now rather than in a checkpoint during the timing.
  await db.execute(sql`vacuum analyze zones`);
  await db.execute(sql`checkpoint`);
}

interface Stats {
  p50: number;
  p99: number;
}

async function time(n: number, f: (i: number) => Promise<unknown> | unknown): Promise<Stats> {
  // Warm-up calls use the inputs after the measured ones (the arrays hold n + WARM_UP).
  for (let i = 0; i < WARM_UP; i++) await f(n + i);
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await f(i);
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  return { p50: ms[Math.floor(n * 0.5)]!, p99: ms[Math.min(n - 1, Math.ceil(n * 0.99) - 1)]! };
}

const mb = (bytes: number) => `${Math.round(bytes / 2 ** 20)} MB`;
const memory = () => {
  const m = process.memoryUsage();
  return `rss ${mb(m.rss)}, heapUsed ${mb(m.heapUsed)}, external ${mb(m.external)}`;
};

interface Result {
  engine: string;
  zones: number;
  loadSeconds: number;
  nearest: Stats;
  number: Stats;
  memory: string;
  /** The zone numbers nearby() found for each query point, compared with the kd-tree at the end. */
  found: string[];
}

const queries = metroPoints(QUERIES + WARM_UP, 99);
/** QUERIES + WARM_UP existing zone numbers, the same sequence for every engine. */
const randomNumbers = (count: number) => {
  const rng = mulberry32(1234);
  return Array.from({ length: QUERIES + WARM_UP }, () => String(FIRST_NUMBER + Math.floor(rng() * count)));
};

async function benchDatabase(engine: string, database: Database, count: number, points: Points): Promise<Result> {
  const db = database.db;
  const [op] = await db
    .insert(operators)
    .values({ name: 'Bench', city: 'Austin', state: 'TX', ...CENTRE, timezone: 'America/Chicago' })
    .returning();
  const operatorId = op!.id;
  const t = performance.now();
  await bulkLoad(db, operatorId, count, points);
  const loadSeconds = (performance.now() - t) / 1000;
  const query = nearbyQuery(db, { operatorId, ...CENTRE, radiusM: 2000, limit: 20 });
  const plan = await queryRows<{ 'QUERY PLAN': string }>(db, sql`explain (analyze) ${query}`);
  console.log(`  ${engine}, nearest 20 downtown:\n    ${plan.map((r) => r['QUERY PLAN'].trim()).join('\n    ')}`);
  const found: string[] = [];
  // The server's cache of zone rows: the queries are spread over the metro area, so most are misses.
  const rows = new ZoneCache();
  const nearest = await time(QUERIES, async (i) => {
    const hits = await nearby(db, rows, {
      operatorId,
      lat: queries.lat[i]!,
      lng: queries.lng[i]!,
      radiusM: 2000,
      limit: 20,
    });
    found[i] = hits.map((h) => h.zone.zoneNumber).join();
  });
  const numbers = randomNumbers(count);
  const number = await time(QUERIES, async (i) => {
    const [hit] = await search(db, { operatorId, q: numbers[i]!, limit: 20 });
    if (hit?.zone.zoneNumber !== numbers[i]) throw new Error(`zone ${numbers[i]} not found first`);
  });
  return { engine, zones: count, loadSeconds, nearest, number, memory: memory(), found: found.slice(0, QUERIES) };
}

async function onPostgres(points: Points): Promise<Result> {
  const scratch = await scratchPostgres(ADMIN_URL, 'parkit_bench');
  const database = await openDatabase({ url: scratch.url, poolSize: 2 });
  try {
    return await benchDatabase('PostgreSQL', database, COUNT, points);
  } finally {
    await database.close();
    await scratch.drop();
  }
}

/** PGlite on disk, as the server runs it (DATA_DIR); in memory it would hold the whole database in RAM. */
async function onPglite(points: Points): Promise<Result> {
  const dir = mkdtempSync(join(tmpdir(), 'parkit-bench-pglite-'));
  const database = await openDatabase({ dataDir: dir });
  try {
    return await benchDatabase('PGlite', database, PGLITE_COUNT, points);
  } finally {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function kdTree(points: Points, count: number): KDBush {
  const kd = new KDBush(count);
  for (let i = 0; i < count; i++) kd.add(points.lng[i]!, points.lat[i]!);
  kd.finish();
  return kd;
}

/** How many query points got the same 20 zones, in the same order, from the database as from the kd-tree. */
function agreement(kd: KDBush, found: readonly string[]): string {
  let same = 0;
  for (let i = 0; i < QUERIES; i++) {
    if (
      around(kd, queries.lng[i]!, queries.lat[i]!, 20, 2)
        .map((id) => String(FIRST_NUMBER + id))
        .join() === found[i]
    )
      same++;
  }
  return `${same}/${QUERIES}`;
}

/** The in-memory baseline, built last so the databases' memory figures do not include it. */
async function inMemory(points: Points): Promise<Result & { kd: KDBush }> {
  const t = performance.now();
  const kd = kdTree(points, COUNT);
  const byNumber = new Map<string, number>();
  for (let i = 0; i < COUNT; i++) byNumber.set(String(FIRST_NUMBER + i), i);
  const loadSeconds = (performance.now() - t) / 1000;
  const nearest = await time(QUERIES, (i) => around(kd, queries.lng[i]!, queries.lat[i]!, 20, 2));
  const numbers = randomNumbers(COUNT);
  const number = await time(QUERIES, (i) => byNumber.get(numbers[i]!));
  return {
    engine: 'kd-tree + Map (in memory)',
    zones: COUNT,
    loadSeconds,
    nearest,
    number,
    memory: memory(),
    found: [],
    kd,
  };
}

export async function runZonesBench(): Promise<void> {
  console.log(
    `\nZones: ${COUNT.toLocaleString('en-US')} generated over the Austin metro area (PGlite: ${PGLITE_COUNT.toLocaleString('en-US')})`,
  );
  const points = byArea(metroPoints(COUNT, 42));
  const databases: Result[] = [];
  for (const [engine, run] of [
    ['PostgreSQL', onPostgres],
    ['PGlite', onPglite],
  ] as const) {
    if (engine === 'PGlite' && PGLITE_COUNT === 0) continue;
    const t = performance.now();
    databases.push(await run(points));
    console.log(`  ${engine} done in ${((performance.now() - t) / 1000).toFixed(0)} s`);
  }
  const memoryResult = await inMemory(points);

  const row = (r: Result, agrees: string) => ({
    engine: r.engine,
    zones: r.zones,
    'load s': Number(r.loadSeconds.toFixed(1)),
    'nearest-20 p50 ms': Number(r.nearest.p50.toFixed(2)),
    'nearest-20 p99 ms': Number(r.nearest.p99.toFixed(2)),
    'number p50 ms': Number(r.number.p50.toFixed(2)),
    'number p99 ms': Number(r.number.p99.toFixed(2)),
    'same 20 as kd-tree': agrees,
    'process memory after': r.memory,
  });
  printTable('zones: nearest 20 within 2 km and exact zone number, 1,000 queries each, in-process', [
    row(memoryResult, '-'),
    ...databases.map((r) => row(r, agreement(r.zones === COUNT ? memoryResult.kd : kdTree(points, r.zones), r.found))),
  ]);
  const pgP99 = databases[0]!.nearest.p99;
  console.log(
    `Goal nearest-20 p99 <= 5 ms on PostgreSQL: ${pgP99 <= 5 ? 'met' : 'NOT met'} (${pgP99.toFixed(2)} ms)\n`,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runZonesBench();
}
