// npm run dev: the API on PORT (default 3000) and Vite with hot reload on 5173, proxied to it.
import { spawn } from 'node:child_process';

const root = new URL('..', import.meta.url).pathname;
const port = process.env.PORT ?? '3000';
// npm run dev is development (a generated secret, demo data, the outbox of codes on loopback).
const env = {
  NODE_ENV: 'development',
  DEV_OUTBOX: 'true',
  ...process.env,
  PORT: port,
  API_URL: `http://127.0.0.1:${port}`,
};
const procs = [
  spawn(process.execPath, ['--import', 'tsx', '--watch', 'apps/server/src/server.ts'], {
    cwd: root,
    stdio: 'inherit',
    env,
  }),
  spawn('npm', ['run', 'dev', '-w', 'apps/web'], { cwd: root, stdio: 'inherit', env }),
];
const stop = (sig) => procs.forEach((p) => p.kill(sig));
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
procs.forEach((p) =>
  p.on('exit', (code) => {
    stop('SIGTERM');
    process.exitCode = code ?? 0;
  }),
);
