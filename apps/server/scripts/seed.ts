// npm run db:seed: the demo operator, member, zones and the member's history, as on a first start. Idempotent.
import pino from 'pino';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';
import { demoCards, seedDemo } from '../src/seeds/demo.ts';

try {
  const config = loadConfig();
  if (config.NODE_ENV === 'production') throw new Error('the demo data is never seeded in production');
  const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR });
  try {
    await seedDemo(database.db, pino({ level: config.LOG_LEVEL }), config.DEMO_ZONES, demoCards(config));
  } finally {
    await database.close();
  }
  console.log('Demo data seeded.');
} catch (err) {
  console.error('Seeding failed:', err instanceof Error ? err.message : err);
  process.exit(1);
}
