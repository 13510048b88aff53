import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** One statement as the server's admin, on its own connection (CREATE and DROP DATABASE cannot run in a transaction). */
export async function asAdmin(adminUrl: string, statement: string, connectionTimeoutMillis?: number): Promise<void> {
  const c = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis });
  await c.connect();
  try {
    await c.query(statement);
  } finally {
    await c.end();
  }
}

/**
 * A new PostgreSQL database `<prefix>_<random hex>`, empty or a copy of a template, on the admin URL's server (tests,
 * CLI tests, benchmarks): its URL, and how to drop it (also with clients still connected).
 */
export async function scratchPostgres(
  adminUrl: string,
  prefix: string,
  /** A database to copy (nobody may be connected to it), else an empty one. */
  template?: string,
): Promise<{ name: string; url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await asAdmin(adminUrl, `CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { name, url: url.toString(), drop: () => asAdmin(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/** TEST_DATABASE_URL as vitest.config.ts sets it for the server projects, or an error that says so. */
export function testAdminUrl(value: string | undefined): string {
  if (!value)
    throw new Error(
      'TEST_DATABASE_URL is not set: run the server tests through vitest.config.ts (npm run test:server)',
    );
  return value;
}
