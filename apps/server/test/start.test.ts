import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, SERVER_ROOT } from '../src/paths.ts';
// @ts-expect-error: a plain .mjs script without types
import { NODE_ARGS as BUILD_NODE_ARGS } from '../scripts/build.mjs';

const NODE_ARGS = BUILD_NODE_ARGS as string[];

// Issue 9: `npm start` (scripts/start.mjs) runs the server as JavaScript, apps/server/dist/server.js,
// and builds it first when it is missing or older than a source. Each run here builds its own
// bundle (SERVER_BUNDLE, under apps/server so that its packages resolve) and an embedded database
// in a temporary folder; the web build is skipped (the API answers without it).
const dir = join(SERVER_ROOT, 'dist', `start-test-${randomBytes(4).toString('hex')}`);
const bundle = join(dir, 'server.js');
const dataDir = mkdtempSync(join(tmpdir(), 'parkit-start-'));
const children = new Set<ReturnType<typeof spawn>>();
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as { port: number };
  await new Promise((r) => srv.close(r));
  return port;
}

interface Run {
  output: string;
  /** GET /api/health's status, or null when the process ended first. */
  health: number | null;
  code: number | null;
}

/** `node scripts/start.mjs` until /api/health answers 200 (then SIGTERM) or the process ends. */
async function start(): Promise<Run> {
  const port = await freePort();
  // The embedded database (no DATABASE_URL), whichever project runs this file.
  const { DATABASE_URL: _url, ...inherited } = process.env;
  const env = {
    ...inherited,
    SERVER_BUNDLE: bundle,
    SKIP_WEB_BUILD: 'true',
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: dataDir,
    NODE_ENV: 'development',
    LOG_LEVEL: 'warn',
    SEED_DEMO: 'false',
  };
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  let ended = false;
  void exited.then(() => (ended = true));
  let health: number | null = null;
  const deadline = Date.now() + 90_000;
  while (!ended && Date.now() < deadline) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(2_000) });
      if (res.status === 200) {
        health = 200;
        break;
      }
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  if (!ended) child.kill('SIGTERM');
  const code = await exited;
  children.delete(child);
  return { output, health, code };
}

const BUILDING = 'Building the server…';
const CREATING = 'Creating the embedded database';
/** A build and a new embedded database's first open (seconds on a loaded machine). */
const SLOW = { timeout: 120_000 };

describe('npm start (scripts/start.mjs) and the server bundle', () => {
  it('builds the bundle when it is missing, then runs it', SLOW, async () => {
    expect(existsSync(bundle)).toBe(false);
    const run = await start();
    expect(run.output).toContain(BUILDING);
    expect(run.health, run.output).toBe(200);
    expect(readFileSync(bundle, 'utf8')).toMatch(/ParkIt is running/);
    // The first start made the database in a child process (docs/scaling.md#memory-of-the-embedded-database).
    expect(run.output).toContain(CREATING);
  });

  it('builds it again when it is older than a source', SLOW, async () => {
    writeFileSync(bundle, 'console.log("the stale bundle ran");\n');
    utimesSync(bundle, new Date('2000-01-01'), new Date('2000-01-01'));
    const run = await start();
    expect(run.output).toContain(BUILDING);
    expect(run.output).not.toContain('the stale bundle ran');
    expect(run.health, run.output).toBe(200);
    // The database the first start made is opened as it is.
    expect(run.output).not.toContain(CREATING);
  });

  it('runs a bundle newer than every source as it is, without building, with NODE_ARGS', SLOW, async () => {
    mkdirSync(dirname(bundle), { recursive: true });
    writeFileSync(bundle, 'console.log("the fresh bundle ran with", JSON.stringify(process.execArgv));\n');
    const future = new Date(Date.now() + 3_600_000);
    utimesSync(bundle, future, future);
    const run = await start();
    expect(run.output).not.toContain(BUILDING);
    expect(run.output).toContain(`the fresh bundle ran with ${JSON.stringify(NODE_ARGS)}`);
    expect(run.code).toBe(0);
  });

  it('npm start -w apps/server runs the bundle with the same node options', () => {
    const pkg = JSON.parse(readFileSync(join(SERVER_ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts.start).toBe(`node scripts/build.mjs --stale && node ${NODE_ARGS.join(' ')} dist/server.js`);
  });
});
