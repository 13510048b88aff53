// Writes the OpenAPI document the server serves at /api/docs/json to FILE (default: stdout),
// built from the routes' own schemas on an in-memory database. `npm run lint` checks it with
// redocly's recommended rules.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import app from '../src/app.ts';
import { createServer } from '../src/server-instance.ts';
import { openDatabase } from '../src/db/client.ts';

const file = process.argv[2];
const database = await openDatabase({ dataDir: 'memory://' });
const server = createServer({ LOG_LEVEL: 'silent', TRUST_PROXY: false });
await server.register(app, {
  config: {
    NODE_ENV: 'development',
    JWT_SECRET: 'openapi-export-only-secret-never-used-to-sign',
    WEB_DIST: '/nonexistent',
    MAP_TILE_URL: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
  },
  database,
  closeDatabase: true,
});
await server.ready();
const res = await server.inject({ method: 'GET', url: '/api/docs/json' });
if (res.statusCode !== 200) throw new Error(`GET /api/docs/json answered ${res.statusCode}`);
const doc = JSON.stringify(res.json(), null, 2);
await server.close();
if (file) {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, doc);
} else process.stdout.write(doc);
