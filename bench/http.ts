import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { asAdmin } from '@parkit/server/test/support/scratch-database.ts';
import { perRequest, postgresCpu, processCpu } from './cpu.ts';
import { startNode, startServer, stop, type Started } from './processes.ts';
import { printTable } from './table.ts';

/**
 * Autocannon -c 50 against the API, on PostgreSQL and on PGlite, each beside its
 * anchors started in the same run: a bare Fastify hello-world, and a bare Fastify route making one
 * round trip (`select 1`) on the same database (node-postgres with a pool of 10; PGlite). Each row
 * prints its ratio to the anchor, issue 9's goal and whether it is met. Everything on loopback;
 * every server is a child process stopped at the end. BENCH_SECONDS (the unpaired rows),
 * BENCH_TURN_SECONDS and BENCH_ROUNDS (the paired rows) shorten or lengthen a run.
 */
const PORT_BASE = Number(process.env.BENCH_PORT ?? 3321);
const PG_ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const CONNECTIONS = 50;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const DEMO = { username: 'demo', password: 'parkit-demo' };
/** Downtown Austin, among the demo zones. */
const NEARBY = '/api/Parking/Zones/Nearby?lat=30.2672&lng=-97.7431';
/** p99 at 50 connections, PostgreSQL rows. */
const P99_GOAL_MS = 20;

interface Row extends Result {
  target: string;
  database: string;
  /** The anchor it is compared with, and the ratio issue 9 asks for. */
  anchor?: 'hello' | 'db';
  goal?: number;
  /** Median of the rounds' ratios to the bare DB route (measured in turns with it). */
  ratio?: number;
  /** The lowest and highest of those ratios: how much the machine moved during the row. */
  ratioRange?: [number, number];
}

interface Result {
  rps: number;
  p99: number;
  failed: number;
  /** CPU per request in µs: the server's process, and PostgreSQL's processes (PostgreSQL rows). */
  cpuUs: number | null;
  pgUs: number | null;
}

/** Whose CPU a measurement reads: the server's process, and PostgreSQL's when it is the database. */
interface Meter {
  pid: number | undefined;
  postgres: boolean;
}

/** A first request proves the route answers 200 (a wrong token would make 401s look fast), then a warm-up. */
async function warm(url: string, headers: Record<string, string> = {}) {
  const probe = await fetch(url, { headers });
  if (probe.status !== 200) throw new Error(`GET ${url} answered ${probe.status}: ${await probe.text()}`);
  await autocannon({ url, headers, connections: 10, duration: 1 }); // JIT, pools
}

async function once(url: string, headers: Record<string, string>, seconds: number, meter: Meter): Promise<Result> {
  const cpu0 = processCpu(meter.pid);
  const pg0 = meter.postgres ? postgresCpu() : null;
  const r = await autocannon({ url, headers, connections: CONNECTIONS, duration: seconds });
  return {
    rps: r.requests.average,
    p99: r.latency.p99,
    failed: r.non2xx + r.errors + r.timeouts,
    cpuUs: perRequest(cpu0, processCpu(meter.pid), r.requests.total),
    pgUs: meter.postgres ? perRequest(pg0, postgresCpu(), r.requests.total) : null,
  };
}

async function measure(url: string, meter: Meter, headers: Record<string, string> = {}): Promise<Result> {
  await warm(url, headers);
  return once(url, headers, SECONDS, meter);
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/**
 * The machine may be shared and noisy: the route and its anchor are measured in turns (ROUNDS
 * turns of TURN_SECONDS each), and the ratio is the median of the rounds' ratios. On a shared
 * 2-core machine one row's turns ranged by as much as 0.3: five turns give a steadier
 * median than three, and the table prints the lowest and highest beside it.
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const TURN_SECONDS = Number(process.env.BENCH_TURN_SECONDS ?? 2);

/** The medians of runs; CPU only when every run could read it. */
function medians(runs: Result[]): Result {
  const cpu = (pick: (r: Result) => number | null) =>
    runs.every((r) => pick(r) !== null) ? median(runs.map((r) => pick(r)!)) : null;
  return {
    rps: median(runs.map((r) => r.rps)),
    p99: median(runs.map((r) => r.p99)),
    failed: runs.reduce((n, r) => n + r.failed, 0),
    cpuUs: cpu((r) => r.cpuUs),
    pgUs: cpu((r) => r.pgUs),
  };
}

async function paired(
  anchor: { url: string; meter: Meter },
  url: string,
  headers: Record<string, string>,
  meter: Meter,
  anchorRuns: Result[],
): Promise<Result & Required<Pick<Row, 'ratio' | 'ratioRange'>>> {
  await warm(url, headers);
  const seconds = TURN_SECONDS;
  const runs: Result[] = [];
  const ratios: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const a = await once(anchor.url, {}, seconds, anchor.meter);
    const r = await once(url, headers, seconds, meter);
    anchorRuns.push(a);
    runs.push(r);
    ratios.push(r.rps / a.rps);
  }
  return { ...medians(runs), ratio: median(ratios), ratioRange: [Math.min(...ratios), Math.max(...ratios)] };
}

const SIGN_IN_CONNECTIONS = 8;

/**
 * Sign-in with the password, hashed with argon2id at OWASP's parameters on libuv's
 * thread pool. Fewer connections than the reads: each sign-in takes ~19 MiB and a core for a while.
 */
async function measureSignIn(base: string) {
  const opts = {
    url: `${base}/token`,
    method: 'POST' as const,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', ...DEMO }).toString(),
  };
  await autocannon({ ...opts, connections: 2, duration: 1 });
  const r = await autocannon({ ...opts, connections: SIGN_IN_CONNECTIONS, duration: SECONDS });
  return {
    rps: r.requests.average,
    p99: r.latency.p99,
    failed: r.non2xx + r.errors + r.timeouts,
    cpuUs: null,
    pgUs: null,
  };
}

async function signIn(base: string): Promise<Record<string, string>> {
  const res = await fetch(`${base}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', ...DEMO }).toString(),
  });
  if (res.status !== 200) throw new Error(`sign-in as demo failed: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { access_token: string; member_id: number };
  return { authorization: `Bearer ${body.access_token}`, xapikey: String(body.member_id) };
}

/**
 * One database: the bare route with one `select 1` (the anchor) and the ParkIt server run side by
 * side; each ParkIt row is measured in turns with the anchor. Health, Details, Vehicle/List,
 * nearest zones, sign-in.
 */
async function benchDatabase(
  label: string,
  ports: { bare: number; server: number },
  env: NodeJS.ProcessEnv,
  dataDir: string,
): Promise<Row[]> {
  const base = `http://127.0.0.1:${ports.server}`;
  const bareUrl = `http://127.0.0.1:${ports.bare}/`;
  const serverEnv: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'development',
    HOST: '127.0.0.1',
    PORT: String(ports.server),
    LOG_LEVEL: 'warn',
    SEED_DEMO: 'true',
    DEMO_ZONES: '1200',
    DATA_DIR: dataDir,
    // Load from one address and one member: the limits would answer 429 (issue 8's rate limit).
    API_RATE_LIMIT: '10000000',
    ADDRESS_RATE_LIMIT_SCALE: '1000',
    DATABASE_URL: undefined,
    JWT_SECRET: undefined,
    ...env,
  };
  const goal = (g: number) => (label === 'PGlite' ? 0.25 : g);
  let bare: Started | undefined;
  let server: Started | undefined;
  try {
    bare = await startNode(
      'bench/bare-db.ts',
      { ...process.env, PORT: String(ports.bare), DATABASE_URL: env.DATABASE_URL },
      bareUrl,
    );
    server = await startServer(serverEnv, `${base}/api/health`);
    const headers = await signIn(base);
    await warm(bareUrl);
    const anchorRuns: Result[] = [];
    const targets: [string, string, Record<string, string>, number][] = [
      ['GET /api/health', `${base}/api/health`, {}, 0.8],
      ['GET /api/Account/Details (signed in)', `${base}/api/Account/Details`, headers, 0.5],
      ['GET /api/Vehicle/List (signed in)', `${base}/api/Vehicle/List`, headers, 0.5],
      ['GET /api/Parking/Zones/Nearby (20 of 1,200)', `${base}${NEARBY}`, {}, 0.3],
    ];
    const rows: Row[] = [];
    const postgres = label === 'PostgreSQL';
    const bareAnchor = { url: bareUrl, meter: { pid: bare.child.pid, postgres } };
    for (const [target, url, h, g] of targets) {
      rows.push({
        target,
        database: label,
        ...(await paired(bareAnchor, url, h, { pid: server.child.pid, postgres }, anchorRuns)),
        anchor: 'db',
        goal: goal(g),
      });
    }
    const anchor: Row = {
      target: 'GET / (bare Fastify, one select 1)',
      database: label,
      ...medians(anchorRuns),
      anchor: 'hello',
    };
    if (process.env.BENCH_SIGN_IN !== 'false') {
      rows.push({
        target: `POST /token password (argon2id; -c ${SIGN_IN_CONNECTIONS})`,
        database: label,
        ...(await measureSignIn(base)),
      });
    }
    return [anchor, ...rows];
  } finally {
    if (server) await stop(server);
    if (bare) await stop(bare);
  }
}

async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** One statement on the PostgreSQL server's admin database (CREATE/DROP DATABASE). */
export function admin(statement: string): Promise<void> {
  return asAdmin(PG_ADMIN_URL, statement);
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

export async function runHttpBench(): Promise<void> {
  const rows: Row[] = [];
  const dataDir = mkdtempSync(join(tmpdir(), 'parkit-bench-'));
  const only = (process.env.BENCH_DATABASES ?? 'postgres,pglite').split(',');
  console.log(
    `http: autocannon -c ${CONNECTIONS} after a 1 s warm-up; the ParkIt rows in ${ROUNDS} turns of ${TURN_SECONDS} s with the bare DB route (ratio: median of the turns, lowest-highest in brackets), the others ${SECONDS} s; load average ${load()}`,
  );
  try {
    let hello: Started | undefined;
    try {
      hello = await startNode(
        'bench/hello-world.ts',
        { ...process.env, PORT: String(PORT_BASE) },
        `http://127.0.0.1:${PORT_BASE}/`,
      );
      rows.push({
        target: 'GET / (bare Fastify hello-world)',
        database: '-',
        ...(await measure(`http://127.0.0.1:${PORT_BASE}/`, { pid: hello.child.pid, postgres: false })),
      });
    } finally {
      if (hello) await stop(hello);
    }

    if (only.includes('postgres')) {
      if (await postgresReachable()) {
        const name = `parkit_bench_${randomBytes(4).toString('hex')}`;
        const url = new URL(PG_ADMIN_URL);
        url.pathname = `/${name}`;
        console.log(`http: PostgreSQL (database ${name}, dropped after)…`);
        await admin(`CREATE DATABASE ${name}`);
        try {
          rows.push(
            ...(await benchDatabase(
              'PostgreSQL',
              { bare: PORT_BASE + 3, server: PORT_BASE + 2 },
              { DATABASE_URL: url.toString() },
              join(dataDir, 'pg'),
            )),
          );
        } finally {
          await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        }
      } else {
        console.log(`http: PostgreSQL not reachable at ${new URL(PG_ADMIN_URL).host}: its rows are skipped`);
      }
    }

    if (only.includes('pglite')) {
      console.log('http: PGlite (temporary data folder)…');
      rows.push(
        ...(await benchDatabase('PGlite', { bare: PORT_BASE + 4, server: PORT_BASE + 1 }, {}, join(dataDir, 'pglite'))),
      );
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }

  const hello = rows[0]!.rps;
  const anchorOf = (r: Row) => rows.find((a) => a.database === r.database && a.anchor === 'hello');
  printTable(
    `http: req/s and p99 at -c ${CONNECTIONS} (medians of the turns); the ratio to the bare route with one select 1 on the same database, measured in turns with it in this run (load average at the end ${load()})`,
    rows.map((r) => {
      const anchor = r.anchor === 'db' ? anchorOf(r) : undefined;
      const ratio = r.ratio ?? (anchor ? r.rps / anchor.rps : undefined);
      const p99Goal = r.anchor === 'db' && r.database === 'PostgreSQL';
      const met =
        ratio === undefined || r.goal === undefined
          ? ''
          : ratio >= r.goal && (!p99Goal || r.p99 < P99_GOAL_MS)
            ? 'met'
            : 'NOT met';
      return {
        target: r.target,
        database: r.database,
        'req/s': Math.round(r.rps),
        'p99 ms': r.p99,
        'vs hello-world': `${(r.rps / hello).toFixed(2)}x`,
        'vs bare DB route':
          ratio === undefined
            ? ''
            : `${ratio.toFixed(2)}x${r.ratioRange ? ` (${r.ratioRange.map((x) => x.toFixed(2)).join('-')})` : ''}`,
        'server CPU µs/req': r.cpuUs === null ? '' : Math.round(r.cpuUs),
        'PostgreSQL CPU µs/req': r.pgUs === null ? '' : Math.round(r.pgUs),
        goal: r.goal === undefined ? '' : `>= ${r.goal}x${p99Goal ? `, p99 < ${P99_GOAL_MS} ms` : ''}`,
        met,
        'non-2xx/errors': r.failed,
      };
    }),
  );
}
