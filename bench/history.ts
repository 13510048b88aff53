/**
 * History benchmark: the member's past sessions stay as fast with 10 million sessions
 * (1 million members) as with 10 thousand. Loads both into PostgreSQL, then times through the
 * repository (no HTTP), for one member with a long history (HEAVY sessions, the same in both):
 * the first page, the 100th page by its cursor, a one-week date filter, and the first and 10th
 * pages by distance, each p50/p99, and the ratio large/small. Goal: ratio at most 1.5.
 *
 * Env: HISTORY_BENCH_SESSIONS (10000000), HISTORY_BENCH_MEMBERS (1000000), BENCH_DATABASE_URL
 * (admin URL; a database per size is created and dropped), HISTORY_BENCH_KEEP=1 (keep the loaded
 * databases, parkit_bench_history_<size>, and reuse them on the next run when their size matches:
 * the 10M load takes minutes; newer migrations are applied to them as to any database).
 * HISTORY_BENCH_RUNS (1000) timed runs per query after 200 warm-up runs.
 * HISTORY_BENCH_BASELINE=<folder>: a checkout of an earlier commit with its node_modules (e.g. a
 * `git worktree`); its history repository and database client are timed beside this tree's on the
 * same two databases, interleaved run by run, so a change is compared before and after in one run.
 * Run alone: `node --import tsx bench/history.ts`.
 *
 * The measured member parks in every one of the operator's 2,000 zones (2 or 3 sessions each): the
 * distance sort's zone step is at its largest (it is bounded by the zones, not the sessions).
 */
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase, queryRows, type Db } from '@parkit/server/src/db/client.ts';
import {
  historyPage,
  historyQuery,
  type HistoryParams,
} from '@parkit/server/src/history/session-history-repository.ts';
import { explainJson, planNodes, sortsOver } from '@parkit/server/test/support/query-plan.ts';
import { printTable } from './table.ts';

const LARGE = {
  sessions: Number(process.env.HISTORY_BENCH_SESSIONS ?? 10_000_000),
  members: Number(process.env.HISTORY_BENCH_MEMBERS ?? 1_000_000),
};
const SMALL = { sessions: 10_000, members: 1_000 };
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** The measured member's sessions: 100 pages of 20 and more, in both sizes. */
const HEAVY = 5_000;
const ZONES = 2_000;
const PAGE = 20;
const RUNS = Number(process.env.HISTORY_BENCH_RUNS ?? 1000);
const WARM_UP = 200;
const KEEP = process.env.HISTORY_BENCH_KEEP === '1';
const CENTRE = { lat: 30.2672, lng: -97.7431 };
const BASELINE = process.env.HISTORY_BENCH_BASELINE;

async function admin(statement: string, values: unknown[] = []) {
  const c = new pg.Client({ connectionString: ADMIN_URL });
  await c.connect();
  try {
    return (await c.query(statement, values)).rows as Record<string, unknown>[];
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
  const [op] = await queryRows<{ id: number }>(
    db,
    sql`
    INSERT INTO operators (name, city, state, lat, lng, timezone) VALUES ('Bench', 'Austin', 'TX', ${CENTRE.lat}, ${CENTRE.lng}, 'America/Chicago') RETURNING id`,
  );
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

  const indexes = await queryRows<{ indexname: string; indexdef: string }>(
    db,
    sql`
    SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'parking_sessions' AND indexname <> 'parking_sessions_pkey'`,
  );
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
  // Every table, zones included: without its statistics the planner guessed 1,000 zones and
  // hash-joined them, sorting the page's rows after.
  await db.execute(sql`VACUUM ANALYZE`);
  await db.execute(sql`CHECKPOINT`);
  return m0;
}

const stats = (ms: number[]) => {
  const sorted = [...ms].sort((x, y) => x - y);
  return { p50: sorted[Math.floor(sorted.length * 0.5)]!, p99: sorted[Math.ceil(sorted.length * 0.99) - 1]! };
};

/**
 * Times the same query on every side (both sizes, and with a baseline both builds), interleaved run
 * by run (which one goes first rotates): on a shared machine a burst of load then falls on every
 * side instead of on one.
 */
async function timeAll(sides: (() => Promise<unknown>)[]) {
  for (let i = 0; i < WARM_UP; i++) for (const side of sides) await side();
  const ms = sides.map(() => [] as number[]);
  for (let i = 0; i < RUNS; i++) {
    for (let j = 0; j < sides.length; j++) {
      const k = (i + j) % sides.length;
      const t = performance.now();
      await sides[k]!();
      ms[k]!.push(performance.now() - t);
    }
  }
  return ms.map(stats);
}

type Case = { name: string; params: HistoryParams };

/** A database for one size: new, or with HISTORY_BENCH_KEEP=1 the one kept from an earlier run when it holds this size. */
async function databaseFor(label: string, size: { sessions: number; members: number }) {
  const name = KEEP
    ? `parkit_bench_history_${label.toLowerCase()}`
    : `parkit_bench_history_${randomBytes(4).toString('hex')}`;
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
    const [kept] = await queryRows<{ member_id: number; sessions: number; members: number }>(
      database.db,
      sql`
      SELECT member_id, sessions, members FROM bench_history_loaded`,
    ).catch(() => []);
    if (kept && Number(kept.sessions) === size.sessions && Number(kept.members) === size.members) {
      console.log(
        `${label}: reusing ${name} (${size.sessions.toLocaleString('en-US')} sessions, loaded by an earlier run)`,
      );
      await database.db.execute(sql`VACUUM ANALYZE`);
      return { database, url: url.toString(), memberId: Number(kept.member_id), done: () => database.close() };
    }
    await drop();
    return databaseFor(label, { ...size });
  }
  const started = Date.now();
  const memberId = await load(database.db, size);
  console.log(
    `${label}: loaded ${size.sessions.toLocaleString('en-US')} sessions, ${size.members.toLocaleString('en-US')} members in ${Math.round((Date.now() - started) / 1000)} s`,
  );
  if (KEEP) {
    await database.db.execute(sql`CREATE TABLE bench_history_loaded (member_id int, sessions bigint, members bigint)`);
    await database.db.execute(
      sql`INSERT INTO bench_history_loaded VALUES (${memberId}, ${size.sessions}, ${size.members})`,
    );
  }
  return { database, url: url.toString(), memberId, done: KEEP ? () => database.close() : drop };
}

type Loaded = Awaited<ReturnType<typeof databaseFor>>;

async function casesFor({ database, memberId }: Loaded): Promise<Case[]> {
  const base = { memberId, origin: null, timeZone: 'America/Chicago', limit: PAGE } as const;
  // The 100th page's cursor, reached the way a driver reaches it: page by page.
  let cursor: string | undefined;
  for (let p = 1; p < 100; p++)
    cursor = (await historyPage(database.db, { ...base, sort: 'newest', cursor })).next ?? undefined;
  // The distance sort's 10th page, by its cursor (the cursor's zone, then the zones after it).
  let nearCursor: string | undefined;
  for (let p = 1; p < 10; p++)
    nearCursor =
      (await historyPage(database.db, { ...base, sort: 'near', origin: CENTRE, cursor: nearCursor })).next ?? undefined;
  const week = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
  return [
    { name: 'first page (newest)', params: { ...base, sort: 'newest' } },
    { name: '100th page by cursor', params: { ...base, sort: 'newest', cursor } },
    { name: 'date filter (one week)', params: { ...base, sort: 'newest', from: week(400), to: week(393) } },
    { name: 'distance sort, first page', params: { ...base, sort: 'near', origin: CENTRE } },
    {
      name: 'distance sort, 10th page by cursor',
      params: { ...base, sort: 'near', origin: CENTRE, cursor: nearCursor },
    },
  ];
}

/** The plan in a few words: how parking_sessions is read, and what is sorted. */
async function planOf({ database }: Loaded, params: HistoryParams): Promise<string> {
  const root = await explainJson(database.db, historyQuery(params, PAGE + 1));
  const scans = [
    ...new Set(
      planNodes(root)
        .filter((n) => n['Relation Name'] === 'parking_sessions')
        .map((n) => `${n['Node Type']} ${n['Index Name'] ?? ''}`.trim()),
    ),
  ];
  const sorts = sortsOver(root, 'parking_sessions');
  const sortText = [
    sorts.fullSortsOfTable ? `Sort above parking_sessions x${sorts.fullSortsOfTable}` : '',
    sorts.otherSorts.length ? 'Sort of the member’s zones' : '',
    sorts.incremental.length ? 'Incremental Sort (a zone at a time)' : '',
  ].filter(Boolean);
  return [...scans, ...sortText].join(' + ') || 'no read of parking_sessions';
}

/** One build's history code: this tree's, or the baseline's (HISTORY_BENCH_BASELINE). */
interface Build {
  name: string;
  /** The first page of the member's history on a database, through this build's repository and client. */
  page: (db: 'small' | 'large', params: HistoryParams) => Promise<unknown>;
  close: () => Promise<void>;
}

/**
 * The baseline's repository and client, loaded from its own folder (its own drizzle and pg, as it
 * ran), each database opened through its own openDatabase. The repository lived in
 * plugins/app/history/ before the domain folders.
 */
async function baselineBuild(root: string, small: Loaded, large: Loaded): Promise<Build> {
  const server = join(root, 'apps/server/src');
  const repository = ['history/session-history-repository.ts', 'plugins/app/history/session-history-repository.ts']
    .map((f) => join(server, f))
    .find((f) => existsSync(f));
  if (!repository) throw new Error(`HISTORY_BENCH_BASELINE: no session-history-repository.ts under ${server}`);
  type Page = (db: unknown, params: HistoryParams) => Promise<unknown>;
  type Open = (opts: { url: string; poolSize: number }) => Promise<{ db: unknown; close: () => Promise<void> }>;
  const { historyPage: page } = (await import(pathToFileURL(repository).href)) as { historyPage: Page };
  const { openDatabase: open } = (await import(pathToFileURL(join(server, 'db/client.ts')).href)) as {
    openDatabase: Open;
  };
  const dbs = {
    small: await open({ url: small.url, poolSize: 2 }),
    large: await open({ url: large.url, poolSize: 2 }),
  };
  return {
    name: 'baseline',
    page: (db, params) => page(dbs[db].db, params),
    close: async () => {
      await dbs.small.close();
      await dbs.large.close();
    },
  };
}

export async function runHistoryBench() {
  const largeLabel = `${LARGE.sessions / 1_000_000}M`;
  const small = await databaseFor('10k', SMALL);
  const large = await databaseFor(largeLabel, LARGE);
  const builds: Build[] = [
    {
      name: 'this tree',
      page: (db, params) => historyPage((db === 'small' ? small : large).database.db, params),
      close: async () => {},
    },
  ];
  try {
    if (BASELINE) builds.unshift(await baselineBuild(BASELINE, small, large));
    const [smallCases, largeCases] = [await casesFor(small), await casesFor(large)];
    const rows: Record<string, string | number>[] = [];
    const ratios: Record<string, string | number>[] = [];
    const versus: Record<string, string | number>[] = [];
    for (const [i, c] of smallCases.entries()) {
      const l = largeCases[i]!;
      // Per build: small, then large.
      const times = await timeAll(
        builds.flatMap((b) => [() => b.page('small', c.params), () => b.page('large', l.params)]),
      );
      const plans = { small: await planOf(small, c.params), large: await planOf(large, l.params) };
      for (const [k, b] of builds.entries()) {
        const [rs, rl] = [times[2 * k]!, times[2 * k + 1]!];
        const build: Record<string, string> = BASELINE ? { build: b.name } : {};
        for (const [size, r, plan] of [
          ['10k', rs, plans.small],
          [largeLabel, rl, plans.large],
        ] as const) {
          rows.push({ ...build, size, query: c.name, 'p50 ms': r.p50.toFixed(2), 'p99 ms': r.p99.toFixed(2), plan });
        }
        ratios.push({
          ...build,
          query: c.name,
          'p50 ratio': (rl.p50 / rs.p50).toFixed(2),
          'p99 ratio': (rl.p99 / rs.p99).toFixed(2),
        });
      }
      if (BASELINE) {
        const [bs, bl, ts, tl] = times;
        versus.push({
          query: c.name,
          '10k p50': (ts!.p50 / bs!.p50).toFixed(2),
          '10k p99': (ts!.p99 / bs!.p99).toFixed(2),
          [`${largeLabel} p50`]: (tl!.p50 / bl!.p50).toFixed(2),
          [`${largeLabel} p99`]: (tl!.p99 / bl!.p99).toFixed(2),
        });
      }
    }
    const loadAverage = loadavg()
      .map((x) => x.toFixed(2))
      .join(' ');
    printTable(
      `history: one member’s sessions (PostgreSQL, in-process, ${RUNS} runs each, ${BASELINE ? 'sizes and builds' : 'sizes'} interleaved, after ${WARM_UP} warm-up; load average ${loadAverage}; plan: this tree’s query)`,
      rows,
    );
    printTable('history: large / small (goal: at most 1.5)', ratios);
    if (BASELINE) printTable(`history: this tree / baseline (${BASELINE})`, versus);
  } finally {
    for (const b of builds) await b.close();
    await small.done();
    await large.done();
  }
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
