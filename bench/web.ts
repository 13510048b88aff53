import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import lighthouse from 'lighthouse';
import { REPO_ROOT, startServer, stop, type Started } from './processes.ts';
import { printTable } from './table.ts';

/**
 * The first screen: the production build of the app and a bare React + React Router
 * page (bench/web-bare), both built in this run by the same Vite and served by the real server as
 * production runs it (its bundle, in production mode), each loaded cold by Lighthouse (mobile:
 * simulated slow 4G and a 4x slower CPU) in Debian's Chromium (CHROME_PATH). A page's JavaScript
 * is every script it fetched, measured as gzip -9 of the file (the .gz the build ships), the same
 * for both pages.
 */
const PORT_BASE = Number(process.env.BENCH_PORT ?? 3321) + 40;
const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';
/** Lighthouse's scores move between runs: the median of this many. */
const RUNS = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS ?? 3));
const GOALS = { jsRatio: 1.2, performance: 98, accessibility: 100, bestPractices: 100 };
/** WEB_BASELINE_DIST: another build of the app (a copy of apps/web/dist from before a change), served beside this one and measured in the same run. */
const BASELINE_DIST = process.env.WEB_BASELINE_DIST;
/**
 * The screens a driver meets before signing in, /parkit first (the JavaScript goal is its): each
 * is held to the same scores. /otp as the registration opens it.
 */
const FIRST_SCREENS = ['/parkit', '/homepage', '/login', '/register', '/otp?phone=5125550199&purpose=register'];
/** LIGHTHOUSE_DIR: each Lighthouse report is written there as JSON, to read what costs the score. */
const REPORT_DIR = process.env.LIGHTHOUSE_DIR;

interface Load {
  scripts: number;
  gzipBytes: number;
  transferBytes: number;
  performance: number;
  accessibility: number;
  bestPractices: number;
  fcp: number;
  lcp: number;
  tbt: number;
  /** The lowest and highest performance score of the runs. */
  range: [number, number];
}

function build(label: string, command: string, args: string[]) {
  const started = Date.now();
  const r = spawnSync(command, args, { cwd: REPO_ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`building ${label} failed:\n${r.stdout}\n${r.stderr}`);
  console.log(`built ${label} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

async function serve(port: number, webDist: string, dataDir: string): Promise<Started> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    JWT_SECRET: randomBytes(32).toString('hex'),
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: 'warn',
    DATA_DIR: dataDir,
    WEB_DIST: webDist,
    SEED_DEMO: 'false',
    DEMO_ZONES: '0',
    JOBS_INTERVAL_MS: '0',
    WALLET_JOB_INTERVAL_MS: '0',
    // Tiles are not reachable offline; the first screens show no map.
    MAP_TILE_URL: 'http://127.0.0.1:9/{z}/{x}/{y}.png',
  };
  return startServer(env, `http://127.0.0.1:${port}/api/health`);
}

async function startChrome(port: number): Promise<ChildProcess> {
  const profile = mkdtempSync(join(tmpdir(), 'parkit-bench-chrome-'));
  const chrome = spawn(
    CHROME_PATH,
    [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--remote-debugging-port=${port}`,
      `--user-data-dir=${profile}`,
      'about:blank',
    ],
    { stdio: 'ignore' },
  );
  // Chrome's helper processes may still write to the profile for a moment after the browser exits
  // (ENOTEMPTY): retried, and a profile left in the temp folder does not fail the run.
  chrome.once('exit', () => {
    try {
      rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    } catch (err) {
      console.warn(`could not remove ${profile}: ${err instanceof Error ? err.message : String(err)}`);
    }
  });
  process.once('exit', () => chrome.kill('SIGKILL'));
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/json/version`)).ok) return chrome;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  chrome.kill('SIGKILL');
  throw new Error(`${CHROME_PATH} did not open its debugging port ${port}`);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** gzip -9 of each script the page fetched (its body as served without encoding). */
async function gzipSizes(urls: string[]): Promise<number> {
  let total = 0;
  for (const url of urls) {
    const res = await fetch(url, { headers: { 'accept-encoding': 'identity' } });
    if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}`);
    total += gzipSync(Buffer.from(await res.arrayBuffer()), { level: 9 }).length;
  }
  return total;
}

interface NetworkItem {
  url: string;
  resourceType?: string;
  transferSize?: number;
}

/** A Lighthouse run; one that could not record the load (NO_NAVSTART now and then) is tried again. */
async function lighthouseRun(url: string, chromePort: number) {
  for (let attempt = 1; ; attempt++) {
    const result = await lighthouse(url, {
      port: chromePort,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices'],
    });
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    const { runtimeError } = result.lhr;
    if (!runtimeError) return result.lhr;
    if (attempt === 3) throw new Error(`Lighthouse failed on ${url}: ${runtimeError.code} ${runtimeError.message}`);
    console.log(`Lighthouse on ${url}: ${runtimeError.code}, again`);
  }
}

type Run = Omit<Load, 'range'>;

/** One cold load of url (run i of RUNS). */
async function measure(label: string, url: string, chromePort: number, i: number): Promise<Run> {
  const lhr = await lighthouseRun(url, chromePort);
  if (REPORT_DIR) {
    mkdirSync(REPORT_DIR, { recursive: true });
    writeFileSync(
      join(REPORT_DIR, `${label.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '')}-${i + 1}.json`),
      JSON.stringify(lhr),
    );
  }
  const { categories, audits } = lhr;
  const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
  const ms = (id: string) => Math.round(audits[id]?.numericValue ?? NaN);
  const items = ((audits['network-requests']?.details as { items?: NetworkItem[] } | undefined)?.items ?? []).filter(
    (r) => r.resourceType === 'Script' && r.url.startsWith(new URL(url).origin),
  );
  return {
    scripts: items.length,
    gzipBytes: await gzipSizes(items.map((r) => r.url)),
    transferBytes: items.reduce((s, r) => s + (r.transferSize ?? 0), 0),
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    fcp: ms('first-contentful-paint'),
    lcp: ms('largest-contentful-paint'),
    tbt: ms('total-blocking-time'),
  };
}

/** A page's runs as one row: scores and timings are medians, the scripts those of the median run. */
function combine(runs: Run[]): Load {
  const scores = runs.map((r) => r.performance);
  const middle = runs.find((r) => r.performance === median(scores))!;
  return {
    ...middle,
    range: [Math.min(...scores), Math.max(...scores)],
    accessibility: median(runs.map((r) => r.accessibility)),
    bestPractices: median(runs.map((r) => r.bestPractices)),
    fcp: median(runs.map((r) => r.fcp)),
    lcp: median(runs.map((r) => r.lcp)),
    tbt: median(runs.map((r) => r.tbt)),
  };
}

const kb = (bytes: number) => Math.round(bytes / 102.4) / 10;

export async function runWebBench(): Promise<void> {
  const bareDir = join(REPO_ROOT, 'bench/web-bare');
  build('the app (npm run build -w apps/web)', 'npm', ['run', 'build', '-w', 'apps/web']);
  const vite = join(REPO_ROOT, 'node_modules/vite/bin/vite.js');
  build('the bare page (bench/web-bare)', process.execPath, [
    vite,
    'build',
    bareDir,
    '--config',
    join(bareDir, 'vite.config.ts'),
    '--logLevel',
    'error',
  ]);

  const dataDirs = [
    mkdtempSync(join(tmpdir(), 'parkit-bench-web-')),
    mkdtempSync(join(tmpdir(), 'parkit-bench-bare-')),
    mkdtempSync(join(tmpdir(), 'parkit-bench-baseline-')),
  ];
  const servers: Started[] = [];
  let chrome: ChildProcess | null = null;
  try {
    servers.push(await serve(PORT_BASE, join(REPO_ROOT, 'apps/web/dist'), dataDirs[0]!));
    servers.push(await serve(PORT_BASE + 1, join(bareDir, 'dist'), dataDirs[1]!));
    chrome = await startChrome(PORT_BASE + 2);
    if (BASELINE_DIST) servers.push(await serve(PORT_BASE + 3, BASELINE_DIST, dataDirs[2]!));
    const app = `http://127.0.0.1:${PORT_BASE}`;
    const baseline = `http://127.0.0.1:${PORT_BASE + 3}`;
    const pages: [string, string][] = [
      ['bare React + React Router', `http://127.0.0.1:${PORT_BASE + 1}/`],
      ...FIRST_SCREENS.map((path): [string, string] => [path, `${app}${path}`]),
      ...(BASELINE_DIST
        ? FIRST_SCREENS.map((path): [string, string] => [`baseline ${path}`, `${baseline}${path}`])
        : []),
    ];
    // Round robin: each page's runs spread over the run, so a burst of load elsewhere on the
    // machine does not fall on one page only.
    const runsOf: Run[][] = pages.map(() => []);
    for (let i = 0; i < RUNS; i++) {
      for (const [p, [label, url]] of pages.entries()) runsOf[p]!.push(await measure(label, url, PORT_BASE + 2, i));
    }
    const loads = runsOf.map(combine);
    const bare = loads[0]!;
    printTable(
      `web: cold load, Lighthouse mobile (median of ${RUNS}); gzip JS = gzip -9 of every script fetched`,
      pages.map(([page], i) => {
        const l = loads[i]!;
        return {
          page,
          scripts: l.scripts,
          'gzip JS KB': kb(l.gzipBytes),
          'x bare': Math.round((l.gzipBytes / bare.gzipBytes) * 100) / 100,
          'sent KB': kb(l.transferBytes),
          performance: l.performance,
          range: `${l.range[0]}-${l.range[1]}`,
          accessibility: i === 0 ? '-' : l.accessibility,
          'best practices': i === 0 ? '-' : l.bestPractices,
          'FCP ms': l.fcp,
          'LCP ms': l.lcp,
          'TBT ms': l.tbt,
        };
      }),
    );
    const parkit = loads[1]!;
    const ratio = parkit.gzipBytes / bare.gzipBytes;
    const goal = (name: string, value: number, target: string, met: boolean) => ({
      goal: name,
      value,
      target,
      met: met ? 'yes' : 'NO',
    });
    printTable('web goals', [
      goal(
        '/parkit gzip JS vs the bare page',
        Math.round(ratio * 100) / 100,
        `<= ${GOALS.jsRatio}x`,
        ratio <= GOALS.jsRatio,
      ),
      ...FIRST_SCREENS.map((page, i) => [page, loads[i + 1]!] as const).flatMap(([page, l]) => [
        goal(`${page} performance`, l.performance, `>= ${GOALS.performance}`, l.performance >= GOALS.performance),
        goal(
          `${page} accessibility`,
          l.accessibility,
          `= ${GOALS.accessibility}`,
          l.accessibility >= GOALS.accessibility,
        ),
        goal(
          `${page} best practices`,
          l.bestPractices,
          `= ${GOALS.bestPractices}`,
          l.bestPractices >= GOALS.bestPractices,
        ),
      ]),
    ]);
  } finally {
    chrome?.kill('SIGKILL');
    for (const s of servers) await stop(s);
    for (const d of dataDirs) rmSync(d, { recursive: true, force: true });
  }
}
