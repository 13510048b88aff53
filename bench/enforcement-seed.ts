/**
 * The enforcement bench's database (bench/enforcement.ts): 1,000,000 parking sessions and 100,000
 * permits, loaded set-based (one INSERT ... SELECT generate_series per table, triggers off, the
 * secondary indexes of parking_sessions dropped during the load and built after), on the schema of
 * the migrations (openDatabase migrates). Kept as parkit_bench_enforcement and reused while its
 * counts match and it was loaded less than ENFORCEMENT_BENCH_REUSE_HOURS ago: every time in it is
 * relative to the load, so the live sessions of a load taken hours ago have ended.
 *
 * The city: OPERATORS operators of ZONES_PER_OPERATOR street zones each (grace 5 minutes). The
 * sessions: one every ~0.6 s over the past 7 days, 30 to 240 minutes, spread over every zone,
 * the plates drawn from 300,000 drivers' (so a plate has ~3 sessions a week, most ended) and one
 * in 50 a permit holder's plate paying away from home; those whose paid end is ahead are live
 * (~13,000). The permits: 50,000 residents, 100,000 permits over the operators (types resident,
 * business, disabled), each for 1 to 3 neighbouring zones and 1 or 2 plates; 85% active now, 5%
 * active but expired, 5% pending, 5% refused. Visitor days: one resident permit in 20 gave a
 * visitor's plate today (the operator's local date) and on each of the 29 days before.
 */
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase, queryRows, type Database, type Db } from '@parkit/server/src/db/client.ts';

export const SESSIONS = Number(process.env.ENFORCEMENT_BENCH_SESSIONS ?? 1_000_000);
export const PERMITS = Number(process.env.ENFORCEMENT_BENCH_PERMITS ?? 100_000);
export const OPERATORS = 10;
export const ZONES_PER_OPERATOR = 200;
const RESIDENTS = 50_000;
const DRIVERS = 300_000;
const DAYS = 7;
const REUSE_HOURS = Number(process.env.ENFORCEMENT_BENCH_REUSE_HOURS ?? 2);
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const NAME = 'parkit_bench_enforcement';
const TZ = 'America/Chicago';

async function admin(statement: string, values: unknown[] = []) {
  const c = new pg.Client({ connectionString: ADMIN_URL });
  await c.connect();
  try {
    return (await c.query(statement, values)).rows as Record<string, unknown>[];
  } finally {
    await c.end();
  }
}

export const benchUrl = () => {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${NAME}`;
  return url.toString();
};

/** Zones of operator k (0-based) are numbered 'E<k>-<n>', n from 1; ids contiguous per operator. */
async function loadCity(db: Db) {
  await db.execute(sql`
    INSERT INTO operators (name, city, state, lat, lng, timezone, grace_minutes)
    SELECT 'Bench ' || k, 'Austin', 'TX', 30.2672, -97.7431, ${TZ}, 5 FROM generate_series(0, ${OPERATORS - 1}) k`);
  await db.execute(sql`
    INSERT INTO zones (operator_id, zone_number, name, address, city, state, zip, lat, lng, kind, rate_cents,
                       max_stay_minutes, paid_days, paid_from_minute, paid_until_minute, capacity)
    SELECT o.id, 'E' || k || '-' || n, 'Bench zone ' || k || '-' || n, n || ' Bench St', 'Austin', 'TX', '78701',
           30.2672 + ((k * 211 + n) % 1000 - 500) / 10000.0, -97.7431 + ((k * 733 + n * 7) % 1000 - 500) / 10000.0,
           'street', 250, 240, '{1,2,3,4,5,6,7}', 0, 1440, 10 + n % 40
    FROM generate_series(0, ${OPERATORS - 1}) k
    JOIN operators o ON o.name = 'Bench ' || k
    CROSS JOIN generate_series(1, ${ZONES_PER_OPERATOR}) n
    ORDER BY k, n`);
  // Every bench zone with its operator and its index g (0-based, operator-major): the loads join it.
  await db.execute(sql`
    CREATE TABLE bench_zones AS
    SELECT z.id, z.operator_id, (row_number() OVER (ORDER BY z.operator_id, z.id) - 1)::int AS g
    FROM zones z JOIN operators o ON o.id = z.operator_id WHERE o.name LIKE 'Bench %'`);
  await db.execute(sql`CREATE UNIQUE INDEX ON bench_zones (g)`);
}

const ZONE_INDEX = sql`bench_zones`;

async function loadMembers(db: Db) {
  await db.execute(sql`
    INSERT INTO members (client_id, user_name, email, phone, password_hash, phone_verified_at)
    SELECT (SELECT min(id) FROM operators WHERE name = 'Bench 0'), 'resident' || i, 'resident' || i || '@bench.invalid',
           '7' || lpad(i::text, 9, '0'), '!', now()
    FROM generate_series(1, ${RESIDENTS}) i`);
}

async function loadSessions(db: Db) {
  const step = (DAYS * 86_400) / SESSIONS;
  await db.execute(sql`
    INSERT INTO parking_sessions (guest_phone, operator_id, zone_id, vehicle_make, vehicle_model, plate, plate_state,
      started_at, ends_at, ended_at, duration_minutes, initial_minutes, rate_cents, parking_cents, fee_cents,
      refunded_cents, paid_via, status)
    SELECT '5' || lpad(i::text, 9, '0'), z.operator_id, z.id, 'TOYOTA', 'CAMRY',
           CASE WHEN i % 50 = 0 THEN 'P' || (i / 50) % ${PERMITS} ELSE 'S' || (i::bigint * 7919) % ${DRIVERS} END,
           CASE WHEN i % 17 = 0 THEN 'OK' ELSE 'TX' END,
           t, t + m * interval '1 minute',
           CASE WHEN t + m * interval '1 minute' > now() THEN NULL
                WHEN i % 10 = 3 THEN t + (m / 2) * interval '1 minute' ELSE t + m * interval '1 minute' END,
           m, m, 250, (m * 250 + 59) / 60, 35,
           CASE WHEN i % 10 = 3 AND t + m * interval '1 minute' <= now() THEN (m / 2 * 250) / 60 ELSE 0 END,
           'Card', CASE WHEN t + m * interval '1 minute' > now() THEN 'active' ELSE 'ended' END
    FROM (SELECT i, now() - (i * ${step}::float8) * interval '1 second' AS t, 30 + (i * 7) % 211 AS m,
                 (i * 31) % ${OPERATORS * ZONES_PER_OPERATOR} AS zg
          FROM generate_series(1, ${SESSIONS}) i) s
    JOIN ${ZONE_INDEX} z ON z.g = s.zg`);
}

async function loadPermits(db: Db) {
  // Three types per operator, each over all its zones; a permit names 1 to 3 neighbouring ones.
  await db.execute(sql`
    INSERT INTO permit_types (operator_id, kind, name, zone_ids, valid_months, price_cents, max_plates, visitor_days_per_month)
    SELECT o.id, t.kind, t.name, (SELECT array_agg(id ORDER BY id) FROM zones WHERE operator_id = o.id), 12, t.price, 2, t.days
    FROM operators o
    CROSS JOIN (VALUES ('resident', 'Residents', 5000, 5), ('business', 'Business', 20000, 0), ('disabled', 'Disabled', 0, 0))
      AS t(kind, name, price, days)
    WHERE o.name LIKE 'Bench %'`);
  const [m] = await queryRows<{ id: number }>(db, sql`SELECT min(id) AS id FROM members WHERE user_name = 'resident1'`);
  const m0 = Number(m!.id);
  await db.execute(sql`
    INSERT INTO permits (operator_id, type_id, member_id, plates, zone_ids, status, refusal_reason, price_cents,
                         valid_from, valid_until, decided_at)
    SELECT z.operator_id, pt.id, ${m0} + (p % ${RESIDENTS}),
           CASE WHEN p % 5 = 0 THEN array['P' || p, 'Q' || p] ELSE array['P' || p] END,
           (SELECT array_agg(id ORDER BY id) FROM ${ZONE_INDEX} w
            WHERE w.operator_id = z.operator_id AND w.g BETWEEN z.g AND z.g + p % 3),
           CASE WHEN p % 20 = 18 THEN 'pending' WHEN p % 20 = 19 THEN 'refused' ELSE 'active' END,
           CASE WHEN p % 20 = 19 THEN 'No proof of address' END,
           pt.price_cents,
           CASE WHEN p % 20 < 18 THEN now() - ((p % 300) + CASE WHEN p % 20 = 17 THEN 400 ELSE 1 END) * interval '1 day' END,
           CASE WHEN p % 20 < 18 THEN now() - ((p % 300) + CASE WHEN p % 20 = 17 THEN 400 ELSE 1 END) * interval '1 day'
                                     + interval '365 days' END,
           CASE WHEN p % 20 < 18 THEN now() - (p % 300) * interval '1 day' END
    FROM generate_series(0, ${PERMITS - 1}) p
    JOIN ${ZONE_INDEX} z ON z.g = (p * 13) % ${OPERATORS * ZONES_PER_OPERATOR}
    JOIN permit_types pt ON pt.operator_id = z.operator_id
      AND pt.kind = (array['resident', 'resident', 'resident', 'business', 'disabled'])[1 + p % 5]`);
  // The visitor days: one resident permit (active, in its window) in 20 gave a visitor's plate
  // today ('V' || its id) and on each of the 29 days before (another plate each day).
  await db.execute(sql`
    INSERT INTO visitor_days (operator_id, permit_id, member_id, plate, day)
    SELECT p.operator_id, p.id, p.member_id, CASE WHEN d = 0 THEN 'V' || p.id ELSE 'W' || p.id || 'D' || d END,
           (now() AT TIME ZONE ${TZ})::date - d
    FROM permits p JOIN permit_types t ON t.id = p.type_id CROSS JOIN generate_series(0, 29) d
    WHERE t.kind = 'resident' AND p.status = 'active' AND p.valid_until > now() AND p.id % 20 = 1`);
}

/** The whole load; answers the seconds each part took. */
async function load(db: Db): Promise<Record<string, number>> {
  const took: Record<string, number> = {};
  const timed = async (part: string, f: () => Promise<void>) => {
    const t = Date.now();
    await f();
    took[part] = Math.round((Date.now() - t) / 100) / 10;
    console.log(`  ${part}: ${took[part]} s`);
  };
  await timed('operators and zones', () => loadCity(db));
  await timed('members', () => loadMembers(db));
  await timed('permits and visitor days', () => loadPermits(db));
  // The usual bulk load: the secondary indexes off, triggers off (the rollups are not read here).
  const indexes = await queryRows<{ indexname: string; indexdef: string }>(
    db,
    sql`SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'parking_sessions' AND indexname <> 'parking_sessions_pkey'`,
  );
  await timed('sessions', async () => {
    for (const i of indexes) await db.execute(sql.raw(`DROP INDEX ${i.indexname}`));
    await db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL session_replication_role = replica`);
      await loadSessions(tx as unknown as Db);
    });
  });
  await timed('session indexes', async () => {
    await db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL maintenance_work_mem = '256MB'`);
      for (const i of indexes) await tx.execute(sql.raw(i.indexdef));
    });
  });
  await timed('vacuum analyze', async () => {
    await db.execute(sql`VACUUM ANALYZE`);
    await db.execute(sql`CHECKPOINT`);
  });
  return took;
}

export interface BenchDatabase {
  database: Database;
  url: string;
  /** The load's seconds per part; null when an earlier run's load was reused. */
  loaded: Record<string, number> | null;
}

/**
 * What a run adds to the database, taken away before the next run on a reused load, so that each
 * run starts from the same tables: the audit rows, the keys and the rate limits' counts of earlier
 * runs, then VACUUM ANALYZE of those tables and a CHECKPOINT. PostgreSQL may run without autovacuum (this machine's
 * CI configuration does), and the dead rows of earlier runs then slowed every later run: ten runs
 * left 250,000 dead rows in rate_limits and 38,000 keys.
 */
async function clearEarlierRuns(db: Db): Promise<void> {
  await db.execute(sql`TRUNCATE enforcement_checks, operator_api_keys, rate_limits`);
  await db.execute(sql`VACUUM ANALYZE enforcement_checks, operator_api_keys, rate_limits`);
  // Their pages written out now, not by a checkpoint that the WAL of the turns would otherwise call in.
  await db.execute(sql`CHECKPOINT`);
}

/**
 * parkit_bench_enforcement, loaded or reused (see the file's comment). ENFORCEMENT_BENCH_FRESH=1
 * drops it first.
 */
export async function benchDatabase(): Promise<BenchDatabase> {
  const url = benchUrl();
  const exists = (await admin('SELECT 1 FROM pg_database WHERE datname = $1', [NAME])).length > 0;
  if (exists && process.env.ENFORCEMENT_BENCH_FRESH !== '1') {
    const database = await openDatabase({ url, poolSize: 2 });
    const [kept] = await queryRows<{ sessions: number; permits: number; hours: number }>(
      database.db,
      sql`SELECT sessions, permits, extract(epoch FROM now() - loaded_at) / 3600 AS hours FROM bench_enforcement_loaded`,
    ).catch(() => []);
    if (kept && Number(kept.sessions) === SESSIONS && Number(kept.permits) === PERMITS && kept.hours < REUSE_HOURS) {
      console.log(`reusing ${NAME}, loaded ${Math.round(kept.hours * 60)} minutes ago`);
      await clearEarlierRuns(database.db);
      return { database, url, loaded: null };
    }
    await database.close();
  }
  if (exists) await admin(`DROP DATABASE ${NAME} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${NAME}`);
  const database = await openDatabase({ url, poolSize: 2 });
  console.log(
    `loading ${NAME}: ${SESSIONS.toLocaleString('en-US')} sessions, ${PERMITS.toLocaleString('en-US')} permits`,
  );
  const t = Date.now();
  const took = await load(database.db).catch(async (err: unknown) => {
    console.error((err as { cause?: unknown }).cause ?? err);
    await database.close();
    await admin(`DROP DATABASE IF EXISTS ${NAME} WITH (FORCE)`);
    throw err;
  });
  took.total = Math.round((Date.now() - t) / 1000);
  await database.db.execute(
    sql`CREATE TABLE bench_enforcement_loaded (sessions int, permits int, loaded_at timestamptz)`,
  );
  await database.db.execute(sql`INSERT INTO bench_enforcement_loaded VALUES (${SESSIONS}, ${PERMITS}, now())`);
  console.log(`loaded in ${took.total} s`);
  return { database, url, loaded: took };
}
