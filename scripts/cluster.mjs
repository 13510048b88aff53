// npm run cluster -- up|down|status|kill-primary|kill-app [n]
//
// ParkIt on a replicated PostgreSQL on this machine (docs/cluster.md), from Debian's packages:
// one etcd member, three PostgreSQL 15 instances managed by Patroni (synchronous mode, pg_rewind),
// HAProxy routing writes to the primary (Patroni's GET /primary) and reads to the replicas
// (GET /replica), and APP_PROCESSES ParkIt servers behind a second HAProxy front. Every port is on
// loopback in 7000-7999, every file under .data/cluster/ (CLUSTER_DIR). The processes outlive this
// script (detached); their ids are in .data/cluster/pids.json and `down` stops every one of them.
import { spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, openSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildServer, BUNDLE, NODE_ARGS, stale as serverStale } from '../apps/server/scripts/build.mjs';

const root = new URL('..', import.meta.url).pathname;
export const DIR = process.env.CLUSTER_DIR ?? join(root, '.data/cluster');
const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';
const APP_PROCESSES = Number(process.env.APP_PROCESSES ?? 2);

export const PORTS = {
  etcdClient: 7379,
  etcdPeer: 7380,
  /** HAProxy: the primary (writes), the replicas (reads), its statistics page. */
  write: 7500,
  read: 7501,
  stats: 7502,
  /** HAProxy in front of the app processes. */
  app: 7600,
  appProcess: (i) => 7600 + i, // 7601, 7602…
  pg: (i) => 7431 + i, // 7432, 7433, 7434
  rest: (i) => 7007 + i, // 7008, 7009, 7010
};
export const NODES = [1, 2, 3].map((i) => ({ name: `pg${i}`, pg: PORTS.pg(i), rest: PORTS.rest(i) }));
export const DATABASE = 'parkit';
export const WRITE_URL = `postgres://postgres@127.0.0.1:${PORTS.write}/${DATABASE}`;
export const READ_URL = `postgres://postgres@127.0.0.1:${PORTS.read}/${DATABASE}`;
export const APP_URL = `http://127.0.0.1:${PORTS.app}`;
/** The same secret in every app process: a token one signs, another accepts. */
export const JWT_SECRET = 'cluster-demo-secret-not-for-production-0123456789';

/**
 * The timing that decides the failover (docs/cluster.md#settings): the leader key lives `ttl`
 * seconds unless its Patroni renews it (every `loop_wait`); a dead primary is replaced within
 * about ttl + loop_wait. Patroni needs loop_wait + 2 * retry_timeout <= ttl.
 */
export const PATRONI_TIMING = { ttl: 10, loop_wait: 2, retry_timeout: 3 };

const pidsFile = join(DIR, 'pids.json');
const readPids = () => (existsSync(pidsFile) ? JSON.parse(readFileSync(pidsFile, 'utf8')) : {});
const writePids = (pids) => writeFileSync(pidsFile, JSON.stringify(pids, null, 2));
const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function postgresUser() {
  // PostgreSQL refuses to run as root: as root, Patroni and its postgres run as the postgres user.
  if (process.getuid?.() !== 0) return {};
  const r = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const g = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error('running as root needs a postgres user for PostgreSQL');
  return { uid: Number(r.stdout), gid: Number(g.stdout) };
}

function start(name, cmd, args, opts = {}) {
  mkdirSync(join(DIR, 'log'), { recursive: true });
  const log = openSync(join(DIR, 'log', `${name}.log`), 'a');
  const child = spawn(cmd, args, {
    detached: true,
    stdio: ['ignore', log, log],
    cwd: opts.cwd ?? DIR,
    env: { ...process.env, ...opts.env },
    ...(opts.uid !== undefined ? { uid: opts.uid, gid: opts.gid } : {}),
  });
  child.unref();
  const pids = readPids();
  pids[name] = child.pid;
  writePids(pids);
  return child.pid;
}

async function waitFor(what, check, timeoutMs = 60_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      if (await check()) return;
    } catch {
      // not yet
    }
    if (Date.now() > until) throw new Error(`timed out waiting for ${what} (logs in ${join(DIR, 'log')})`);
    await sleep(300);
  }
}

async function httpStatus(url, timeoutMs = 1000) {
  const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  await res.arrayBuffer();
  return res.status;
}

export async function patroniMembers() {
  for (const n of NODES) {
    try {
      const res = await fetch(`http://127.0.0.1:${n.rest}/cluster`, { signal: AbortSignal.timeout(1000) });
      if (res.ok) return (await res.json()).members ?? [];
    } catch {
      // that node's Patroni is down: ask the next
    }
  }
  return [];
}

export async function primary() {
  return (await patroniMembers()).find((m) => m.role === 'leader') ?? null;
}

function patroniConfig(node, user) {
  const data = join(DIR, node.name);
  const yaml = `scope: parkit
namespace: /parkit/
name: ${node.name}
log:
  level: INFO
restapi:
  listen: 127.0.0.1:${node.rest}
  connect_address: 127.0.0.1:${node.rest}
etcd3:
  hosts: 127.0.0.1:${PORTS.etcdClient}
bootstrap:
  dcs:
    ttl: ${PATRONI_TIMING.ttl}
    loop_wait: ${PATRONI_TIMING.loop_wait}
    retry_timeout: ${PATRONI_TIMING.retry_timeout}
    maximum_lag_on_failover: 1048576
    synchronous_mode: true
    postgresql:
      use_pg_rewind: true
      use_slots: true
      parameters:
        wal_level: replica
        hot_standby: "on"
        wal_log_hints: "on"
        max_connections: 200
        max_wal_senders: 10
        max_replication_slots: 10
        wal_keep_size: 256MB
        synchronous_commit: "on"
  initdb:
    - encoding: UTF8
    - locale: C.UTF-8
    - data-checksums
  pg_hba:
    - local all all trust
    - host replication all 127.0.0.1/32 trust
    - host all all 127.0.0.1/32 trust
postgresql:
  listen: 127.0.0.1:${node.pg}
  connect_address: 127.0.0.1:${node.pg}
  data_dir: ${data}
  bin_dir: ${PG_BIN}
  pgpass: ${join(DIR, 'run', `pgpass-${node.name}`)}
  authentication:
    replication:
      username: replicator
      password: replicator
    superuser:
      username: postgres
      password: postgres
    rewind:
      username: postgres
      password: postgres
  parameters:
    unix_socket_directories: ${join(DIR, 'run')}
    shared_buffers: 64MB
tags:
  nofailover: false
  noloadbalance: false
  clonefrom: false
  nosync: false
`;
  const file = join(DIR, `${node.name}.yml`);
  writeFileSync(file, yaml);
  if (user.uid !== undefined) chownSync(file, user.uid, user.gid);
  return file;
}

function haproxyConfig() {
  const pgServers = NODES.map((n) => `  server ${n.name} 127.0.0.1:${n.pg} maxconn 100 check port ${n.rest}`).join(
    '\n',
  );
  const apps = Array.from(
    { length: APP_PROCESSES },
    (_, i) => `  server app${i + 1} 127.0.0.1:${PORTS.appProcess(i + 1)} check`,
  ).join('\n');
  const cfg = `global
  maxconn 2000
  log stdout format raw local0 notice

defaults
  log global
  mode tcp
  retries 2
  timeout connect 2s
  timeout client 30m
  timeout server 30m
  timeout check 1s

# Writes: only the member whose Patroni answers 200 on /primary. A member that stops being the
# primary is marked down after two failed checks a second apart, and its connections are cut
# (on-marked-down shutdown-sessions), so the app's pool reconnects to the new primary.
listen postgres_write
  bind 127.0.0.1:${PORTS.write}
  option httpchk GET /primary
  http-check expect status 200
  default-server inter 1s fastinter 500ms fall 2 rise 1 on-marked-down shutdown-sessions
${pgServers}

# Reads that tolerate lag: the replicas (Patroni's /replica), round robin; the primary when none is up.
listen postgres_read
  bind 127.0.0.1:${PORTS.read}
  balance roundrobin
  option httpchk GET /replica
  http-check expect status 200
  default-server inter 1s fastinter 500ms fall 2 rise 1 on-marked-down shutdown-sessions
${pgServers}

# The app processes. The check is the process being up (/api/health answers 503 when the database
# is away, which is the database's failover, not this process's): both are kept in.
listen parkit
  bind 127.0.0.1:${PORTS.app}
  mode http
  balance roundrobin
  option redispatch
  retry-on conn-failure empty-response
  timeout client 60s
  timeout server 60s
  option httpchk
  http-check send meth GET uri /api/health ver HTTP/1.1 hdr host parkit
  http-check expect rstatus ^(200|503)$
  default-server inter 1s fastinter 500ms fall 2 rise 1
${apps}

listen stats
  bind 127.0.0.1:${PORTS.stats}
  mode http
  stats enable
  stats uri /
  stats refresh 2s
`;
  const file = join(DIR, 'haproxy.cfg');
  writeFileSync(file, cfg);
  return file;
}

function psql(port, sql, db = 'postgres') {
  return spawnSync(
    join(PG_BIN, 'psql'),
    ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', db, '-XAtqc', sql],
    {
      encoding: 'utf8',
    },
  );
}

export async function startApp(i) {
  const port = PORTS.appProcess(i);
  start(`app${i}`, process.execPath, [...NODE_ARGS, BUNDLE], {
    cwd: root,
    env: {
      NODE_ENV: 'development',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: WRITE_URL,
      // History, receipts, zone search and reports on the replicas (docs/data-access.md#reads-on-replicas).
      DATABASE_READ_URL: READ_URL,
      DATA_DIR: join(DIR, 'app'),
      JWT_SECRET,
      TRUST_PROXY: 'true',
      DEMO_ZONES: process.env.DEMO_ZONES ?? '200',
      LOG_LEVEL: process.env.APP_LOG_LEVEL ?? 'warn',
      // The load test's members and one address (the load client): no rate limit in the way.
      API_RATE_LIMIT: '10000000',
      MONEY_RATE_LIMIT: '10000000',
      ADDRESS_RATE_LIMIT_SCALE: '1000',
    },
  });
  await waitFor(
    `app${i} on ${port}`,
    async () => (await httpStatus(`http://127.0.0.1:${port}/api/health`)) === 200,
    120_000,
  );
}

export async function up() {
  const pids = readPids();
  if (Object.values(pids).some(alive)) throw new Error(`the cluster is already up (npm run cluster -- down first)`);
  const user = postgresUser();
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(join(DIR, 'run'), { recursive: true });
  mkdirSync(join(DIR, 'log'), { recursive: true });
  if (user.uid !== undefined) chownSync(join(DIR, 'run'), user.uid, user.gid);
  if (user.uid !== undefined) chownSync(DIR, user.uid, user.gid);

  console.log('etcd…');
  start('etcd', 'etcd', [
    '--name=e1',
    `--data-dir=${join(DIR, 'etcd')}`,
    `--listen-client-urls=http://127.0.0.1:${PORTS.etcdClient}`,
    `--advertise-client-urls=http://127.0.0.1:${PORTS.etcdClient}`,
    `--listen-peer-urls=http://127.0.0.1:${PORTS.etcdPeer}`,
    `--initial-advertise-peer-urls=http://127.0.0.1:${PORTS.etcdPeer}`,
    `--initial-cluster=e1=http://127.0.0.1:${PORTS.etcdPeer}`,
    '--initial-cluster-state=new',
  ]);
  await waitFor('etcd', async () => (await httpStatus(`http://127.0.0.1:${PORTS.etcdClient}/health`)) === 200);

  console.log('Patroni and PostgreSQL ×3…');
  for (const [k, node] of NODES.entries()) {
    start(node.name, 'patroni', [patroniConfig(node, user)], { ...user, env: { HOME: DIR } });
    if (k === 0) await waitFor('the first primary', async () => (await primary())?.state === 'running');
  }
  await waitFor(
    'two streaming replicas',
    async () =>
      (await patroniMembers()).filter((m) => m.role !== 'leader' && ['running', 'streaming'].includes(m.state))
        .length === 2,
    120_000,
  );

  console.log('HAProxy…');
  start('haproxy', 'haproxy', ['-W', '-db', '-f', haproxyConfig()]);
  await waitFor('HAProxy to the primary', async () => psql(PORTS.write, 'select 1').stdout.trim() === '1');
  await waitFor('a synchronous standby', async () => (await patroniMembers()).some((m) => m.role === 'sync_standby'));
  if (psql(PORTS.write, `select 1 from pg_database where datname = '${DATABASE}'`).stdout.trim() !== '1') {
    const r = psql(PORTS.write, `create database ${DATABASE}`);
    if (r.status !== 0) throw new Error(r.stderr);
  }

  if (serverStale()) {
    console.log('Building the server…');
    await buildServer();
  }
  // One after the other: the first applies the migrations and seeds the demo, the others find them.
  for (let i = 1; i <= APP_PROCESSES; i++) {
    console.log(`app${i}…`);
    await startApp(i);
  }
  await waitFor('HAProxy to the app', async () => (await httpStatus(`${APP_URL}/api/health`)) === 200);
  await status();
  console.log(
    `\nParkIt: ${APP_URL}   writes: ${WRITE_URL}   reads: ${READ_URL}   HAProxy stats: http://127.0.0.1:${PORTS.stats}/`,
  );
}

/** SIGTERM, then SIGKILL after a grace, to every process this script started and every postgres left in the data folders. */
export async function down() {
  const pids = readPids();
  // Apps first (they close their pools), then the proxy, Patroni (stops its postgres), etcd last.
  const order = [
    ...Object.keys(pids).filter((n) => n.startsWith('app')),
    'haproxy',
    ...NODES.map((n) => n.name),
    'etcd',
  ];
  for (const name of order) {
    const pid = pids[name];
    if (!pid || !alive(pid)) continue;
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // gone meanwhile
    }
    const until = Date.now() + 15_000;
    while (alive(pid) && Date.now() < until) await sleep(100);
    if (alive(pid)) process.kill(pid, 'SIGKILL');
  }
  // A postgres whose Patroni was killed (kill-primary) outlives it: stop it by its postmaster.pid.
  for (const node of NODES) {
    const pidFile = join(DIR, node.name, 'postmaster.pid');
    if (!existsSync(pidFile)) continue;
    const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
    if (pid > 0 && alive(pid)) {
      process.kill(pid, 'SIGQUIT');
      const until = Date.now() + 10_000;
      while (alive(pid) && Date.now() < until) await sleep(100);
      if (alive(pid)) process.kill(pid, 'SIGKILL');
    }
  }
  if (existsSync(pidsFile)) writePids({});
  const left = Object.entries(pids).filter(([, pid]) => alive(pid));
  if (left.length) throw new Error(`still running: ${left.map(([n, p]) => `${n} (${p})`).join(', ')}`);
  console.log('cluster down: nothing of it runs');
}

export async function lagTable() {
  const members = await patroniMembers();
  return members.map((m) => ({
    name: m.name,
    role: m.role,
    state: m.state,
    timeline: m.timeline,
    lagMB: m.lag === undefined ? '' : typeof m.lag === 'number' ? (m.lag / 1048576).toFixed(2) : m.lag,
  }));
}

export async function status() {
  const rows = await lagTable();
  if (!rows.length) console.log('no Patroni answers: the cluster is down');
  else console.table(rows);
  const pids = readPids();
  const apps = Object.keys(pids)
    .filter((n) => n.startsWith('app'))
    .map((n) => `${n}: ${alive(pids[n]) ? 'up' : 'down'} (pid ${pids[n]})`);
  if (apps.length) console.log(apps.join('   '));
  const other = ['etcd', 'haproxy'].map((n) => `${n}: ${pids[n] && alive(pids[n]) ? 'up' : 'down'}`);
  console.log(other.join('   '));
}

/** kill -9 of the primary's Patroni and of its postgres (postmaster; its children die with it). Returns the node's name. */
export async function killPrimary() {
  const leader = await primary();
  if (!leader) throw new Error('no primary to kill');
  const pids = readPids();
  const pidFile = join(DIR, leader.name, 'postmaster.pid');
  const pgPid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  process.kill(pids[leader.name], 'SIGKILL');
  // The whole machine's PostgreSQL dies at once, its backends and walsenders with the postmaster.
  // They are found while they are still the postmaster's children: once it is dead they belong to
  // init, and a backend left running holds the shared memory, so the node cannot start again
  // ("pre-existing shared memory block is still in use"). Stopped first, the postmaster forks no
  // new one meanwhile.
  process.kill(pgPid, 'SIGSTOP');
  const children = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pgPid) children.push(Number(entry));
    } catch {
      // gone
    }
  }
  process.kill(pgPid, 'SIGKILL');
  for (const pid of children) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
  console.log(
    `killed ${leader.name}: Patroni ${pids[leader.name]}, postgres ${pgPid} and its ${children.length} processes (kill -9)`,
  );
  return leader.name;
}

/** Starts the Patroni of a node again (after kill-primary): it rejoins as a replica, with pg_rewind when needed. */
export function restartNode(name) {
  const node = NODES.find((n) => n.name === name);
  if (!node) throw new Error(`no node ${name}`);
  start(node.name, 'patroni', [join(DIR, `${node.name}.yml`)], { ...postgresUser(), env: { HOME: DIR } });
}

/** kill -9 of app process i. */
export function killApp(i) {
  const pid = readPids()[`app${i}`];
  if (!pid || !alive(pid)) throw new Error(`app${i} is not running`);
  process.kill(pid, 'SIGKILL');
  console.log(`killed app${i} (pid ${pid}, kill -9)`);
}

const commands = {
  up,
  down,
  status,
  'kill-primary': killPrimary,
  'kill-app': (n) => killApp(Number(n ?? 1)),
  'restart-node': (name) => restartNode(name),
};

if (import.meta.url === `file://${process.argv[1]}`) {
  const [cmd, ...rest] = process.argv.slice(2);
  const run = commands[cmd];
  if (!run) {
    console.error('usage: npm run cluster -- up|down|status|kill-primary|kill-app [n]|restart-node <pgN>');
    process.exit(2);
  }
  Promise.resolve(run(...rest)).catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
