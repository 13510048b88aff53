import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { testPostgres } from './test-database.ts';

const SERVER = join(dirname(fileURLToPath(import.meta.url)), '../..');
const run = promisify(execFile);

/** A command-line script's own database: PGlite in `dir`, or a new PostgreSQL database (TEST_DB=postgres). */
export async function cliDatabaseEnv(dir: string): Promise<{ env: Record<string, string>; drop: () => Promise<void> }> {
  if (process.env.TEST_DB !== 'postgres') return { env: { DATA_DIR: join(dir, 'data') }, drop: async () => {} };
  const scratch = await testPostgres('parkit_t_cli');
  return { env: { DATABASE_URL: scratch.url, DATA_DIR: join(dir, 'cli-secret') }, drop: scratch.drop };
}

/** Runs apps/server/scripts/<script> as `npm run` would, with only the given environment; never throws. */
export function runScript(script: string, env: Record<string, string>) {
  return (...args: string[]) =>
    run(process.execPath, ['--import', 'tsx', `scripts/${script}`, ...args], {
      cwd: SERVER,
      env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', LOG_LEVEL: 'silent', ...env },
    }).then(
      (r) => ({ code: 0, out: r.stdout + r.stderr }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout + e.stderr }),
    );
}
