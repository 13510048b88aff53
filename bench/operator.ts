/**
 * Operator bench (docs/reports.md): the operator's dashboard and a 30-day report over
 * 10 million sessions answer in under 1 s p95, read from the rollups the database keeps
 * (operator_hourly_rollups, migration 0030), timed beside the raw scan of parking_sessions that
 * computes the same figures, in the same run, on the same database.
 *
 * The load: one INSERT ... SELECT generate_series per OPERATOR_BENCH_BATCH sessions with triggers
 * off, then the rollups summed by rollup_rebuild() (the migration's backfill). The sessions: one
 * every ~3 s over the past year across 500 zones, the last hours' still running. Beside the reads,
 * what the triggers cost a write: 1,000 sessions inserted one statement each, then as one statement.
 *
 * Env: OPERATOR_BENCH_SESSIONS (10000000), OPERATOR_BENCH_BATCH (1000000), OPERATOR_BENCH_RUNS (40)
 * timed runs of each rollup read after 5 warm-ups, OPERATOR_BENCH_RAW_RUNS (5) of each raw scan,
 * BENCH_DATABASE_URL (admin URL), OPERATOR_BENCH_KEEP=1 (keep parkit_bench_operator and reuse it
 * when its size matches). Run alone: `npm run bench -- operator`.
 */
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase, queryRows, type Db } from '@parkit/server/src/db/client.ts';
import { addDays, dashboard, localDay, report, type ReportOperator } from '@parkit/server/src/reports/index.ts';
import { printTable } from './table.ts';

const SESSIONS = Number(process.env.OPERATOR_BENCH_SESSIONS ?? 10_000_000);
const BATCH = Number(process.env.OPERATOR_BENCH_BATCH ?? 1_000_000);
const RUNS = Number(process.env.OPERATOR_BENCH_RUNS ?? 40);
const RAW_RUNS = Number(process.env.OPERATOR_BENCH_RAW_RUNS ?? 5);
const WARM_UP = 5;
const ZONES = 500;
const KEEP = process.env.OPERATOR_BENCH_KEEP === '1';
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const CENTRE = { lat: 30.2672, lng: -97.7431 };
const TZ = 'America/Chicago';
/** Seconds between two sessions' starts: SESSIONS of them over a year. */
const STEP = (365 * 86_400) / SESSIONS;

async function admin(statement: string, values: unknown[] = []) {
  const c = new pg.Client({ connectionString: ADMIN_URL });
  await c.connect();
  try {
    return (await c.query(statement, values)).rows as Record<string, unknown>[];
  } finally {
    await c.end();
  }
}

/** Sessions from..to of the bench's year (see load). */
const insertSessions = (operatorId: number, z0: number, from: number, to: number) => sql`
  INSERT INTO parking_sessions (guest_phone, operator_id, zone_id, vehicle_make, vehicle_model, plate, plate_state,
    started_at, ends_at, ended_at, duration_minutes, initial_minutes, rate_cents, parking_cents, fee_cents,
    refunded_cents, discount_percent, paid_via, status)
  SELECT '5125550100', ${operatorId}, ${z0} + (g * 31) % ${ZONES}, 'TOYOTA', 'CAMRY', 'B' || g, 'TX',
         t, t + m * interval '1 minute',
         CASE WHEN t + m * interval '1 minute' > now() THEN NULL
              WHEN g % 10 = 3 THEN t + (m / 2) * interval '1 minute' ELSE t + m * interval '1 minute' END,
         m, m, 250, (m * 250 + 59) / 60, 35,
         CASE WHEN g % 10 = 3 AND t + m * interval '1 minute' <= now() THEN (m / 2 * 250) / 60 ELSE 0 END,
         CASE WHEN g % 10 = 7 THEN 10 ELSE 0 END, 'Card',
         CASE WHEN t + m * interval '1 minute' > now() THEN 'active' ELSE 'ended' END
  FROM (SELECT g, now() - (g * ${STEP}::float8) * interval '1 second' AS t, 30 + (g * 7) % 211 AS m
        FROM generate_series(${from}::int, ${to}::int) g) s`;

/** The operator, its zones, then the sessions (see the file's comment). */
async function load(db: Db): Promise<number> {
  const [op] = await queryRows<{ id: number }>(
    db,
    sql`INSERT INTO operators (name, city, state, lat, lng, timezone)
        VALUES ('Bench', 'Austin', 'TX', ${CENTRE.lat}, ${CENTRE.lng}, ${TZ}) RETURNING id`,
  );
  const operatorId = Number(op!.id);
  await db.execute(sql`
    INSERT INTO zones (operator_id, zone_number, name, address, city, state, zip, lat, lng, kind, rate_cents, max_stay_minutes, paid_days, paid_from_minute, paid_until_minute, capacity)
    SELECT ${operatorId}, (10000 + g)::text, 'Zone ' || g, g || ' Bench St', 'Austin', 'TX', '78701',
           ${CENTRE.lat} + ((g * 7919) % 1000 - 500) / 10000.0, ${CENTRE.lng} + ((g * 104729) % 1000 - 500) / 10000.0,
           'street', 250, 240, '{1,2,3,4,5,6,7}', 0, 1440, 10 + g % 40
    FROM generate_series(1, ${ZONES}) g`);
  const [z] = await queryRows<{ id: number }>(
    db,
    sql`SELECT min(id) AS id FROM zones WHERE operator_id = ${operatorId}`,
  );
  const z0 = Number(z!.id);
  // Session g started g * STEP seconds ago, parked 30 to 240 minutes (a tenth stopped early with a
  // refund, a tenth with a 10% discount); those whose paid end is still ahead are running. The
  // usual bulk load: secondary indexes and triggers off (session_replication_role = replica), one
  // INSERT ... SELECT generate_series per batch, then the rollups summed by rollup_rebuild(), the
  // migration's own backfill (the triggers' per-statement path has its tests; a bulk load through
  // it is timed below on a small batch).
  const indexes = await queryRows<{ indexname: string; indexdef: string }>(
    db,
    sql`SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'parking_sessions' AND indexname <> 'parking_sessions_pkey'`,
  );
  for (const i of indexes) await db.execute(sql.raw(`DROP INDEX ${i.indexname}`));
  const started = Date.now();
  for (let from = 1; from <= SESSIONS; from += BATCH) {
    const to = Math.min(SESSIONS, from + BATCH - 1);
    await db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL session_replication_role = replica`);
      await tx.execute(insertSessions(operatorId, z0, from, to));
    });
    if (to % 1_000_000 < BATCH)
      console.log(`  ${to.toLocaleString('en-US')} sessions, ${Math.round((Date.now() - started) / 1000)} s`);
  }
  await db.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL maintenance_work_mem = '512MB'`);
    for (const i of indexes) await tx.execute(sql.raw(i.indexdef));
  });
  const rebuilt = Date.now();
  await db.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL work_mem = '256MB'`);
    await tx.execute(sql`SELECT rollup_rebuild()`);
  });
  console.log(
    `  rollups summed from ${SESSIONS.toLocaleString('en-US')} sessions in ${Math.round((Date.now() - rebuilt) / 1000)} s`,
  );
  await db.execute(sql`VACUUM ANALYZE`);
  await db.execute(sql`CHECKPOINT`);
  return operatorId;
}

async function databaseFor() {
  const name = KEEP ? 'parkit_bench_operator' : `parkit_bench_operator_${process.pid}`;
  const exists = KEEP && (await admin('SELECT 1 FROM pg_database WHERE datname = $1', [name])).length > 0;
  if (!exists) await admin(`CREATE DATABASE ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString(), poolSize: 2 });
  const drop = async () => {
    await database.close();
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  };
  if (exists) {
    const [kept] = await queryRows<{ operator_id: number; sessions: number }>(
      database.db,
      sql`SELECT operator_id, sessions FROM bench_operator_loaded`,
    ).catch(() => []);
    if (kept && Number(kept.sessions) === SESSIONS) {
      console.log(`reusing ${name} (${SESSIONS.toLocaleString('en-US')} sessions, loaded by an earlier run)`);
      return { database, operatorId: Number(kept.operator_id), loadSeconds: NaN, done: () => database.close() };
    }
    await drop();
    return databaseFor();
  }
  const t = Date.now();
  const operatorId = await load(database.db).catch(async (err: unknown) => {
    console.error((err as { cause?: unknown }).cause ?? err);
    await drop();
    throw err;
  });
  const loadSeconds = Math.round((Date.now() - t) / 1000);
  console.log(`loaded ${SESSIONS.toLocaleString('en-US')} sessions and their rollups in ${loadSeconds} s`);
  if (KEEP) {
    await database.db.execute(sql`CREATE TABLE bench_operator_loaded (operator_id int, sessions bigint)`);
    await database.db.execute(sql`INSERT INTO bench_operator_loaded VALUES (${operatorId}, ${SESSIONS})`);
  }
  return { database, operatorId, loadSeconds, done: KEEP ? () => database.close() : drop };
}

/** The raw scan: the same figures computed from parking_sessions itself, session by session. */
const rawShares = (operatorId: number, from: string, to: string) => sql`
  SELECT x.* FROM parking_sessions s CROSS JOIN LATERAL session_rollup_share(s, 1) x
  WHERE s.operator_id = ${operatorId}
    AND s.started_at >= (${from}::date::timestamp AT TIME ZONE ${TZ}) - interval '1 day'
    AND s.started_at < ((${to}::date + 1)::timestamp AT TIME ZONE ${TZ})`;
const rangeOf = (from: string, to: string) =>
  sql`hour >= (${from}::date::timestamp AT TIME ZONE ${TZ}) AND hour < ((${to}::date + 1)::timestamp AT TIME ZONE ${TZ})`;

function rawDashboard(db: Db, operatorId: number, today: string) {
  const from = addDays(today, -29);
  return Promise.all([
    queryRows(
      db,
      sql`SELECT zone_id, count(*) FROM parking_sessions WHERE status = 'active' AND ends_at > now() AND operator_id = ${operatorId} GROUP BY zone_id`,
    ),
    queryRows<{ revenue: string }>(
      db,
      sql`SELECT to_char((hour AT TIME ZONE ${TZ})::date, 'YYYY-MM-DD') AS day, sum(sessions_started) AS sessions,
                 sum(parking_cents + fee_cents - refunded_cents) AS revenue
          FROM (${rawShares(operatorId, from, today)}) r WHERE ${rangeOf(from, today)} GROUP BY 1 ORDER BY 1`,
    ),
  ]);
}

function rawReport(db: Db, operatorId: number, from: string, to: string) {
  return queryRows<{ zone_id: number | null; revenue: string }>(
    db,
    sql`WITH r AS (SELECT x.*, x.hour AT TIME ZONE ${TZ} AS local FROM (${rawShares(operatorId, from, to)}) x WHERE ${rangeOf(from, to)})
        SELECT zone_id, extract(hour FROM local)::int AS hod, extract(isodow FROM local)::int AS dow,
               to_char(local::date, 'YYYY-MM-DD') AS day, sum(sessions_started) AS sessions, sum(stay_seconds) AS stay,
               sum(parking_cents + fee_cents - refunded_cents) AS revenue, sum(discount_cents) AS discount,
               sum(occupied_seconds) AS occupied
        FROM r GROUP BY GROUPING SETS ((zone_id), (extract(hour FROM local)::int), (extract(isodow FROM local)::int), (to_char(local::date, 'YYYY-MM-DD')))`,
  );
}

async function time(runs: number, warmUp: number, f: () => Promise<unknown>) {
  for (let i = 0; i < warmUp; i++) await f();
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await f();
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  const at = (q: number) => Math.round(ms[Math.min(ms.length - 1, Math.ceil(ms.length * q) - 1)]! * 10) / 10;
  return { runs, p50: at(0.5), p95: at(0.95), max: at(1) };
}

export async function runOperatorBench() {
  const loaded = await databaseFor();
  try {
    const { db } = loaded.database;
    const operator: ReportOperator = { id: loaded.operatorId, timezone: TZ };
    const today = localDay(new Date(), TZ);
    const from = addDays(today, -29);
    const [counts] = await queryRows<{ sessions: string; rollups: string }>(
      db,
      sql`SELECT (SELECT count(*) FROM parking_sessions) AS sessions, (SELECT count(*) FROM operator_hourly_rollups) AS rollups`,
    );

    // The two ways agree to the cent before either is timed.
    const viaRollups = await report(db, operator, { from, to: today, zoneIds: [] });
    const raw = await rawReport(db, operator.id, from, today);
    const rawRevenue = raw.filter((r) => r.zone_id !== null).reduce((a, r) => a + Number(r.revenue), 0);
    if (rawRevenue !== viaRollups.RevenueCents)
      throw new Error(`the rollups say ${viaRollups.RevenueCents} cents, the raw scan ${rawRevenue}`);

    const rows = [
      { read: 'dashboard, rollups', ...(await time(RUNS, WARM_UP, () => dashboard(db, operator))) },
      { read: 'dashboard, raw scan', ...(await time(RAW_RUNS, 1, () => rawDashboard(db, operator.id, today))) },
      {
        read: '30-day report, rollups',
        ...(await time(RUNS, WARM_UP, () => report(db, operator, { from, to: today, zoneIds: [] }))),
      },
      { read: '30-day report, raw scan', ...(await time(RAW_RUNS, 1, () => rawReport(db, operator.id, from, today))) },
    ];
    // What the triggers cost a write: one session per statement, with the rollups and without.
    const [z] = await queryRows<{ id: number }>(
      db,
      sql`SELECT min(id) AS id FROM zones WHERE operator_id = ${operator.id}`,
    );
    const z0 = Number(z!.id);
    const g0 = SESSIONS + 1;
    let g = g0;
    const one = (replica: boolean) =>
      db.transaction(async (tx) => {
        if (replica) await tx.execute(sql`SET LOCAL session_replication_role = replica`);
        await tx.execute(insertSessions(operator.id, z0, g, g));
        g++;
      });
    rows.push({ read: 'insert 1 session, with rollups', ...(await time(RUNS * 5, 5, () => one(false))) });
    const gSplit = g;
    rows.push({ read: 'insert 1 session, triggers off', ...(await time(RUNS * 5, 5, () => one(true))) });
    // Gone again: the first ones through the triggers, the others as they came (triggers off).
    const remove = (from: number, to: number) =>
      sql`DELETE FROM parking_sessions WHERE operator_id = ${operator.id} AND plate = ANY(ARRAY(SELECT 'B' || i FROM generate_series(${from}::int, ${to}::int) i))`;
    await db.execute(remove(g0, gSplit - 1));
    await db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL session_replication_role = replica`);
      await tx.execute(remove(gSplit, g - 1));
    });
    printTable(
      `operator bench: ${Number(counts!.sessions).toLocaleString('en-US')} sessions, ${Number(counts!.rollups).toLocaleString('en-US')} rollup rows, ${ZONES} zones (ms; goal: rollups p95 < 1000)` +
        (Number.isNaN(loaded.loadSeconds) ? '' : `; load ${loaded.loadSeconds} s`),
      rows,
    );
    console.log(`30-day revenue ${viaRollups.RevenueCents} cents by both ways; ${viaRollups.Sessions} sessions`);
    const slow = rows.filter((r) => r.read.endsWith('rollups') && r.p95 >= 1000);
    if (slow.length) throw new Error(`over 1 s p95: ${slow.map((r) => r.read).join(', ')}`);
  } finally {
    await loaded.done();
  }
}
