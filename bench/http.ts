import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { startNode, stop, type Started } from './processes.ts';
import { printTable } from './table.ts';

/**
 * Issue 2: autocannon -c 50 -d 5 against GET /api/health and an authenticated GET
 * /api/Account/Details, on PGlite and on PostgreSQL, beside a bare Fastify hello-world started in
 * the same run. Everything on loopback; every server is a child process stopped at the end.
 */
const PORT_BASE = Number(process.env.BENCH_PORT ?? 3321);
const PG_ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const CONNECTIONS = 50;
const SECONDS = 5;
const DEMO = { username: 'demo', password: 'parkit-demo' };

interface Row {
  target: string;
  database: string;
  rps: number;
  p99: number;
  failed: number;
}

async function measure(url: string, headers: Record<string, string> = {}) {
  // A first request proves the route answers 200 (a wrong token would make 401s look fast).
  const probe = await fetch(url, { headers });
  if (probe.status !== 200) throw new Error(`GET ${url} answered ${probe.status}: ${await probe.text()}`);
  await autocannon({ url, headers, connections: 10, duration: 1 }); // warm-up: JIT, pools
  const r = await autocannon({ url, headers, connections: CONNECTIONS, duration: SECONDS });
  return { rps: r.requests.average, p99: r.latency.p99, failed: r.non2xx + r.errors + r.timeouts };
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

/** The ParkIt server on one database: health and Details rows. */
async function benchServer(label: string, port: number, env: NodeJS.ProcessEnv, dataDir: string): Promise<Row[]> {
  const base = `http://127.0.0.1:${port}`;
  const serverEnv: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'development',
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: 'warn',
    SEED_DEMO: 'true',
    DEMO_ZONES: '0',
    DATA_DIR: dataDir,
    DATABASE_URL: undefined,
    JWT_SECRET: undefined,
    ...env,
  };
  let server: Started | undefined;
  try {
    server = await startNode('apps/server/src/server.ts', serverEnv, `${base}/api/health`);
    const headers = await signIn(base);
    const health = await measure(`${base}/api/health`);
    const details = await measure(`${base}/api/Account/Details`, headers);
    return [
      { target: 'GET /api/health', database: label, ...health },
      { target: 'GET /api/Account/Details (signed in)', database: label, ...details },
    ];
  } finally {
    if (server) await stop(server);
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
export async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

export async function runHttpBench(): Promise<void> {
  const rows: Row[] = [];
  const dataDir = mkdtempSync(join(tmpdir(), 'parkit-bench-'));
  try {
    console.log(`http: autocannon -c ${CONNECTIONS} -d ${SECONDS} per row (after a 1 s warm-up)`);
    let hello: Started | undefined;
    try {
      hello = await startNode('bench/hello-world.ts', { ...process.env, PORT: String(PORT_BASE) }, `http://127.0.0.1:${PORT_BASE}/`);
      rows.push({ target: 'GET / (bare Fastify hello-world)', database: '-', ...(await measure(`http://127.0.0.1:${PORT_BASE}/`)) });
    } finally {
      if (hello) await stop(hello);
    }

    console.log('http: PGlite (temporary data folder)…');
    rows.push(...(await benchServer('PGlite', PORT_BASE + 1, {}, join(dataDir, 'pglite'))));

    if (await postgresReachable()) {
      const name = `parkit_bench_${randomBytes(4).toString('hex')}`;
      const url = new URL(PG_ADMIN_URL);
      url.pathname = `/${name}`;
      console.log(`http: PostgreSQL (database ${name}, dropped after)…`);
      await admin(`CREATE DATABASE ${name}`);
      try {
        rows.push(...(await benchServer('PostgreSQL', PORT_BASE + 2, { DATABASE_URL: url.toString() }, join(dataDir, 'pg'))));
      } finally {
        await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      }
    } else {
      console.log(`http: PostgreSQL not reachable at ${new URL(PG_ADMIN_URL).host}: its rows are skipped`);
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }

  const yardstick = rows[0]!.rps;
  printTable(
    'http (issue 2): req/s, p99 latency and the ratio to a bare Fastify hello-world',
    rows.map((r) => ({
      target: r.target,
      database: r.database,
      'req/s': Math.round(r.rps),
      'p99 ms': r.p99,
      'vs hello-world': `${(r.rps / yardstick).toFixed(2)}x`,
      'non-2xx/errors': r.failed,
    })),
  );
}
