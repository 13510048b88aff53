import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const running = new Set<ChildProcess>();
// Whatever happens (a throw, Ctrl-C), no server outlives the bench.
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => process.exit(130));
}

export interface Started {
  child: ChildProcess;
  /** The last lines the process printed, for error messages. */
  output: () => string;
}

/**
 * Starts `node --import tsx <script>` (never through npx: killing npx leaves the child on the
 * port) and waits until GET readyUrl answers 200, at most timeoutMs.
 */
export async function startNode(
  script: string,
  env: NodeJS.ProcessEnv,
  readyUrl: string,
  timeoutMs = 90_000,
  nodeArgs: string[] = ['--import', 'tsx'],
): Promise<Started> {
  const child = spawn(process.execPath, [...nodeArgs, script], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  const lines: string[] = [];
  const keep = (chunk: Buffer) => {
    lines.push(...chunk.toString().split('\n').filter(Boolean));
    lines.splice(0, Math.max(0, lines.length - 40));
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const started: Started = { child, output: () => lines.join('\n') };
  let exited = false;
  child.once('exit', () => {
    exited = true;
    running.delete(child);
  });

  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (exited) throw new Error(`${script} exited before it was ready:\n${started.output()}`);
    try {
      const res = await fetch(readyUrl, { signal: AbortSignal.timeout(2_000) });
      if (res.status === 200) return started;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  await stop(started);
  throw new Error(`${script} was not ready at ${readyUrl} within ${timeoutMs / 1000} s:\n${started.output()}`);
}

/** SIGTERM (the server closes its database cleanly), then SIGKILL after 10 s. */
export async function stop({ child }: Started): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
  running.delete(child);
}

let built = false;

/**
 * The ParkIt server as production runs it: the bundle apps/server/dist/server.js, built once per
 * run. BENCH_CPU_PROF=<folder>: with --cpu-prof, the profile written there when the server stops.
 * `nodeArgs` go to node before the script (e.g. an --import preload: the bundle imports packages
 * from node_modules, so a preload that patches one is seen).
 */
export async function startServer(env: NodeJS.ProcessEnv, readyUrl: string, nodeArgs: string[] = []): Promise<Started> {
  // @ts-expect-error: a plain .mjs script without types
  const build = (await import('../apps/server/scripts/build.mjs')) as {
    buildServer: () => Promise<void>;
    NODE_ARGS: string[];
  };
  if (!built) {
    await build.buildServer();
    built = true;
  }
  const prof = process.env.BENCH_CPU_PROF;
  const profArgs = prof ? ['--cpu-prof', '--cpu-prof-dir', prof] : [];
  // The node options npm start runs it with.
  // BENCH_START_TIMEOUT_MS: a loaded machine may need longer than 90 s for a first start.
  const timeout = Number(process.env.BENCH_START_TIMEOUT_MS ?? 90_000);
  return startNode('apps/server/dist/server.js', env, readyUrl, timeout, [
    ...nodeArgs,
    ...profArgs,
    ...build.NODE_ARGS,
  ]);
}
