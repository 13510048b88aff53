import { existsSync, readFileSync, statSync } from 'node:fs';
import autocannon from 'autocannon';
import pg from 'pg';
import { pgCpu, type BareResult } from './parking-bare.ts';
import { startNode, stop, type Started } from './processes.ts';

/**
 * The parking bench's HTTP side (parking.ts): the server's port, the loads under autocannon, the
 * requests one at a time, the Starts that open Stop's sessions, the server's round-trip count, the
 * hello-world yardstick, one round trip's latency, and the table's rows.
 */
export const PORT = Number(process.env.BENCH_PORT ?? 3321) + 5;
export const CONNECTIONS = 50;
export const SECONDS = 5;
const HELLO_PORT = PORT + 1;

/** GET /api/Account/Details once with every member's token, 50 at a time: the count and the rate. */
export async function openApp(tokens: Map<number, string>): Promise<{ count: number; rps: number }> {
  const members = [...tokens.keys()];
  const t0 = performance.now();
  let i = 0;
  await Promise.all(
    Array.from({ length: 50 }, async () => {
      while (i < members.length) {
        const m = members[i++]!;
        const res = await fetch(`http://127.0.0.1:${PORT}/api/Account/Details`, {
          headers: { authorization: `Bearer ${tokens.get(m)!}`, xapikey: String(m) },
        });
        if (res.status !== 200) throw new Error(`Account/Details answered ${res.status}: ${await res.text()}`);
        await res.arrayBuffer();
      }
    }),
  );
  return { count: members.length, rps: members.length / ((performance.now() - t0) / 1000) };
}

export type Route = 'Quote' | 'Start' | 'Extend' | 'Stop';

/** One request of a load: the member who sends it, its body, and its Idempotency-Key (a money route's). */
export interface Ask {
  member: number;
  body: object;
  key?: string;
}

/** A Start or an Extend spending a quote, with its own Idempotency-Key. */
export const spending = (q: { id: string; member: number }): Ask => ({
  member: q.member,
  body: { QuoteId: q.id },
  key: `bench-${q.id}`,
});

/**
 * A route under autocannon at CONNECTIONS for `seconds` (SECONDS), each request the next `take`
 * gives: the result, the answers with `okStatus`, the requests sent, and the CPU per request of
 * the server and of PostgreSQL.
 */
export async function httpLoad(
  server: Started,
  url: string,
  dbName: string,
  route: Route,
  okStatus: number,
  take: () => Ask,
  tokens: Map<number, string>,
  seconds = SECONDS,
) {
  let ok = 0;
  let sent = 0;
  const load = (duration: number) =>
    autocannon({
      url: `http://127.0.0.1:${PORT}`,
      connections: CONNECTIONS,
      duration,
      requests: [
        {
          method: 'POST',
          path: `/api/Parking/${route}`,
          setupRequest: (req) => {
            const q = take();
            sent += 1;
            return {
              ...req,
              body: JSON.stringify(q.body),
              headers: {
                'content-type': 'application/json',
                authorization: `Bearer ${tokens.get(q.member)!}`,
                xapikey: String(q.member),
                ...(q.key ? { 'idempotency-key': q.key } : {}),
              },
            };
          },
          onResponse: (status) => {
            if (status === okStatus) ok += 1;
          },
        },
      ],
    });
  // A second of the same load first, not counted: the route's code compiled by the JIT, as in a
  // server that has run for a while (the bare runs warm up with 50 statements of their own).
  await load(1);
  await new Promise((r) => setTimeout(r, 1000));
  const warmed = ok;
  ok = 0;
  sent = 0;
  const cpuBefore = cpuMs(server.child.pid!);
  const pgBefore = await pgCpu(url, dbName);
  const generator = process.cpuUsage();
  const result = await load(seconds);
  const generated = process.cpuUsage(generator);
  // Requests still in flight when autocannon stops finish before the count.
  await new Promise((r) => setTimeout(r, 3000));
  // Every request sent (answered or still in flight when autocannon stopped counting) used CPU.
  const pgUsed = (await pgCpu(url, dbName)).minus(pgBefore);
  return {
    result,
    ok,
    warmed,
    sent,
    seconds,
    pgUsed,
    cpuPer: (cpuMs(server.child.pid!) - cpuBefore) / Math.max(1, sent),
    /** This process's CPU per request: autocannon, the load generator, on the same 2 cores. */
    generatorPer: (generated.user + generated.system) / 1000 / Math.max(1, sent),
    pgPer: pgUsed.total / Math.max(1, sent),
  };
}

/** The server's count of PostgreSQL round trips (bench/pg-round-trips.mjs, preloaded): SIGUSR2, then read its file. */
export async function roundTrips(server: Started, file: string): Promise<{ count: number; recent: string[] }> {
  const before = existsSync(file) ? statSync(file).mtimeMs : 0;
  server.child.kill('SIGUSR2');
  for (let i = 0; i < 100; i++) {
    await new Promise((r) => setTimeout(r, 50));
    if (existsSync(file) && statSync(file).mtimeMs !== before)
      return JSON.parse(readFileSync(file, 'utf8')) as { count: number; recent: string[] };
  }
  throw new Error('the server did not write its round-trip count');
}

/** Requests of a route one at a time through HTTP (Start's by default): the median and the largest, in ms. */
export async function oneAtATime(
  count: number,
  take: () => Ask,
  tokens: Map<number, string>,
  route: Route = 'Start',
  okStatus = 201,
): Promise<{ median: number; max: number }> {
  const ms: number[] = [];
  for (let i = 0; i < count; i++) {
    const q = take();
    const t0 = performance.now();
    const res = await fetch(`http://127.0.0.1:${PORT}/api/Parking/${route}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${tokens.get(q.member)!}`,
        xapikey: String(q.member),
        ...(q.key ? { 'idempotency-key': q.key } : {}),
      },
      body: JSON.stringify(q.body),
    });
    ms.push(performance.now() - t0);
    if (res.status !== okStatus) throw new Error(`${route} answered ${res.status}: ${await res.text()}`);
  }
  ms.sort((a, b) => a - b);
  return { median: ms[Math.floor(count / 2)]!, max: ms[count - 1]! };
}

/** Round trips to PostgreSQL per request of `count` requests one at a time (the server's counter). */
export async function tripsPer(
  server: Started,
  file: string,
  count: number,
  run: () => Promise<unknown>,
): Promise<number> {
  const before = await roundTrips(server, file);
  await run();
  return ((await roundTrips(server, file)).count - before.count) / count;
}

/** `count` Starts through HTTP, 50 at a time, not timed: the sessions opened (Stop's load stops them). */
export async function startMany(
  count: number,
  take: () => { id: string; member: number },
  tokens: Map<number, string>,
): Promise<{ id: number; member: number }[]> {
  const out: { id: number; member: number }[] = [];
  let left = count;
  await Promise.all(
    Array.from({ length: 50 }, async () => {
      while (left-- > 0) {
        const q = take();
        const res = await fetch(`http://127.0.0.1:${PORT}/api/Parking/Start`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            authorization: `Bearer ${tokens.get(q.member)!}`,
            xapikey: String(q.member),
            'idempotency-key': `bench-${q.id}`,
          },
          body: JSON.stringify({ QuoteId: q.id }),
        });
        if (res.status !== 201) throw new Error(`Start answered ${res.status}: ${await res.text()}`);
        out.push({ id: ((await res.json()) as { SessionId: number }).SessionId, member: q.member });
      }
    }),
  );
  return out.sort((a, b) => a.id - b.id);
}

/** CPU time (user + system) a process has used, in ms (Linux /proc; clock ticks of 10 ms). */
export function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** The table's row of a route under load (httpLoad): its rate, p99 and answers. */
export function httpRow(route: Route, l: Awaited<ReturnType<typeof httpLoad>>) {
  return {
    target: `POST /api/Parking/${route} (PostgreSQL)`,
    'req/s': Math.round(l.result.requests.average),
    'p99 ms': l.result.latency.p99,
    '201 (sessions)': `${route === 'Start' ? '' : '200: '}${l.ok} (${Math.round(l.ok / l.seconds)}/s)`,
    'non-2xx/errors': l.result.non2xx + l.result.errors + l.result.timeouts,
  };
}

/** The table's row of a bare run (parking-bare.ts). */
export function bareRow(target: string, b: BareResult) {
  return {
    target,
    'req/s': Math.round(b.rps),
    'p99 ms': Number(b.p99.toFixed(1)),
    '201 (sessions)': `${b.done - b.refused} (${Math.round((b.done - b.refused) / SECONDS)}/s)`,
    'non-2xx/errors': b.refused,
  };
}

/** PostgreSQL's CPU per Start, split: the bench database's backends, and the background processes (WAL writer, checkpointer: shared with any other database's writes). */
export const perStartOf = (cpu: { backends: number; background: number }, starts: number) =>
  `backends ${(cpu.backends / Math.max(1, starts)).toFixed(2)} ms + background ${(cpu.background / Math.max(1, starts)).toFixed(2)} ms`;

/** One round trip to PostgreSQL from here (`select 1`, 200 in a row): median and p99 in ms. */
export async function pgLatency(url: string): Promise<{ median: number; p99: number }> {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    const ms: number[] = [];
    for (let i = 0; i < 200; i++) {
      const t0 = performance.now();
      await db.query('select 1');
      ms.push(performance.now() - t0);
    }
    ms.sort((a, b) => a - b);
    return { median: ms[100]!, p99: ms[198]! };
  } finally {
    await db.end();
  }
}

/** The bare Fastify hello-world under the same load (the yardstick): its rate and p99. */
export async function hello(): Promise<{ rps: number; p99: number }> {
  let server: Started | undefined;
  try {
    server = await startNode(
      'bench/hello-world.ts',
      { ...process.env, PORT: String(HELLO_PORT) },
      `http://127.0.0.1:${HELLO_PORT}/`,
    );
    const url = `http://127.0.0.1:${HELLO_PORT}/`;
    await autocannon({ url, connections: 10, duration: 1 });
    const r = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS });
    return { rps: r.requests.average, p99: r.latency.p99 };
  } finally {
    if (server) await stop(server);
  }
}
