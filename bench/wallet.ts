import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { asAdmin } from '@parkit/server/test/support/scratch-database.ts';
import { startNode, stop, type Started } from './processes.ts';
import { printTable } from './table.ts';

/**
 * POST /api/Wallet/AddMoney (sandbox provider, a fresh Idempotency-Key per request, so
 * every request charges and writes the ledger) beside GET /api/Account/Details, autocannon -c 50
 * -d 5, on PostgreSQL, in one run. The server is a child process stopped at the end; the database
 * is created for the run and dropped after.
 */
const PORT = Number(process.env.WALLET_BENCH_PORT ?? 3301);
const PG_ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const CONNECTIONS = 50;
const SECONDS = 5;
const DEMO = { username: 'demo', password: 'parkit-demo' };

type Req = { method: 'GET' | 'POST'; path: string; body?: string };

async function measure(base: string, headers: Record<string, string>, req: Req) {
  const opts: autocannon.Options = {
    url: base,
    connections: CONNECTIONS,
    duration: SECONDS,
    requests: [
      {
        method: req.method,
        path: req.path,
        ...(req.body ? { body: req.body } : {}),
        headers: { ...headers, ...(req.body ? { 'content-type': 'application/json' } : {}) },
        // Every AddMoney is a new payment: a new key each time.
        setupRequest: (r: autocannon.Request) => ({ ...r, headers: { ...r.headers, 'idempotency-key': randomUUID() } }),
      },
    ],
  };
  await autocannon({ ...opts, connections: 10, duration: 1 }); // warm-up: JIT, pools
  const r = await autocannon(opts);
  return {
    rps: r.requests.average,
    p99: r.latency.p99,
    failed: r.non2xx + r.errors + r.timeouts,
    total: r.requests.total,
  };
}

async function call(base: string, path: string, init: RequestInit): Promise<unknown> {
  const res = await fetch(`${base}${path}`, init);
  const text = await res.text();
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path} answered ${res.status}: ${text}`);
  return text ? JSON.parse(text) : null;
}

function admin(statement: string): Promise<void> {
  return asAdmin(PG_ADMIN_URL, statement, 3_000);
}

export async function runWalletBench(): Promise<void> {
  try {
    await admin('select 1');
  } catch {
    console.log(`wallet: PostgreSQL not reachable at ${new URL(PG_ADMIN_URL).host}: skipped`);
    return;
  }
  const name = `parkit_bench_w_${randomBytes(4).toString('hex')}`;
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'parkit-bench-wallet-'));
  const base = `http://127.0.0.1:${PORT}`;
  let server: Started | undefined;
  const rows: Record<string, string | number>[] = [];
  console.log(
    `wallet: PostgreSQL (database ${name}, dropped after); autocannon -c ${CONNECTIONS} -d ${SECONDS} per row after a 1 s warm-up`,
  );
  await admin(`CREATE DATABASE ${name}`);
  try {
    server = await startNode(
      'apps/server/src/server.ts',
      {
        ...process.env,
        NODE_ENV: 'development',
        HOST: '127.0.0.1',
        PORT: String(PORT),
        LOG_LEVEL: 'warn',
        SEED_DEMO: 'true',
        DEMO_ZONES: '0',
        DATA_DIR: dataDir,
        DATABASE_URL: url.toString(),
        JWT_SECRET: undefined,
        STRIPE_SECRET_KEY: undefined,
        STRIPE_PUBLISHABLE_KEY: undefined,
        WALLET_JOB_INTERVAL_MS: '0',
        // One member at 50 connections from one address: the rate limits would measure only 429s.
        API_RATE_LIMIT: '10000000',
        MONEY_RATE_LIMIT: '10000000',
        ADDRESS_RATE_LIMIT_SCALE: '1000',
      },
      `${base}/api/health`,
    );
    const token = (await call(base, '/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'password', ...DEMO }).toString(),
    })) as { access_token: string; member_id: number };
    const headers = { authorization: `Bearer ${token.access_token}`, xapikey: String(token.member_id) };
    const json = { ...headers, 'content-type': 'application/json' };
    const card = (await call(base, '/api/Sandbox/Tokens', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ Number: '4242 4242 4242 4242', ExpMonth: 12, ExpYear: 2099, Cvc: '123' }),
    })) as { Token: string };
    await call(base, '/api/PaymentMethods/Add', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ Token: card.Token, MakeDefault: true }),
    });
    const before = (await call(base, '/api/Account/Details', { headers })) as { Balance: number };

    const details = await measure(base, headers, { method: 'GET', path: '/api/Account/Details' });
    rows.push({
      target: 'GET /api/Account/Details',
      'req/s': Math.round(details.rps),
      'p99 ms': details.p99,
      'non-2xx/errors': details.failed,
    });
    const add = await measure(base, headers, {
      method: 'POST',
      path: '/api/Wallet/AddMoney',
      body: JSON.stringify({ Amount: '5.00' }),
    });
    rows.push({
      target: 'POST /api/Wallet/AddMoney (sandbox)',
      'req/s': Math.round(add.rps),
      'p99 ms': add.p99,
      'non-2xx/errors': add.failed,
    });

    // The money moved is what the 2xx answers say: ledger == balance holds under load.
    const after = (await call(base, '/api/Account/Details', { headers })) as { Balance: number };
    const credited = Math.round((after.Balance - before.Balance) * 100);
    console.log(`wallet: ${credited / 500} top-ups of 5.00 credited`);
  } finally {
    if (server) await stop(server);
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    rmSync(dataDir, { recursive: true, force: true });
  }
  printTable('wallet on PostgreSQL: req/s and p99 latency at 50 connections', rows);
}
