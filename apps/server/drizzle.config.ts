import { defineConfig } from 'drizzle-kit';

// Migrations are generated here and applied by the app at start (src/db/migrate.ts), on PGlite
// and on PostgreSQL alike; drizzle-kit migrate is not used (docs/architecture.md#libraries-and-their-traps).
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema/index.ts',
  out: './drizzle',
});
