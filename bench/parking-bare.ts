import { readFileSync } from 'node:fs';
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { extendSql } from '@parkit/server/src/parking/extend-statement.ts';
import { startSql } from '@parkit/server/src/parking/start-statement.ts';

/**
 * The parking bench's yardsticks on the same PostgreSQL ("or the reason it cannot on 2
 * cores, with the figures that show it"):
 * - bareStarts: Start's own statement, the text the server sends (start-statement.ts renders it),
 *   straight from node-postgres with no HTTP, Fastify, drizzle, zod or auth: one autocommit
 *   statement that locks the wallet, checks the session version, spends the quote, pays, opens the
 *   session and stores the Idempotency-Key's answer. What PostgreSQL (and the cheapest Node client)
 *   can do with a Start.
 * - commitLatency: one at a time, BEGIN; INSERT; COMMIT with synchronous_commit on and off, so the
 *   share of the WAL flush (fsync) in a transaction shows.
 * - cpu: CPU time of PostgreSQL's processes serving one database (its backends) and of its
 *   background processes (WAL writer, checkpointer...), from /proc.
 */

const SENTINEL = {
  member: -424242,
  quote: '00000000-0000-4000-8000-000000424242',
  key: 'bench-key-sentinel',
  now: new Date(Date.UTC(2001, 0, 1)),
  hash: 'bench-request-hash-sentinel',
};
const NOW_TEXT = SENTINEL.now.toISOString();

/** A statement's text and a function that fills its parameters (rendered once, with sentinels). */
function template(statement: SQL): {
  text: string;
  fill: (member: number, quote: string, key: string, now: string) => unknown[];
} {
  const { sql: text, params } = new PgDialect().sqlToQuery(statement);
  return {
    text,
    fill: (member, quote, key, now) =>
      params.map((p) =>
        p === SENTINEL.member
          ? member
          : p === SENTINEL.quote
            ? quote
            : p === SENTINEL.key
              ? key
              : p === SENTINEL.hash
                ? `hash-${key}`
                : p === NOW_TEXT
                  ? now
                  : p,
      ),
  };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

export interface BareResult {
  rps: number;
  p50: number;
  p99: number;
  done: number;
  refused: number;
  /** Median of 50 Starts one at a time, before the load. */
  single: number;
  /** PostgreSQL's CPU during the load (ms): the backends of this database, and the background processes. */
  pgCpuMs: { backends: number; background: number };
  /** CPU of this (client) process during the load, ms: node-postgres's share of a Start. */
  clientCpuMs: number;
}

/** The statements the bare runs send, as the server renders them, with sentinels for each request's values. */
export const BARE_STATEMENTS = {
  // The session version is 0 for the bench's members (none has logged out or changed a password).
  start: () =>
    startSql(SENTINEL.member, SENTINEL.quote, false, SENTINEL.key, SENTINEL.now, {
      requestHash: SENTINEL.hash,
      sessionVersion: 0,
    }),
  extend: () =>
    extendSql(
      SENTINEL.member,
      {
        quoteId: SENTINEL.quote,
        confirmedOverMax: false,
        key: SENTINEL.key,
        requestHash: SENTINEL.hash,
        sessionVersion: 0,
      },
      SENTINEL.now,
    ),
};

/**
 * A route's statement (Start's or Extend's) from `connections` concurrent loops through a pool of
 * `poolSize` connections (the server's pool size), for `seconds`, each spending the next quote.
 * Also one at a time first.
 */
export async function bareStarts(
  url: string,
  dbName: string,
  next: () => { id: string; member: number },
  opts: BareOptions & { statement?: keyof typeof BARE_STATEMENTS },
): Promise<BareResult> {
  const statement = opts.statement ?? 'start';
  const start = template(BARE_STATEMENTS[statement]());
  return bareRun(
    url,
    dbName,
    () => {
      const q = next();
      return { text: start.text, values: start.fill(q.member, q.id, `bare-${q.id}`, new Date().toISOString()) };
    },
    { ...opts, name: `bench-${statement}` },
  );
}

export interface BareOptions {
  connections: number;
  poolSize: number;
  seconds: number;
  /** Named statements, parsed and planned once per connection, as the server sends them; else unnamed. */
  prepared: boolean;
}

/**
 * A statement from `connections` concurrent loops through a pool of `poolSize` connections, for
 * `seconds`, each sending the next text and values `request` gives (`name`: its name when
 * prepared); 50 one at a time first. A request whose first row has no `id` counts as refused.
 */
export async function bareRun(
  url: string,
  dbName: string,
  request: () => { text: string; values: unknown[] },
  opts: BareOptions & { name: string },
): Promise<BareResult> {
  const pool = new pg.Pool({ connectionString: url, max: opts.poolSize });
  let refused = 0;
  const one = async () => {
    const { text, values } = request();
    const res = await pool.query(opts.prepared ? { name: opts.name, text, values } : { text, values });
    if (res.rows[0]?.id == null) refused += 1;
  };
  try {
    const single: number[] = [];
    for (let i = 0; i < 50; i++) {
      const t0 = performance.now();
      await one();
      single.push(performance.now() - t0);
    }
    single.sort((a, b) => a - b);
    const backends = await pgCpu(url, dbName);
    const client = process.cpuUsage();
    const ms: number[] = [];
    const end = Date.now() + opts.seconds * 1000;
    await Promise.all(
      Array.from({ length: opts.connections }, async () => {
        while (Date.now() < end) {
          const t0 = performance.now();
          await one();
          ms.push(performance.now() - t0);
        }
      }),
    );
    const used = process.cpuUsage(client);
    const pgCpuMs = (await pgCpu(url, dbName)).minus(backends);
    ms.sort((a, b) => a - b);
    return {
      rps: ms.length / opts.seconds,
      p50: percentile(ms, 50),
      p99: percentile(ms, 99),
      done: ms.length,
      refused,
      single: percentile(single, 50),
      pgCpuMs,
      clientCpuMs: (used.user + used.system) / 1000,
    };
  } finally {
    await pool.end();
  }
}

/** One at a time (200 each), BEGIN; INSERT; COMMIT with synchronous_commit on, then off: median and p99 in ms. */
export async function commitLatency(
  url: string,
): Promise<{ on: { median: number; p99: number }; off: { median: number; p99: number } }> {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    await db.query(
      'create table if not exists bench_commit (id bigserial primary key, at timestamptz not null default now())',
    );
    const run = async (sync: 'on' | 'off') => {
      const ms: number[] = [];
      for (let i = 0; i < 200; i++) {
        const t0 = performance.now();
        await db.query('begin');
        await db.query(`set local synchronous_commit = ${sync}`);
        await db.query('insert into bench_commit default values');
        await db.query('commit');
        ms.push(performance.now() - t0);
      }
      ms.sort((a, b) => a - b);
      return { median: percentile(ms, 50), p99: percentile(ms, 99) };
    };
    return { on: await run('on'), off: await run('off') };
  } finally {
    await db.end();
  }
}

/** CPU (user + system, ms) of the processes /proc lists for these pids; a pid gone since counts 0. */
function procCpu(pids: number[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const pid of pids) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      out.set(pid, (Number(fields[11]) + Number(fields[12])) * 10);
    } catch {
      out.set(pid, 0);
    }
  }
  return out;
}

export interface PgCpu {
  /** The backends connected to the database. */
  backends: Map<number, number>;
  /** PostgreSQL's background processes (WAL writer, checkpointer, ...), shared by every database. */
  background: Map<number, number>;
  /** CPU between two readings, ms: the database's backends, and the background processes (these also serve other databases' writes). */
  minus(before: PgCpu): { backends: number; background: number; total: number };
}

/**
 * CPU used so far by PostgreSQL for one database: its backends (pg_stat_activity) and the
 * background processes. `after.minus(before)` is the CPU between two readings (a backend that
 * appeared in between counts from 0). Only on this machine's PostgreSQL (reads /proc).
 */
export async function pgCpu(url: string, dbName: string): Promise<PgCpu> {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    const rows = (
      await db.query<{ pid: number; kind: string }>(
        `select pid, case when datname = $1 and backend_type = 'client backend' then 'backend' when backend_type <> 'client backend' then 'background' else 'other' end as kind
         from pg_stat_activity where pid <> pg_backend_pid()`,
        [dbName],
      )
    ).rows;
    const backends = procCpu(rows.filter((r) => r.kind === 'backend').map((r) => r.pid));
    const background = procCpu(rows.filter((r) => r.kind === 'background').map((r) => r.pid));
    const sum = (m: Map<number, number>, before?: Map<number, number>) =>
      [...m].reduce((a, [pid, v]) => a + v - (before?.get(pid) ?? 0), 0);
    return {
      backends,
      background,
      minus: (before) => {
        const b = sum(backends, before.backends);
        const bg = sum(background, before.background);
        return { backends: b, background: bg, total: b + bg };
      },
    };
  } finally {
    await db.end();
  }
}
