import { spawnSync } from 'node:child_process';
import app, { apiDocsEnabled } from './app.ts';
import { capConnections, createServer } from './server-instance.ts';
import { loadConfig } from './config.ts';
import { embeddedDatabaseExists, openDatabase } from './db/client.ts';
import { demoCards, seedDemo } from './seeds/demo.ts';
import { adoptPresetPolicies } from './pricing/index.ts';
import { DEMO_MEMBER } from './seeds/demo-member.ts';
import { DEMO_OPERATOR_OWNER } from './seeds/demo-operator.ts';

/** Makes the instance, listens, closes gracefully on SIGINT/SIGTERM. Nothing else. */
async function main() {
  const config = loadConfig();
  const server = createServer(config);

  const open = () =>
    openDatabase({
      url: config.DATABASE_URL,
      readUrl: config.DATABASE_READ_URL,
      poolSize: config.DATABASE_POOL_SIZE,
      dataDir: config.DATA_DIR,
      onConnectionError: (err) => server.log.warn({ err }, 'database connection lost; the pool reconnects'),
    });
  // The first start of the embedded database (initdb, the migrations, the demo seed) runs in a
  // child process of this same program: PGlite's WebAssembly heap never shrinks and glibc keeps the
  // heap that seeding grew, so a server that did it itself stays about 50 MB heavier at rest; a
  // child's memory all goes back when it exits (docs/scaling.md#memory-of-the-embedded-database).
  const prepareOnly = process.env.PARKIT_PREPARE_ONLY === 'true';
  if (!prepareOnly && !config.DATABASE_URL && !embeddedDatabaseExists(config.DATA_DIR)) {
    console.log(`Creating the embedded database in ${config.DATA_DIR} (first start)…`);
    const child = spawnSync(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
      stdio: 'inherit',
      env: { ...process.env, PARKIT_PREPARE_ONLY: 'true' },
    });
    if (child.status !== 0) process.exit(child.status ?? 1);
  }
  const database = await open();
  if (config.SEED_DEMO && config.NODE_ENV !== 'production')
    await seedDemo(database.db, server.log, config.DEMO_ZONES, demoCards(config));
  // Zones still priced by their preset columns get the equal price policy (docs/pricing.md#presets).
  const adopted = await adoptPresetPolicies(database.db);
  if (adopted > 0) server.log.info({ zones: adopted }, 'gave zones the price policies of their presets');
  if (prepareOnly) {
    await database.close();
    process.exit(0);
  }
  await server.register(app, { config, database, closeDatabase: true });

  let closing = false;
  const close = (signal: string) => {
    if (closing) return;
    closing = true;
    server.log.info({ signal }, 'closing');
    server.close().then(
      () => process.exit(0),
      (err: unknown) => {
        server.log.error({ err }, 'close failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => close('SIGINT'));
  process.on('SIGTERM', () => close('SIGTERM'));

  const address = await server.listen({ port: config.PORT, host: config.HOST });
  capConnections(server.server, config);
  const url = address.replace('127.0.0.1', 'localhost');
  const where = database.driver === 'pglite' ? `embedded PGlite in ${config.DATA_DIR}` : 'PostgreSQL (DATABASE_URL)';
  console.log(`\nParkIt is running at ${url}  (database: ${where})`);
  if (config.NODE_ENV !== 'production' && config.SEED_DEMO) {
    console.log(`Demo sign-in: username "${DEMO_MEMBER.UserName}", password "${DEMO_MEMBER.Password}"`);
    console.log(
      `Operator console: username "${DEMO_OPERATOR_OWNER.UserName}", password "${DEMO_OPERATOR_OWNER.Password}" (${url}/operator)`,
    );
  }
  if (config.DEV_OUTBOX) {
    console.log(`DEV_OUTBOX is on: every code the app sends is readable at ${url}/api/Dev/Outbox`);
    console.log(
      `(development only: the server listens on ${config.HOST}, loopback, and refuses DEV_OUTBOX on any other address)`,
    );
  }
  if (apiDocsEnabled(config)) console.log(`API docs: ${url}/api/docs`);
  console.log('');
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
