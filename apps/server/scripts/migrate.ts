// npm run db:migrate: apply pending migrations to DATABASE_URL (or the embedded database in
// DATA_DIR) without starting the server. Exits non-zero with the database's own error.
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';

try {
  const config = loadConfig();
  const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR });
  await database.close();
  console.log(`Migrations applied (${database.driver}).`);
} catch (err) {
  console.error('Migration failed:', err instanceof Error ? err.message : err);
  process.exit(1);
}
