import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { testAdminUrl } from './scratch-database.ts';

/**
 * Global setup of the server projects: gives the run a tag for its databases' names
 * (test-database.ts) and, when every file is done, fails the run if any of them is still there. A
 * database left behind is an app or a connection pool a test never closed (an afterAll registered
 * inside a test never runs); each CI run on this machine's PostgreSQL would leave it again. They are
 * dropped either way.
 */
export default function setup(project: TestProject) {
  const run = `r${randomBytes(4).toString('hex')}`;
  project.provide('databaseRun', run);
  const url = testAdminUrl(project.config.env?.TEST_DATABASE_URL);
  return async function teardown() {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ datname: string }>(
        `select datname from pg_database where datname like '%\\_' || $1 || '\\_%' order by 1`,
        [run],
      );
      const left = rows.map((r) => r.datname);
      for (const name of left) await client.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
      if (left.length > 0) {
        // Vitest reports an error thrown here and still exits 0: the exit code is set as well.
        process.exitCode = 1;
        throw new Error(
          `${project.name}: the tests left ${left.length} PostgreSQL database(s) behind (dropped now): ${left.join(', ')}. Close what a test opens in that test (buildTestApp does).`,
        );
      }
    } finally {
      await client.end();
    }
  };
}
