/**
 * Enforcement bench (docs/benchmarks.md): "plate checks stay fast", p99 <= 10 ms for a check with
 * 1,000,000 sessions and 100,000 permits in the database (bench/enforcement-seed.ts), beside the
 * bare route making one `select 1` (bench/bare-db.ts) on the same database, in one run.
 *
 * Two plate checks, as production asks them, both with the goal:
 * - the officer's page (a signed-in member with the role officer, docs/enforcement.md): online,
 *   Check asks `GET /api/Operator/{id}/Check?zoneId=…&plate=…&state=…`, one zone (by id), one
 *   plate, audited under the officer (issue 30: before, every check downloaded the beat's rights).
 * - the plate check with an operator's key (`GET /api/Enforcement/Check`, the /enforcement page of
 *   anyone not staff, and the operators' own devices): one zone (by number), one plate, audited.
 *   Keys rotate over KEYS keys (a key may check 60 plates a minute, routes/scopes.ts KEY_LIMIT;
 *   one connection checks thousands a minute).
 * Both rotate over the same plate mix: a live session's, a permit's, a visitor day's and plates
 * with no right, each answered once by both before the timing to prove the mix is what it says.
 *
 * And a row without the goal: the officer's page's background sync of its download, `GET
 * /api/Operator/{id}/Rights?zones=…` (beside the proof keys and the violations, which do not
 * touch the data), at most once in 5 minutes per officer. The officers here each carry a beat of
 * BEAT zones; the requests rotate over the operator's beats.
 *
 * Each target runs ROUNDS turns of TURN_SECONDS at CONNECTIONS connections, in turns with the bare
 * route, twice: as fast as it goes (the machine saturated, so the latency is mostly the queue's),
 * then on one connection (a check's own latency); each table prints the medians of the turns (max:
 * the largest of any turn). Env: ENFORCEMENT_BENCH_CONNECTIONS (10), _ROUNDS (3), _TURN_SECONDS
 * (4), _BEAT (10), _PORT (3341, and the next one), and the seed's (enforcement-seed.ts). Run
 * alone: `npm run bench -- enforcement`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import { ENFORCEMENT_KEY_HEADER, type EnforcementAnswer, type RightsDownload } from '@parkit/contract';
import { queryRows, type Db } from '@parkit/server/src/db/client.ts';
import { createKey } from '@parkit/server/src/enforcement/api-key-repository.ts';
import { hashPassword } from '@parkit/server/src/auth/passwords.ts';
import { defaultPoolSize } from '@parkit/server/src/config.ts';
import { perRequest, postgresCpu, processCpu } from './cpu.ts';
import { benchDatabase, PERMITS, SESSIONS } from './enforcement-seed.ts';
import { startNode, startServer, stop, type Started } from './processes.ts';
import { printTable } from './table.ts';

const PORT = Number(process.env.ENFORCEMENT_BENCH_PORT ?? 3341);
const CONNECTIONS = Number(process.env.ENFORCEMENT_BENCH_CONNECTIONS ?? 10);
const ROUNDS = Number(process.env.ENFORCEMENT_BENCH_ROUNDS ?? 3);
const TURN_SECONDS = Number(process.env.ENFORCEMENT_BENCH_TURN_SECONDS ?? 4);
const BEAT = Number(process.env.ENFORCEMENT_BENCH_BEAT ?? 10);
/** The server's pool, as it sizes it (DATABASE_POOL_SIZE, else its default: docs/operations.md#the-connection-pool). */
const POOL_SIZE = Number(process.env.DATABASE_POOL_SIZE ?? defaultPoolSize());
const KEYS = 2000;
const RECONNECT = 500;
const GOAL_P99_MS = 10;
const OFFICER = { username: 'bench_officer', password: 'bench-officer-1' };
/** Of every 20 checks: 8 live sessions, 5 permits, 2 visitor days, 5 plates with no right. */
const MIX = { session: 8, permit: 5, 'visitor-day': 2, none: 5 } as const;
type Kind = keyof typeof MIX;

interface Check {
  kind: Kind;
  zone: string;
  zoneId: number;
  plate: string;
  state: string;
}

/** The plates an officer of operator `op` checks (see MIX), from the data as it is now. */
async function plateMix(db: Db, op: number): Promise<Check[]> {
  const pick = (kind: Kind, query: ReturnType<typeof sql>) =>
    queryRows<{ zone: string; zoneId: number; plate: string; state: string }>(db, query).then((rows) =>
      rows.map((r) => ({ kind, zone: r.zone, zoneId: Number(r.zoneId), plate: r.plate, state: r.state })),
    );
  const n = (k: Kind) => MIX[k] * 50;
  // Sessions paid for another 10 minutes at least: still live at the end of the run.
  const sessions = await pick(
    'session',
    sql`SELECT z.zone_number AS zone, z.id AS "zoneId", s.plate, s.plate_state AS state FROM parking_sessions s JOIN zones z ON z.id = s.zone_id
        WHERE s.operator_id = ${op} AND s.status = 'active' AND s.ends_at > now() + interval '10 minutes'
        ORDER BY md5(s.id::text) LIMIT ${n('session')}`,
  );
  const permits = await pick(
    'permit',
    sql`SELECT z.zone_number AS zone, z.id AS "zoneId", p.plates[1] AS plate, 'TX' AS state FROM permits p JOIN zones z ON z.id = p.zone_ids[1]
        WHERE p.operator_id = ${op} AND p.status = 'active' AND p.valid_from <= now() AND p.valid_until > now()
        ORDER BY md5(p.id::text) LIMIT ${n('permit')}`,
  );
  const days = await pick(
    'visitor-day',
    sql`SELECT z.zone_number AS zone, z.id AS "zoneId", v.plate, 'TX' AS state FROM visitor_days v JOIN permits p ON p.id = v.permit_id
        JOIN zones z ON z.id = p.zone_ids[1] WHERE v.operator_id = ${op} AND v.day = (now() AT TIME ZONE 'America/Chicago')::date
        ORDER BY md5(v.id::text) LIMIT ${n('visitor-day')}`,
  );
  const none = await pick(
    'none',
    sql`SELECT z.zone_number AS zone, z.id AS "zoneId", 'N' || i AS plate, 'TX' AS state
        FROM generate_series(1, ${n('none')}) i
        JOIN LATERAL (SELECT id, zone_number FROM zones WHERE operator_id = ${op} ORDER BY md5(id::text || i) LIMIT 1) z ON true`,
  );
  for (const [k, rows] of [
    ['session', sessions],
    ['permit', permits],
    ['visitor-day', days],
  ] as const)
    if (rows.length === 0) throw new Error(`no ${k} to check: is the seed older than its sessions?`);
  // Interleaved in MIX's proportions, so that any stretch of the rotation holds every kind.
  const lists = { session: sessions, permit: permits, 'visitor-day': days, none };
  const out: Check[] = [];
  for (let i = 0; out.length < 1000; i++)
    for (const k of Object.keys(MIX) as Kind[])
      for (let j = 0; j < MIX[k]; j++) out.push(lists[k][(i * MIX[k] + j) % lists[k].length]!);
  return out;
}

interface Turn {
  rps: number;
  p50: number;
  p97: number;
  p99: number;
  max: number;
  failed: number;
  /** The answers that were not 2xx, by status. */
  statuses: Record<string, number>;
  /** CPU per request, in microseconds, of the target's server process and of PostgreSQL (all its processes), or null. */
  cpuUs: number | null;
  pgUs: number | null;
}

async function turn(
  base: string,
  paths: string[],
  headers: Record<string, string>[],
  seconds: number,
  pid: number | undefined,
  connections = CONNECTIONS,
): Promise<Turn> {
  let i = 0;
  const cpu0 = processCpu(pid);
  const pg0 = postgresCpu();
  const r = await autocannon({
    url: base,
    connections,
    duration: seconds,
    // A new connection every RECONNECT requests: the server answers a socket's requests past its
    // maxRequestsPerSocket (1000, server-instance.ts) with 503, which one connection at 3,000
    // checks a second reached in a turn.
    reconnectRate: RECONNECT,
    requests: [
      {
        method: 'GET',
        setupRequest: (req) => {
          const n = i++;
          return { ...req, path: paths[n % paths.length]!, headers: headers[n % headers.length]! };
        },
      },
    ],
  });
  const cpuUs = perRequest(cpu0, processCpu(pid), r.requests.total);
  const pgUs = perRequest(pg0, postgresCpu(), r.requests.total);
  return {
    cpuUs,
    pgUs,
    rps: r.requests.average,
    p50: r.latency.p50,
    p97: r.latency.p97_5,
    p99: r.latency.p99,
    max: r.latency.max,
    failed: r.non2xx + r.errors + r.timeouts,
    statuses: Object.fromEntries(
      Object.entries(r.statusCodeStats as Record<string, { count: number }>)
        .filter(([code]) => !code.startsWith('2'))
        .map(([code, v]) => [code, v.count]),
    ),
  };
}

/** How many failed, and the statuses of the answers that were not 2xx (e.g. `12 (429: 12)`). */
function failedOf(turns: Turn[]): string {
  const n = turns.reduce((sum, x) => sum + x.failed, 0);
  const byStatus = new Map<string, number>();
  for (const t of turns)
    for (const [code, c] of Object.entries(t.statuses)) byStatus.set(code, (byStatus.get(code) ?? 0) + c);
  const codes = [...byStatus].map(([code, c]) => `${code}: ${c}`).join(', ');
  return codes ? `${n} (${codes})` : String(n);
}

/** The turns' median CPU per request, rounded; '' where /proc could not be read. */
const cpuOf = (xs: (number | null)[]) => (xs.some((x) => x === null) ? '' : Math.round(median(xs as number[])));

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

interface Target {
  name: string;
  base: string;
  paths: string[];
  headers: Record<string, string>[];
  goal: boolean;
  /** The server process that answers (its CPU per request is printed). */
  pid: number | undefined;
  turns: Turn[];
}

async function getJson<T>(url: string, headers: Record<string, string>): Promise<T> {
  const res = await fetch(url, { headers });
  if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

export async function runEnforcementBench(): Promise<void> {
  const bench = await benchDatabase();
  const { db } = bench.database;
  const dataDir = mkdtempSync(join(tmpdir(), 'parkit-bench-enforcement-'));
  let bare: Started | undefined;
  let server: Started | undefined;
  try {
    const [op] = await queryRows<{ id: number }>(db, sql`SELECT id FROM operators WHERE name = 'Bench 0'`);
    const operatorId = Number(op!.id);
    // The officer: a member with a password and the role officer (as `npm run operator:create`
    // makes an owner, then the role an invitation would give).
    const hash = await hashPassword(OFFICER.password);
    await db.execute(sql`
      WITH m AS (
        INSERT INTO members (client_id, user_name, email, phone, password_hash, phone_verified_at)
        VALUES (${operatorId}, ${OFFICER.username}, 'bench_officer@operator.parkit.invalid', '0999999999', ${hash}, now())
        ON CONFLICT DO NOTHING RETURNING id)
      INSERT INTO operator_staff (operator_id, member_id, role) SELECT ${operatorId}, id, 'officer' FROM m`);
    const keys: string[] = [];
    for (let i = 0; i < KEYS; i++) keys.push((await createKey(db, operatorId, `bench ${i}`)).key);
    const mix = await plateMix(db, operatorId);
    const zoneIds = (
      await queryRows<{ id: number }>(db, sql`SELECT id FROM zones WHERE operator_id = ${operatorId} ORDER BY id`)
    ).map((z) => Number(z.id));
    const beats: string[] = [];
    for (let i = 0; i + BEAT <= zoneIds.length; i += BEAT)
      beats.push(`/api/Operator/${operatorId}/Rights?zones=${zoneIds.slice(i, i + BEAT).join(',')}`);
    const [counts] = await queryRows<{ sessions: number; live: number; permits: number; days: number }>(
      db,
      sql`SELECT (SELECT count(*) FROM parking_sessions) AS sessions,
                 (SELECT count(*) FROM parking_sessions WHERE status = 'active' AND ends_at > now()) AS live,
                 (SELECT count(*) FROM permits) AS permits,
                 (SELECT count(*) FROM visitor_days WHERE day = (now() AT TIME ZONE 'America/Chicago')::date) AS days`,
    );

    const barePort = PORT + 1;
    const bareBase = `http://127.0.0.1:${barePort}`;
    const base = `http://127.0.0.1:${PORT}`;
    bare = await startNode(
      'bench/bare-db.ts',
      { ...process.env, PORT: String(barePort), DATABASE_URL: bench.url },
      `${bareBase}/`,
    );
    server = await startServer(
      {
        ...process.env,
        NODE_ENV: 'development',
        HOST: '127.0.0.1',
        PORT: String(PORT),
        LOG_LEVEL: 'warn',
        SEED_DEMO: 'false',
        DATA_DIR: dataDir,
        DATABASE_URL: bench.url,
        JWT_SECRET: undefined,
        // One officer from one address: the member limits would answer 429s.
        API_RATE_LIMIT: '10000000',
        ADDRESS_RATE_LIMIT_SCALE: '1000',
      },
      `${base}/api/health`,
    );
    const tok = await fetch(`${base}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'password', ...OFFICER }).toString(),
    });
    if (tok.status !== 200) throw new Error(`the officer's sign-in answered ${tok.status}: ${await tok.text()}`);
    const t = (await tok.json()) as { access_token: string; member_id: number };
    const officer = { authorization: `Bearer ${t.access_token}`, xapikey: String(t.member_id) };

    const checkPath = (c: Check) =>
      `/api/Enforcement/Check?${new URLSearchParams({ zone: c.zone, plate: c.plate, state: c.state })}`;
    const officerCheckPath = (c: Check) =>
      `/api/Operator/${operatorId}/Check?${new URLSearchParams({ zoneId: String(c.zoneId), plate: c.plate, state: c.state })}`;
    const keyHeaders = keys.map((k) => ({ [ENFORCEMENT_KEY_HEADER]: k }));
    // The mix is what it says: each kind's plates answered as that kind by both checks (a
    // permit's plate may also have a live session: a right either way); a beat's download holds
    // rights.
    const answered: Record<string, number> = {};
    for (const [i, c] of mix.slice(0, 200).entries()) {
      const byKey = await getJson<EnforcementAnswer>(`${base}${checkPath(c)}`, keyHeaders[i % KEYS]!);
      const byOfficer = await getJson<EnforcementAnswer>(`${base}${officerCheckPath(c)}`, officer);
      for (const a of [byKey, byOfficer]) {
        const kind = a.Right?.Kind ?? 'none';
        const ok = c.kind === 'permit' ? kind !== 'none' : kind === c.kind;
        if (!ok) throw new Error(`${c.plate} in ${c.zone} (${c.kind}) answered ${kind}`);
      }
      const kind = byKey.Right?.Kind ?? 'none';
      answered[kind] = (answered[kind] ?? 0) + 1;
    }
    const download = await getJson<RightsDownload>(`${base}${beats[0]}`, officer);
    console.log(
      `enforcement: the mix's first 200 checks answered ${JSON.stringify(answered)}; a beat of ${BEAT} zones downloads ${download.Rights.length} rights (${Math.round(JSON.stringify(download).length / 1024)} KiB)`,
    );

    const targets: Target[] = [
      {
        name: 'GET / (bare Fastify, one select 1)',
        base: bareBase,
        paths: ['/'],
        headers: [{}],
        goal: false,
        pid: bare.child.pid,
        turns: [],
      },
      {
        name: "officer's page: GET …/Check (plate mix)",
        base,
        paths: mix.map(officerCheckPath),
        headers: [officer],
        goal: true,
        pid: server.child.pid,
        turns: [],
      },
      {
        name: 'key: GET /api/Enforcement/Check (plate mix)',
        base,
        paths: mix.map(checkPath),
        headers: keyHeaders,
        goal: true,
        pid: server.child.pid,
        turns: [],
      },
      {
        name: `officer's page, background sync: GET …/Rights (${BEAT} zones)`,
        base,
        paths: beats,
        headers: [officer],
        goal: false,
        pid: server.child.pid,
        turns: [],
      },
    ];
    for (const target of targets) await turn(target.base, target.paths, target.headers, 1, target.pid); // JIT, pools
    // The bench's concurrency (the machine saturated: its latency is mostly the queue's), then one
    // connection (a check's own latency), in one run.
    for (const connections of [...new Set([CONNECTIONS, 1])]) {
      for (const target of targets) target.turns = [];
      const how = `-c ${connections}`;
      console.log(
        `enforcement: autocannon ${how}, ${ROUNDS} turns of ${TURN_SECONDS} s per target in turns; the server's pool ${POOL_SIZE} connections; load average ${load()}`,
      );
      for (let round = 0; round < ROUNDS; round++)
        for (const target of targets)
          target.turns.push(
            await turn(target.base, target.paths, target.headers, TURN_SECONDS, target.pid, connections),
          );

      const rows = targets.map((target) => {
        const of = (f: (x: Turn) => number) => median(target.turns.map(f));
        const p99 = of((x) => x.p99);
        // A latency of failed answers (a server down answers nothing in 0 ms) meets no goal.
        const failed = target.turns.some((x) => x.failed > 0);
        return {
          target: target.name,
          'req/s': Math.round(of((x) => x.rps)),
          'p50 ms': of((x) => x.p50),
          'p97.5 ms': of((x) => x.p97),
          'p99 ms': p99,
          'p99 turns': target.turns.map((x) => x.p99).join('/'),
          'max ms': Math.max(...target.turns.map((x) => x.max)),
          goal: target.goal ? `p99 <= ${GOAL_P99_MS} ms` : '',
          met: target.goal ? (p99 <= GOAL_P99_MS && !failed ? 'met' : 'NOT met') : '',
          'non-2xx/errors': failedOf(target.turns),
          'server CPU µs/req': cpuOf(target.turns.map((x) => x.cpuUs)),
          'PostgreSQL CPU µs/req': cpuOf(target.turns.map((x) => x.pgUs)),
        };
      });
      printTable(
        `enforcement: ${Number(counts!.sessions).toLocaleString('en-US')} sessions (${Number(counts!.live).toLocaleString('en-US')} live), ${Number(counts!.permits).toLocaleString('en-US')} permits, ${counts!.days} visitor days today; ${how}, medians of ${ROUNDS} turns of ${TURN_SECONDS} s (load average at the end ${load()})` +
          (bench.loaded ? `; seeded in ${bench.loaded.total} s` : '; seed reused'),
        rows,
      );
    }
    if (targets.some((t) => t.turns.some((x) => x.failed > 0)))
      console.log(`enforcement: some answers were not 2xx; the server's last lines:\n${server.output()}`);
    if (SESSIONS !== Number(counts!.sessions) || PERMITS !== Number(counts!.permits))
      throw new Error('the database does not hold the sizes asked for');
  } finally {
    if (server) await stop(server);
    if (bare) await stop(bare);
    await bench.database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
