import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { defaultPoolSize } from '@parkit/server/src/config.ts';
import { admin } from './http.ts';
import { bareRun, bareStarts, commitLatency } from './parking-bare.ts';
import { bareStops, quoteAsks } from './parking-quote-stop.ts';
import { check, prepare, prepareExtends } from './parking-seed.ts';
import {
  bareRow,
  CONNECTIONS,
  hello,
  httpLoad,
  httpRow,
  oneAtATime,
  openApp,
  perStartOf,
  pgLatency,
  PORT,
  roundTrips,
  SECONDS,
  spending,
  startMany,
  tripsPer,
  type Ask,
} from './parking-http.ts';
import { REPO_ROOT, startServer, stop, type Started } from './processes.ts';
import { printTable } from './table.ts';

/**
 * POST /api/Parking/Quote, Start, Extend and Stop, on PostgreSQL with 50 connections for 5 s each
 * (Stop: 3 s), each after a second of the same load, not counted: rate and p99, beside a bare
 * Fastify hello-world in the same run. Every Quote asks 60 minutes for a vehicle not parked; every
 * Start spends its own quote for its own vehicle (one active session per vehicle), 4,000 members x
 * 10 vehicles, interleaved so that concurrent requests mostly pay from different wallets; every
 * Extend its own quote for 15 more minutes of a running session; every Stop ends a session the
 * server started just before (not timed), once. The database is one in use: every vehicle parked
 * yesterday, with the planner's statistics taken then, and each member has opened the app (its
 * token seen) before parking. Afterwards: sessions == 201 answers, Extends and Stops in the ledger
 * == 200 answers, and every wallet's ledger sums to its balance.
 *
 * The server is the production bundle (apps/server/dist/server.js). Beside the rows, the figures
 * that say where the time goes: Starts one at a time on a cold and on a warm server, PostgreSQL
 * round trips per Start, Quote and Stop, CPU per request of the server, of PostgreSQL and of the
 * load generator, and (parking-bare.ts, parking-quote-stop.ts) the same statements sent straight
 * from node-postgres, unnamed and as named prepared statements (as the server sends them): the
 * ceiling of PostgreSQL itself doing each on this machine, each route's rate against it, and the
 * WAL flush's share of a commit.
 */
const PG_ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** The server's pool as it sizes it (docs/operations.md#the-connection-pool); the bare Starts use as many connections. */
const POOL_SIZE = Number(process.env.DATABASE_POOL_SIZE ?? defaultPoolSize());
/** Stop's load is shorter: it stops the sessions the Start load opened, each once. */
const STOP_SECONDS = 3;
/** Sessions written for each bare Stop run (more than it can stop in SECONDS). */
const BARE_STOPS = 25_000;
/** Sessions opened for Stop's load: more than it stops in 1 + STOP_SECONDS seconds at ~1,500/s. */
const STOP_SESSIONS = 7_000;
const SECRET = randomBytes(32).toString('hex');

export async function runParkingBench(): Promise<void> {
  const name = `parkit_bench_parking_${randomBytes(4).toString('hex')}`;
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'parkit-bench-parking-'));
  console.log(
    `parking: POST /api/Parking/Quote, Start, Extend and Stop, autocannon -c ${CONNECTIONS} -d ${SECONDS}, PostgreSQL database ${name} (dropped after)`,
  );
  await admin(`CREATE DATABASE ${name}`);
  let server: Started | undefined;
  const countFile = join(dataDir, 'pg-round-trips.json');
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  try {
    const yardstick = await hello();
    server = await startServer(
      // development only for the demo seed (the operator and the vehicle makes); nothing on Start's path differs.
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
        JWT_SECRET: SECRET,
        JOBS_INTERVAL_MS: '0',
        WALLET_JOB_INTERVAL_MS: '0',
        // Every request comes from one address and a few members: the limits would measure only 429s.
        API_RATE_LIMIT: '10000000',
        MONEY_RATE_LIMIT: '10000000',
        ADDRESS_RATE_LIMIT_SCALE: '1000',
        BENCH_PG_COUNT_FILE: countFile,
      },
      `http://127.0.0.1:${PORT}/api/health`,
      // The round-trip counter patches node_modules/pg, which the bundle imports (packages stay external).
      // BENCH_CPU_PROF=<dir>: startServer adds --cpu-prof (the profile is written when the server stops).
      ['--import', pathToFileURL(join(REPO_ROOT, 'bench/pg-round-trips.mjs')).href],
    );
    const { quotes, tokens } = await prepare(url.toString(), SECRET);
    let next = 0;
    const take = () => {
      if (next >= quotes.length) throw new Error('parking bench: out of quotes');
      return quotes[next++]!;
    };
    // One at a time first: the latency of a Start with no queueing, on a server that has not run one yet.
    const countBefore = await roundTrips(server, countFile);
    const cold = await oneAtATime(20, () => spending(take()), tokens);
    const countAfter = await roundTrips(server, countFile);
    const perStart = (countAfter.count - countBefore.count) / 20;
    const rtt = await pgLatency(url.toString());
    console.log(
      `one at a time, cold (the server's first 20 Starts): median ${cold.median.toFixed(1)} ms, max ${cold.max.toFixed(1)} ms`,
    );
    console.log(
      `PostgreSQL round trips per Start: ${perStart} (BEGIN/COMMIT included); one round trip (select 1) median ${rtt.median.toFixed(2)} ms, p99 ${rtt.p99.toFixed(2)} ms: ${(perStart * rtt.median).toFixed(1)} ms per Start in round trips alone`,
    );
    if (process.env.BENCH_PG_TRACE) {
      // The statements of the 20 Starts (the counter keeps the last 60), each text once with its count.
      const texts = countAfter.recent.slice(-Math.min(60, countAfter.count - countBefore.count));
      const tally = new Map<string, number>();
      for (const t of texts) tally.set(t, (tally.get(t) ?? 0) + 1);
      for (const [t, n] of tally) console.log(`${n} x ${t.slice(0, 160)}`);
    }
    // Every member opens the app first (Account/Details, as the app does at launch): in the app a
    // Start is never a token's first request (its Quote comes before it), so the load measures
    // Starts, not each token's first verification and the member's first rate-limit rows.
    const opened = await openApp(tokens);
    console.log(
      `each member opened the app first (GET /api/Account/Details with its token): ${opened.count} members, ${Math.round(opened.rps)}/s`,
    );
    // Quote: every vehicle in turn, 60 minutes in the bench zone (none is parked yet).
    const quoting = await quoteAsks(url.toString());
    let nextAsk = 0;
    // The first quotes of a zone read its row and the plans: 20 one at a time first, counting round trips.
    const tripsPerQuote = await tripsPer(server, countFile, 20, () =>
      oneAtATime(20, () => quoting.asks[nextAsk++ % quoting.asks.length]!, tokens, 'Quote', 200),
    );
    const quoteLoad = await httpLoad(
      server,
      url.toString(),
      name,
      'Quote',
      200,
      () => quoting.asks[nextAsk++ % quoting.asks.length]!,
      tokens,
    );
    const startLoad = await httpLoad(server, url.toString(), name, 'Start', 201, () => spending(take()), tokens);
    const { result, ok, cpuPer: cpuPerStart, pgPer: pgPerStart, pgUsed, sent } = startLoad;
    // One at a time again, now that the code is warm (JIT-compiled, statements planned).
    const warm = await oneAtATime(50, () => spending(take()), tokens);
    // Extend: quotes for 15 more minutes, EXTEND_ROUNDS of them per running session, each round
    // starting where the one before ends, spent round after round (a session's next quote is
    // thousands of requests after its last).
    const extendQuotes = await prepareExtends(url.toString());
    let nextExtend = 0;
    const takeExtend = () => {
      if (nextExtend >= extendQuotes.length) throw new Error('parking bench: out of extend quotes');
      return extendQuotes[nextExtend++]!;
    };
    const extendLoad = await httpLoad(
      server,
      url.toString(),
      name,
      'Extend',
      200,
      () => spending(takeExtend()),
      tokens,
    );
    // Stop: sessions opened for it now (their Starts not timed; the Extend quotes are of the
    // sessions before them, so the bare Extends below are not refused for a stopped session),
    // each stopped once, oldest first; the first 20 one at a time, counting round trips.
    const running = await startMany(STOP_SESSIONS, take, tokens);
    let nextStop = 0;
    const takeStop = (): Ask => {
      const s = running[nextStop++ % running.length]!;
      return { member: s.member, body: { SessionId: s.id } };
    };
    const tripsPerStop = await tripsPer(server, countFile, 20, () => oneAtATime(20, takeStop, tokens, 'Stop', 200));
    const stopLoad = await httpLoad(server, url.toString(), name, 'Stop', 200, takeStop, tokens, STOP_SECONDS);
    if (nextStop > running.length)
      console.log(`Stop's load ran out of sessions: ${nextStop} Stops sent for ${running.length} running sessions`);
    await stop(server);
    server = undefined;
    // The same statements without the server, then the commit alone. Quote's first, for vehicles
    // not parked now.
    const bareOpts = { connections: CONNECTIONS, poolSize: POOL_SIZE, seconds: SECONDS };
    const unparked = await quoteAsks(url.toString());
    const bareQuote = await bareRun(url.toString(), name, unparked.bare, {
      ...bareOpts,
      prepared: false,
      name: 'bench-quote',
    });
    const bareQuotePrepared = await bareRun(url.toString(), name, unparked.bare, {
      ...bareOpts,
      prepared: true,
      name: 'bench-quote',
    });
    const bare = await bareStarts(url.toString(), name, take, {
      connections: CONNECTIONS,
      poolSize: POOL_SIZE,
      seconds: SECONDS,
      prepared: false,
    });
    const barePrepared = await bareStarts(url.toString(), name, take, {
      connections: CONNECTIONS,
      poolSize: POOL_SIZE,
      seconds: SECONDS,
      prepared: true,
    });
    const bareExtend = await bareStarts(url.toString(), name, takeExtend, {
      connections: CONNECTIONS,
      poolSize: POOL_SIZE,
      seconds: SECONDS,
      prepared: false,
      statement: 'extend',
    });
    const bareExtendPrepared = await bareStarts(url.toString(), name, takeExtend, {
      connections: CONNECTIONS,
      poolSize: POOL_SIZE,
      seconds: SECONDS,
      prepared: true,
      statement: 'extend',
    });
    const stopRun = async (prepared: boolean) => {
      const stops = await bareStops(url.toString(), BARE_STOPS, prepared ? 'P' : 'U');
      let i = 0;
      return bareRun(url.toString(), name, () => stops[i++ % stops.length]!, {
        ...bareOpts,
        prepared,
        name: 'bench-stop',
      });
    };
    const bareStop = await stopRun(false);
    const bareStopPrepared = await stopRun(true);
    const commit = await commitLatency(url.toString());
    const after = await check(url.toString());
    const answered =
      ok +
      startLoad.warmed +
      70 +
      STOP_SESSIONS +
      [bare, barePrepared].reduce((a, b) => a + b.done + 50 - b.refused, 0);
    printTable('parking: Start on PostgreSQL, 50 connections, beside a bare Fastify hello-world', [
      {
        target: 'GET / (bare Fastify hello-world)',
        'req/s': Math.round(yardstick.rps),
        'p99 ms': yardstick.p99,
        '201 (sessions)': '-',
        'non-2xx/errors': '-',
      },
      httpRow('Quote', quoteLoad),
      bareRow(`Quote's SQL alone (node-postgres, pool ${POOL_SIZE})`, bareQuote),
      bareRow("Quote's SQL alone, prepared statements", bareQuotePrepared),
      httpRow('Start', startLoad),
      bareRow(`Start's SQL alone (node-postgres, pool ${POOL_SIZE})`, bare),
      bareRow("Start's SQL alone, prepared statements", barePrepared),
      httpRow('Extend', extendLoad),
      bareRow(`Extend's SQL alone (node-postgres, pool ${POOL_SIZE})`, bareExtend),
      bareRow("Extend's SQL alone, prepared statements", bareExtendPrepared),
      httpRow('Stop', stopLoad),
      bareRow(`Stop's SQL alone (node-postgres, pool ${POOL_SIZE})`, bareStop),
      bareRow("Stop's SQL alone, prepared statements", bareStopPrepared),
    ]);
    const ratio = (a: number, b: number) => (b > 0 ? (a / b).toFixed(2) : '-');
    console.log(
      `against the same statements sent bare (goal 0.8): Start ${ratio(result.requests.average, barePrepared.rps)} of the prepared rate (${ratio(result.requests.average, bare.rps)} of the unprepared); Extend ${ratio(extendLoad.result.requests.average, bareExtendPrepared.rps)} (${ratio(extendLoad.result.requests.average, bareExtend.rps)}); the server sends both as named prepared statements`,
    );
    console.log(
      `against the same statements sent bare (goal 0.8): Quote ${ratio(quoteLoad.result.requests.average, bareQuotePrepared.rps)} of the prepared rate (${ratio(quoteLoad.result.requests.average, bareQuote.rps)} of the unprepared); Stop ${ratio(stopLoad.result.requests.average, bareStopPrepared.rps)} (${ratio(stopLoad.result.requests.average, bareStop.rps)}); Stop's load ran ${STOP_SECONDS} s`,
    );
    console.log(`PostgreSQL round trips per request, one at a time: Quote ${tripsPerQuote}, Stop ${tripsPerStop}`);
    console.log(
      `CPU per request under load, server (node) + PostgreSQL + the load generator (autocannon): ${Object.entries({
        Quote: quoteLoad,
        Start: startLoad,
        Extend: extendLoad,
        Stop: stopLoad,
      })
        .map(([r, l]) => `${r} ${l.cpuPer.toFixed(2)} + ${l.pgPer.toFixed(2)} + ${l.generatorPer.toFixed(2)} ms`)
        .join(', ')}`,
    );
    console.log(
      `CPU per Extend under load: server (node) ${extendLoad.cpuPer.toFixed(2)} ms, PostgreSQL ${extendLoad.pgPer.toFixed(2)} ms; Extend's SQL alone, prepared: PostgreSQL ${perStartOf(bareExtendPrepared.pgCpuMs, bareExtendPrepared.done)}`,
    );
    console.log(
      `one at a time, warm (after the load): median ${warm.median.toFixed(1)} ms, max ${warm.max.toFixed(1)} ms; Start's SQL alone one at a time: median ${bare.single.toFixed(1)} ms`,
    );
    console.log(
      `CPU per Start under load: server (node) ${cpuPerStart.toFixed(2)} ms, PostgreSQL ${pgPerStart.toFixed(2)} ms (${perStartOf(pgUsed, sent)}); Start's SQL alone: PostgreSQL ${perStartOf(bare.pgCpuMs, bare.done)} (median ${bare.p50.toFixed(1)} ms), node-postgres ${(bare.clientCpuMs / Math.max(1, bare.done)).toFixed(2)} ms; prepared: PostgreSQL ${perStartOf(barePrepared.pgCpuMs, barePrepared.done)} (median ${barePrepared.p50.toFixed(1)} ms, one at a time ${barePrepared.single.toFixed(1)} ms)`,
    );
    console.log(
      `commit, one at a time (BEGIN; INSERT; COMMIT): synchronous_commit on median ${commit.on.median.toFixed(2)} ms (p99 ${commit.on.p99.toFixed(2)}), off median ${commit.off.median.toFixed(2)} ms (p99 ${commit.off.p99.toFixed(2)}): the WAL flush is ${(commit.on.median - commit.off.median).toFixed(2)} ms`,
    );
    console.log(
      `so one server process tops out near ${Math.round(1000 / cpuPerStart)} Starts/s on a whole core, and server + PostgreSQL near ${Math.round(2000 / (cpuPerStart + pgPerStart))} Starts/s on 2 whole cores; load average at start ${load}, at end ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')} (2 cores)`,
    );
    console.log(
      `check: ${after.sessions} sessions in the database for ${answered} Starts answered 201 or run alone (${after.sessions - answered} finished after autocannon stopped counting); wallets whose ledger differs from the balance: ${after.walletsOff}`,
    );
    const extendsAnswered =
      extendLoad.ok +
      extendLoad.warmed +
      [bareExtend, bareExtendPrepared].reduce((a, b) => a + b.done + 50 - b.refused, 0);
    console.log(
      `check: ${after.extends} Extends paid in the ledger for ${extendsAnswered} answered 200 or run alone (${after.extends - extendsAnswered} finished after autocannon stopped counting)`,
    );
    const stopsAnswered =
      stopLoad.ok +
      stopLoad.warmed +
      20 +
      [bareStop, bareStopPrepared].reduce((a, b) => a + b.done + 50 - b.refused, 0);
    console.log(
      `check: ${after.stops} Stops refunded in the ledger for ${stopsAnswered} answered 200 or run alone (${after.stops - stopsAnswered} finished after autocannon stopped counting)`,
    );
    if (
      after.sessions < answered ||
      after.walletsOff !== 0 ||
      after.extends < extendsAnswered ||
      after.stops < stopsAnswered
    )
      throw new Error('parking bench: the database does not match the answers');
  } finally {
    if (server) await stop(server);
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    rmSync(dataDir, { recursive: true, force: true });
  }
}
