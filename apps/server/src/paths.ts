import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The server package's folder (apps/server), whether this code runs from src/ (tests, tsx) or
 * bundled into dist/server.js (npm start, production: scripts/build.mjs).
 */
function serverRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'drizzle', 'meta'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error(`apps/server (with drizzle/) not found above ${fileURLToPath(import.meta.url)}`);
    dir = up;
  }
  return dir;
}

export const SERVER_ROOT = serverRoot();
export const REPO_ROOT = resolve(SERVER_ROOT, '../..');
