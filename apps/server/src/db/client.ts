import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { cube } from '@electric-sql/pglite/contrib/cube';
import { earthdistance } from '@electric-sql/pglite/contrib/earthdistance';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql, type Placeholder, type Query, type SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema/index.ts';
import { builtQuery, Client, namedQueryRows, TEXT_PARSERS, withNamedStatements } from '../lib/library-internals.ts';
import { SERVER_ROOT } from '../paths.ts';

export type Schema = typeof schema;
/** Either driver: the app is written against this, never against one of them. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** A repository function takes the database or an open transaction. */
export type Executor = Db | Tx;

export interface Database {
  db: Db;
  /**
   * Where a read that tolerates a few seconds of lag goes (docs/data-access.md#reads-on-replicas):
   * the replicas' pool when DATABASE_READ_URL is set, else the same database as `db`.
   */
  reads: Db;
  driver: 'pglite' | 'postgres';
  /**
   * One round trip (`select 1`) on the driver itself, for the health probe: no query to build, and
   * the driver's own promise (no async wrapper around it). Settles when the database has answered.
   */
  ping(): Promise<unknown>;
  close(): Promise<void>;
  /** PGlite only: its whole data directory as a tarball, which `loadDataDir` opens again (tests copy one migrated database). */
  dumpDataDir?(): Promise<Blob>;
}

const MIGRATIONS = join(SERVER_ROOT, 'drizzle');

/**
 * How the pool lives through a failover (docs/cluster.md#settings). A connection that cannot be had
 * within connectionTimeoutMillis (the database away, or every connection busy) fails the request
 * with 503 instead of holding it; TCP keepalive finds a connection whose server vanished without a
 * word (a machine lost, not a process); an idle connection is closed after idleTimeoutMillis, so a
 * pool does not keep connections to a server that left HAProxy's rotation. A connection that drops
 * is destroyed, never handed out again (node-postgres), and the next checkout connects anew
 * through HAProxy to whichever server is the primary then.
 */
export const POOL_TIMEOUTS = {
  connectionTimeoutMillis: 10_000,
  idleTimeoutMillis: 30_000,
  keepAlive: true,
  keepAliveInitialDelayMillis: 10_000,
} as const;
const PING = 'select 1';
/** The embedded database's memory settings (PostgreSQL's defaults: 128MB and 64MB). */
export const PGLITE_SETTINGS = ['shared_buffers = 16MB', 'maintenance_work_mem = 16MB'];

export interface OpenOptions {
  /** postgres://… for PostgreSQL; otherwise PGlite in dataDir ('memory://' for a throwaway one). */
  url?: string | undefined;
  /** postgres://… of the replicas (a load balancer's read port), for `reads`; PostgreSQL only. */
  readUrl?: string | undefined;
  dataDir?: string;
  poolSize?: number;
  /**
   * An idle PostgreSQL connection that drops (a database restart, a failover) is reported here;
   * the pool replaces it. Without a listener pg would crash the process.
   */
  onConnectionError?: (err: Error) => void;
  /** The migrations to apply (tests: a database as an earlier release left it); the app's by default. */
  migrationsFolder?: string;
  /** PGlite only: start from this data directory (a `dumpDataDir` tarball) instead of an empty one. */
  loadDataDir?: Blob;
}

/** Opens the database and applies every pending migration before anything uses it. */
export async function openDatabase(opts: OpenOptions): Promise<Database> {
  if (opts.url) {
    const lost =
      opts.onConnectionError ?? ((err) => process.stderr.write(`database connection lost: ${err.message}\n`));
    const pool = openPool(opts.url, opts.poolSize ?? 10, lost);
    const readPool = opts.readUrl ? openPool(opts.readUrl, opts.poolSize ?? 10, lost) : null;
    // pg parses bigint (count(*)) as string; our counts fit in a number.
    pg.types.setTypeParser(20, (v) => Number(v));
    const ping = () => pool.query(PING);
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    return migrated(
      {
        db,
        reads: readPool ? (drizzlePg(readPool, { schema }) as unknown as Db) : db,
        driver: 'postgres',
        ping,
        close: async () => {
          await Promise.all([pool.end(), readPool?.end()]);
        },
      },
      opts.migrationsFolder,
    );
  }
  if (opts.readUrl) throw new Error('DATABASE_READ_URL needs DATABASE_URL: the embedded database has no replicas');
  const dir = opts.dataDir ?? 'memory://';
  const folder = dir.startsWith('memory://') ? undefined : join(dir, 'pglite');
  if (folder) mkdirSync(dir, { recursive: true });
  const client = await PGlite.create(folder, {
    extensions: { cube, earthdistance, pg_trgm, btree_gist },
    // PGlite's PostgreSQL lives in the process's WebAssembly heap, which never shrinks: its 128 MB
    // of shared buffers and 64 MB for index builds stay resident once touched. The files are in
    // the OS's page cache anyway, so smaller buffers cost a system call, not a disk read
    // (docs/scaling.md#memory-of-the-embedded-database).
    postgresqlconf: PGLITE_SETTINGS,
    // As drizzle reads them (lib/library-internals.ts): a query need not bring its own parsers.
    parsers: TEXT_PARSERS,
    ...(opts.loadDataDir ? { loadDataDir: opts.loadDataDir } : {}),
  });
  const ping = () => client.query(PING);
  const named = withNamedStatements(client);
  const db = drizzlePglite(named, { schema }) as unknown as Db;
  return migrated(
    {
      db,
      reads: db,
      driver: 'pglite',
      ping,
      close: () => client.close(),
      dumpDataDir: () => client.dumpDataDir('none'),
    },
    opts.migrationsFolder,
  );
}

/** A pool with the failover settings, every connection's errors reported to `lost`. */
function openPool(url: string, max: number, lost: (err: Error) => void): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max, Client, ...POOL_TIMEOUTS });
  pool.on('error', lost);
  // A connection checked out (a transaction between two statements) that the server ends (a
  // failover: 57P01, or the postmaster gone) emits 'error' on its client, where the pool has no
  // listener: without this one the process would crash. The client is then unqueryable, and the
  // pool destroys it when it is released.
  pool.on('connect', (client) => client.on('error', lost));
  return pool;
}

/** Whether DATA_DIR already holds an embedded database (false before the first start). */
export function embeddedDatabaseExists(dataDir: string): boolean {
  return existsSync(join(dataDir, 'pglite', 'PG_VERSION'));
}

/** Applies the pending migrations of a folder (the app's by default), as a deploy does before the app starts. */
export async function applyMigrations(database: Database, migrationsFolder = MIGRATIONS): Promise<void> {
  if (database.driver === 'postgres') await migratePg(database.db as never, { migrationsFolder });
  else await migratePglite(database.db as never, { migrationsFolder });
}

/** Applies the pending migrations to a database just opened; a failure closes it before it is thrown. */
async function migrated(database: Database, migrationsFolder?: string): Promise<Database> {
  try {
    await applyMigrations(database, migrationsFolder);
  } catch (err) {
    await database.close();
    throw err;
  }
  return database;
}

/** Raw SQL rows on either driver (both answer `{ rows }`). */
export async function queryRows<T>(db: Executor, query: SQL): Promise<T[]> {
  const res = (await db.execute(query)) as unknown as { rows: T[] };
  return res.rows;
}

/**
 * queryRows for a hot statement whose text never changes (only its parameters), sent as a named
 * statement: PostgreSQL parses and plans it once per connection and reuses the plan, where an
 * unnamed statement is planned on every call (the parking bench: planning was more than half of
 * PostgreSQL's CPU for a Start). Works inside a transaction (drizzle's session of the
 * transaction's connection); PGlite ignores the name. `name` must be unique per text.
 */
export function queryRowsNamed<T>(db: Executor, name: string, query: SQL): Promise<T[]> {
  // Through drizzle's session, outside its public types (lib/library-internals.ts).
  return namedQueryRows<T>(db, name, query);
}

/**
 * queryRowsNamed for a statement whose SQL is built once: `build` writes it with placeholders
 * (`p('name')`, drizzle's sql.placeholder) where each call's values go, and each call fills them
 * (drizzle applies a column's encoder where a placeholder is compared with a column).
 * For a statement composed of builders, whose building drizzle repeats on every call (the plate
 * check's: ~400 µs of the server's CPU a call, docs/data-access.md). Answers a function of the
 * executor and the values.
 */
export function namedStatement<V extends Record<string, unknown>>(
  name: string,
  build: (p: (name: keyof V & string) => Placeholder, db: Executor) => SQL,
): <T>(db: Executor, values: V) => Promise<T[]> {
  // Built at the first call, with its executor for the builders (the text is the same on either driver).
  let built: Query | undefined;
  return <T>(db: Executor, values: V) =>
    namedQueryRows<T>(db, name, (built ??= builtQuery(build((n) => sql.placeholder(n), db))), values);
}
