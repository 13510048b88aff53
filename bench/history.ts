/**
 * History benchmark (issue 12): the member's past sessions stay as fast with 10 million sessions
 * (1 million members) as with 10 thousand. Loads both into PostgreSQL, then times through the
 * repository (no HTTP), for one member with a long history (HEAVY sessions, the same in both):
 * the first page, the 100th page by its cursor, a one-week date filter, and the first page by
 * distance, each p50/p99, and the ratio large/small. Goal: ratio at most 1.5.
 *
 * Env: HISTORY_BENCH_SESSIONS (10000000), HISTORY_BENCH_MEMBERS (1000000), BENCH_DATABASE_URL
 * (admin URL; a database per size is created and dropped). Run alone: `node --import tsx bench/history.ts`.
 */
import { randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase, queryRows, type Db } from '@parkit/server/src/db/client.ts';
import { historyPage, historyQuery, type HistoryParams } from '@parkit/server/src/plugins/app/history/session-history-repository.ts';
import { printTable } from './table.ts';

const LARGE = { sessions: Number(process.env.HISTORY_BENCH_SESSIONS ?? 10_000_000), members: Number(process.env.HISTORY_BENCH_MEMBERS ?? 1_000_000) };
const SMALL = { sessions: 10_000, members: 1_000 };
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** The measured member's sessions: 100 pages of 20 and more, in both sizes. */
const HEAVY = 5_000;
const ZONES = 2_000;
const PAGE = 20;
const RUNS = 300;
const WARM_UP = 50;
const CENTRE = { lat: 30.2672, lng: -97.7431 };

async function admin(statement: string) {
  const c = new pg.Client({ connectionString: ADMIN_URL });
  await c.connect();
  try {
    await c.query(statement);
  } finally {
    await c.end();
  }
}

/**
 * One INSERT ... SELECT per table (generate_series), foreign-key triggers off for the load
 * (session_replication_role = replica: the rows are consistent by construction), secondary
 * indexes dropped and rebuilt after, then VACUUM ANALYZE: the usual bulk load.
 */
async function load(db: Db, size: { sessions: number; members: number }): Promise<number> {
  const [op] = await queryRows<{ id: number }>(db, sql`
    INSERT INTO operators (name, city, state, lat, lng, timezone) VALUES ('Bench', 'Austin', 'TX', ${CENTRE.lat}, ${CENTRE.lng}, 'America/Chicago') RETURNING id`);
  const operatorId = op!.id;
  await db.execute(sql`
    INSERT INTO zones (operator_id, zone_number, name, address, city, state, zip, lat, lng, kind, rate_cents, max_stay_minutes, paid_days, paid_from_minute, paid_until_minute, capacity)
    SELECT ${operatorId}, (10000 + g)::text, 'Zone ' || g, g || ' Bench St', 'Austin', 'TX', '78701',
           ${CENTRE.lat} + ((g * 7919) % 1000 - 500) / 10000.0, ${CENTRE.lng} + ((g * 104729) % 1000 - 500) / 10000.0,
           'street', 250, 240, '{1,2,3,4,5,6,7}', 0, 1440, 10
    FROM generate_series(1, ${ZONES}) g`);
  await db.execute(sql`
    INSERT INTO members (client_id, user_name, email, phone, password_hash)
    SELECT ${operatorId}, 'bench' || g, 'bench' || g || '@example.test', (1000000000 + g)::text, 'x'
    FROM generate_series(1, ${size.members}) g`);
  const [first] = await queryRows<{ id: number }>(db, sql`SELECT min(id) AS id FROM members`);
  const m0 = Number(first!.id);
  const [z] = await queryRows<{ id: number }>(db, sql`SELECT min(id) AS id FROM zones`);
  const z0 = Number(z!.id);

  const indexes = await queryRows<{ indexname: string; indexdef: string }>(db, sql`
    SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'parking_sessions' AND indexname <> 'parking_sessions_pkey'`);
  for (const i of indexes) await db.execute(sql.raw(`DROP INDEX ${i.indexname}`));
  await db.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL session_replication_role = replica`);
    // Member m0 is the measured one: HEAVY sessions, one every 6 hours back from now. The rest are
    // spread over the other members, one every ~3 seconds over the past year.
    await tx.execute(sql`
      INSERT INTO parking_sessions (member_id, operator_id, zone_id, vehicle_make, vehicle_model, plate, plate_state,
        started_at, ends_at, ended_at, duration_minutes, initial_minutes, rate_cents, parking_cents, fee_cents, paid_via, status)
      SELECT CASE WHEN g <= ${HEAVY} THEN ${m0} ELSE ${m0 + 1} + (g % ${size.members - 1}) END,
             ${operatorId}, ${z0} + (g * 31) % ${ZONES}, 'TOYOTA', 'CAMRY', 'B' || (g % 100000), 'TX',
             t, t + interval '1 hour', t + interval '1 hour', 60, 60, 250, 250, 25, 'Wallet', 'ended'
      FROM (SELECT g, CASE WHEN g <= ${HEAVY} THEN now() - (g * interval '6 hours') ELSE now() - ((g * 3) * interval '1 second') END AS t
            FROM generate_series(1, ${size.sessions}) g) s`);
  });
  await db.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL maintenance_work_mem = '512MB'`);
    for (const i of indexes) await tx.execute(sql.raw(i.indexdef));
  });
  await db.execute(sql`VACUUM ANALYZE parking_sessions`);
  await db.execute(sql`VACUUM ANALYZE members`);
  await db.execute(sql`CHECKPOINT`);
  return m0;
}

async function time(f: () => Promise<unknown>): Promise<{ p50: number; p99: number }> {
  for (let i = 0; i < WARM_UP; i++) await f();
  const ms: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await f();
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  return { p50: ms[Math.floor(RUNS * 0.5)]!, p99: ms[Math.ceil(RUNS * 0.99) - 1]! };
}

type Case = { name: string; params: HistoryParams };

async function measure(label: string, size: { sessions: number; members: number }) {
  const name = `parkit_bench_history_${randomBytes(4).toString('hex')}`;
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString(), poolSize: 2 });
  try {
    const started = Date.now();
    const memberId = await load(database.db, size);
    console.log(`${label}: loaded ${size.sessions.toLocaleString('en-US')} sessions, ${size.members.toLocaleString('en-US')} members in ${Math.round((Date.now() - started) / 1000)} s`);
    const base = { memberId, origin: null, timeZone: 'America/Chicago', limit: PAGE } as const;
    // The 100th page's cursor, reached the way a driver reaches it: page by page.
    let cursor: string | undefined;
    for (let p = 1; p < 100; p++) cursor = (await historyPage(database.db, { ...base, sort: 'newest', cursor })).next ?? undefined;
    const week = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
    const cases: Case[] = [
      { name: 'first page (newest)', params: { ...base, sort: 'newest' } },
      { name: '100th page by cursor', params: { ...base, sort: 'newest', cursor } },
      { name: 'date filter (one week)', params: { ...base, sort: 'newest', from: week(400), to: week(393) } },
      { name: 'distance sort, first page', params: { ...base, sort: 'near', origin: CENTRE } },
    ];
    const rows: Record<string, string | number>[] = [];
    for (const c of cases) {
      const r = await time(() => historyPage(database.db, c.params));
      const plan = (await queryRows<Record<string, string>>(database.db, sql`EXPLAIN ${historyQuery(c.params, PAGE + 1)}`))
        .map((x) => Object.values(x)[0]!)
        .join(' ');
      const scan = /(Index Scan( Backward)?|Index Only Scan|Bitmap Index Scan) (using|on) \w+/.exec(plan)?.[0] ?? 'no index scan';
      rows.push({ size: label, query: c.name, 'p50 ms': r.p50.toFixed(2), 'p99 ms': r.p99.toFixed(2), plan: `${scan}${/\bSort\b/.test(plan) ? ' + Sort' : ''}` });
    }
    return rows;
  } finally {
    await database.close();
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}

export async function runHistoryBench() {
  const small = await measure('10k', SMALL);
  const large = await measure(`${LARGE.sessions / 1_000_000}M`, LARGE);
  printTable('history: one member’s sessions (PostgreSQL, in-process, 300 runs each)', [...small, ...large]);
  printTable(
    'history: large / small (goal: at most 1.5)',
    small.map((s, i) => ({
      query: s.query!,
      'p50 ratio': (Number(large[i]!['p50 ms']) / Number(s['p50 ms'])).toFixed(2),
      'p99 ratio': (Number(large[i]!['p99 ms']) / Number(s['p99 ms'])).toFixed(2),
    })),
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  runHistoryBench().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
