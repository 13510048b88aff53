import Fastify from 'fastify';
import app, { serverOptions } from './src/app.ts';
import { loadConfig } from './src/config.ts';
import { openDatabase } from './src/db/client.ts';
import { seedDemo } from './src/seeds/demo.ts';
process.env.NODE_ENV = 'development'; process.env.LOG_LEVEL = 'warn'; process.env.API_RATE_LIMIT = '10000000'; process.env.ADDRESS_RATE_LIMIT_SCALE = '1000';
const config = loadConfig();
const server = Fastify(serverOptions(config));
const database = await openDatabase({ url: process.env.DATABASE_URL, dataDir: 'memory://' } as any);
await seedDemo(database.db, server.log, 1200);
await server.register(app, { config, database, closeDatabase: true });
await server.ready();
const tok = await server.inject({ method: 'POST', url: '/token', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'grant_type=password&username=demo&password=parkit-demo' });
const b = tok.json();
const headers = { authorization: `Bearer ${b.access_token}`, xapikey: String(b.member_id) };
async function bench(name: string, url: string, h = {}) {
  for (let i = 0; i < 500; i++) await server.inject({ url, headers: h });
  const n = 3000; const c0 = process.cpuUsage(); const t = performance.now();
  // 10 in flight, like a pool
  let i = 0; await Promise.all(Array.from({ length: 10 }, async () => { while (i++ < n) { const r = await server.inject({ url, headers: h }); if (r.statusCode !== 200) throw new Error(String(r.statusCode)); } }));
  const c = process.cpuUsage(c0);
  console.log(name, 'wall µs/req', ((performance.now() - t) * 1000 / n).toFixed(0), 'cpu µs/req', ((c.user + c.system) / n).toFixed(0));
}
for (let k = 0; k < 2; k++) {
  await bench('health', '/api/health');
  await bench('details', '/api/Account/Details', headers);
  await bench('list', '/api/Vehicle/List', headers);
  await bench('nearby', '/api/Parking/Zones/Nearby?lat=30.2672&lng=-97.7431');
}
await server.close(); process.exit(0);
