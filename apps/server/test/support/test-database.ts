import { inject } from 'vitest';
import { scratchPostgres, testAdminUrl } from './scratch-database.ts';

/** The PostgreSQL server the tests make their databases on: TEST_DATABASE_URL, which vitest.config.ts sets. */
export const TEST_ADMIN_URL = testAdminUrl(process.env.TEST_DATABASE_URL);

declare module 'vitest' {
  export interface ProvidedContext {
    /** This run's tag, in the name of every database its tests make (database-leaks.ts). */
    databaseRun: string;
  }
}

/**
 * A new PostgreSQL database for a test, `<prefix>_<run>_<random hex>`: the caller drops it when it
 * is done. One left behind fails the run (database-leaks.ts).
 */
export function testPostgres(prefix: string, template?: string): ReturnType<typeof scratchPostgres> {
  return scratchPostgres(TEST_ADMIN_URL, `${prefix}_${inject('databaseRun')}`, template);
}
