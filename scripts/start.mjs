// npm start: build the web app and the server (apps/server/dist/server.js, JavaScript bundled by
// esbuild) when their sources are newer than the builds, then run the server (API and app on one
// port). Signals go to the server, which closes the database cleanly.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { buildServer, BUNDLE, NODE_ARGS, stale as serverStale } from '../apps/server/scripts/build.mjs';

const root = new URL('..', import.meta.url).pathname;
const dist = join(root, 'apps/web/dist/index.html');

function newest(path) {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = st.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    max = Math.max(max, newest(join(path, entry)));
  }
  return max;
}

const sources = [
  'apps/web/src',
  'apps/web/index.html',
  'apps/web/public',
  'apps/web/vite.config.ts',
  'packages/contract/src',
];
const stale = !existsSync(dist) || sources.some((s) => newest(join(root, s)) > statSync(dist).mtimeMs);
if (stale && process.env.SKIP_WEB_BUILD !== 'true') {
  console.log('Building the web app…');
  const r = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

if (serverStale()) {
  console.log('Building the server…');
  await buildServer();
}

// The local demo: development mode (a generated secret, demo data) and the outbox of codes at
// /api/Dev/Outbox, which the server allows only on a loopback HOST (its banner says so). A
// deployment runs apps/server/dist/server.js itself (npm run build -w apps/server) and gets
// production unless it asks otherwise.
// MALLOC_ARENA_MAX: glibc's allocator keeps an arena per thread that allocated, and the threads
// that compile the embedded database's WebAssembly leave theirs mostly empty but resident; two
// arenas hold the demo about 50 MB lower at rest (docs/scaling.md#memory-of-the-embedded-database).
const env = { NODE_ENV: 'development', DEV_OUTBOX: 'true', MALLOC_ARENA_MAX: '2', ...process.env };
const server = spawn(process.execPath, [...NODE_ARGS, BUNDLE], { cwd: root, stdio: 'inherit', env });
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => server.kill(sig));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
