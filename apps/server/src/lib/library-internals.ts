import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PGlite } from '@electric-sql/pglite';
import { is, SQL, type Query as BuiltQuery } from 'drizzle-orm';
import { PgDialect, type PgQueryResultHKT, type PgSession } from 'drizzle-orm/pg-core';
import helmet, { type HelmetOptions } from 'helmet';
import pg from 'pg';

/**
 * Every place the server relies on a library's internals, not its documented API, for speed: here,
 * and nowhere else. Each is kept because a bench measured it (docs/data-access.md gives the
 * figures); each assumption it makes has a test in test/library-internals.test.ts (on PGlite and on
 * PostgreSQL) that fails when a library upgrade breaks it, so the upgrade fails a test, not
 * production:
 *
 * 1. drizzle keeps a database's or transaction's session in `session` (not in its public types),
 *    and the session's prepareQuery(query, fields, name, arrayMode).execute() runs a named
 *    statement: namedQueryRows(), for queryRowsNamed (db/client.ts).
 * 2. drizzle's prepared statement on PGlite keeps its client in `client` and its SQL in
 *    `queryString`: learnPrepared(), for preparedPerDatabase (db/prepared.ts).
 * 3. drizzle's PGlite session sends every statement as client.query(text, params, options), with
 *    parsers only for the types it reads as text (TEXT_TYPES), and a transaction on the client
 *    PGlite's transaction() hands it: withNamedStatements().
 * 4. PGlite merges a query's parsers into its own on every call, prepares with SQL's PREPARE and
 *    runs with EXECUTE, and takes a `parsers` option at create: withNamedStatements(), TEXT_PARSERS.
 * 5. pg copies a query config object before it uses it, reading its properties, inherited ones
 *    included: Client (decision 002).
 * 6. helmet's middleware sets its headers with res.setHeader and res.removeHeader only, at once,
 *    reading nothing of the request: helmetHeaders(), for security.ts.
 * 7. drizzle's node-postgres database keeps its pool in `$client`: poolOf(), for notifications.ts.
 */

// 1. drizzle's session ------------------------------------------------------------------------

const dialect = new PgDialect();

/** The session drizzle keeps in a database or transaction object (`session`, outside its public types). */
export function sessionOf(db: object): PgSession<PgQueryResultHKT> {
  return (db as { session: PgSession<PgQueryResultHKT> }).session;
}

/** `query`'s text and parameters as drizzle sends them (placeholders left in: namedStatement builds once). */
export const builtQuery = (query: SQL): BuiltQuery => dialect.sqlToQuery(query);

/**
 * Runs `query` as the named statement `name` on the session of `db` (the connection, or the
 * transaction's) and answers its rows. `query` may be built already (a Query of drizzle's
 * sqlToQuery), its sql.placeholder()s filled from `values` by drizzle's prepared query.
 */
export async function namedQueryRows<T>(
  db: object,
  name: string,
  query: SQL | BuiltQuery,
  values?: Record<string, unknown>,
): Promise<T[]> {
  const built = is(query, SQL) ? dialect.sqlToQuery(query) : query;
  const res = (await sessionOf(db).prepareQuery(built, undefined, name, false).execute(values)) as {
    rows: T[];
  };
  return res.rows;
}

// 2. drizzle's prepared statement on PGlite ------------------------------------------------

/** drizzle's PGlite statement keeps its client and SQL: a client of ours (not a transaction's) learns the SQL. */
export function learnPrepared(statement: unknown): void {
  const s = statement as { client?: Partial<NamedClient>; queryString?: unknown };
  if (typeof s.queryString === 'string') s.client?.[REGISTER]?.(s.queryString);
}

// 7. drizzle's node-postgres pool ------------------------------------------------------------

/** The pg Pool behind a node-postgres drizzle database. */
export const poolOf = (db: object): pg.Pool => (db as { $client: pg.Pool }).$client;

// 3, 4. Named statements on PGlite -------------------------------------------------------------

/**
 * Named statements on PGlite. PGlite's query() parses and plans its SQL on every call,
 * in WebAssembly on the server's own thread: for the hot path's joins that is most of the cost
 * (Details: ~860 µs a call, against ~360 µs once prepared). node-postgres keeps named statements
 * per connection; PGlite's protocol path has none, so a registered statement is prepared once with
 * SQL's PREPARE and run with EXECUTE, its values written as quoted literals (node-postgres'
 * escapeLiteral; PostgreSQL converts each to its parameter's type with that type's input function,
 * exactly as a bound text parameter). Only statements registered by preparedPerDatabase() take this
 * path, only outside a transaction (a transaction has a client of its own), and only when every
 * value is a string, a finite number, a boolean or null; anything else runs as before.
 */
export const REGISTER = Symbol('register a named statement');

type Query = PGlite['query'];
type QueryOptions = Parameters<Query>[2];

/**
 * The types drizzle reads as text (timestamps, dates, intervals and their arrays): its PGlite
 * session passes a parser for each with every query. PGlite merges a query's parsers into its own
 * with an object spread on every call (~100 µs a query: issue 9), so the PGlite of openDatabase()
 * reads these types as text itself, and query() drops a query's parsers when they only say so.
 */
const TEXT_TYPES = [1082, 1114, 1184, 1186, 1115, 1182, 1185, 1187, 1231];
export const TEXT_PARSERS: Record<number, (value: string) => string> = Object.fromEntries(
  TEXT_TYPES.map((t) => [t, (value: string) => value]),
);

const plainOptions = new WeakMap<object, QueryOptions>();

/** The query's options without its parsers when each of them is one of TEXT_PARSERS' (it reads the text as it is). */
function withoutTextParsers(options: QueryOptions): QueryOptions {
  const parsers = options?.parsers;
  if (!parsers) return options;
  let plain = plainOptions.get(options);
  if (plain === undefined) {
    const onlyText = Object.entries(parsers).every(
      ([type, parse]) =>
        TEXT_TYPES.includes(Number(type)) && parse('2025-01-01 00:00:00+00') === '2025-01-01 00:00:00+00',
    );
    plain = onlyText ? { ...options, parsers: undefined } : options;
    plainOptions.set(options, plain);
  }
  return plain;
}
export type NamedClient = PGlite & { [REGISTER]: (text: string) => void };

/** A literal PostgreSQL reads as the parameter's type; undefined for a value that cannot be one. */
export function literal(v: unknown): string | undefined {
  if (v === null || v === undefined) return 'NULL';
  if (typeof v === 'string') return v.includes('\u0000') ? undefined : pg.escapeLiteral(v);
  if (typeof v === 'number') return Number.isFinite(v) ? `'${v}'` : undefined;
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  return undefined;
}

/** The client drizzle is given: PGlite itself, but query() runs registered statements by name. */
export function withNamedStatements(client: PGlite, max = 200): NamedClient {
  const query0: Query = client.query.bind(client);
  const run: Query = (text, params, options) => query0(text, params, withoutTextParsers(options));
  const names = new Map<string, string>();
  const prepared = new Map<string, Promise<boolean>>();
  const query: Query = async (text, params, options) => {
    const name = names.get(text);
    const values = name && params ? params.map(literal) : undefined;
    if (!name || !values || values.some((v) => v === undefined)) return run(text, params, options);
    let ready = prepared.get(name);
    if (!ready) {
      // Prepared once; a statement PostgreSQL cannot prepare (a parameter of no type) runs as before.
      ready = run(`PREPARE ${name} AS ${text}`).then(
        () => true,
        () => false,
      );
      prepared.set(name, ready);
    }
    if (!(await ready)) return run(text, params, options);
    return run(`EXECUTE ${name}${values.length ? `(${values.join(', ')})` : ''}`, [], options);
  };
  const register = (text: string) => {
    if (!names.has(text) && names.size < max) names.set(text, `parkit_stmt_${names.size + 1}`);
  };
  // query() may itself be wrapped from outside (a test recording statements wraps this one).
  let outer: Query = query;
  return new Proxy(client, {
    set(target, prop, value) {
      if (prop !== 'query') return Reflect.set(target, prop, value, target);
      outer = value as Query;
      return true;
    },
    get(target, prop) {
      if (prop === 'query') return outer;
      if (prop === REGISTER) return register;
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  }) as NamedClient;
}

// 5. pg's query config ---------------------------------------------------------------------------

/**
 * pg's Client, with one difference: a query given as a config object (drizzle sends its statements
 * so: name, text, rowMode and types) reaches pg as a new object that inherits that config.
 *
 * pg 8.23 copies every config object before it adds the values and the callback, so that the
 * caller's object is never changed (brianc/node-postgres#3720). It copies with
 * getOwnPropertyDescriptors and defineProperties: 1.7 µs a query alone, and about 6% of a signed-in
 * GET's server CPU in interleaved runs. An object that inherits the config has no own
 * property to copy, and pg still writes only to its copy. Remove when brianc/node-postgres#3743
 * (read the config without copying it) is released: the test "pg still copies a query config"
 * fails then.
 */
export class Client extends pg.Client {
  // `never`: pg's overloads each return their own type; this returns whatever pg's query returns.
  override query(config: unknown, ...rest: unknown[]): never {
    const inherited =
      config !== null && typeof config === 'object' && typeof (config as { submit?: unknown }).submit !== 'function'
        ? Object.create(config)
        : config;
    return (super.query as (...args: unknown[]) => never)(inherited, ...rest);
  }
}

// 6. helmet's headers ----------------------------------------------------------------------------

/** The headers helmet sets with these options, worked out once (it reads nothing from the request: no CSP functions). */
export function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader: (name: string, value: string | number | readonly string[]) =>
      void (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  // A request that throws when read: headers that depended on it would be wrong on other requests.
  const req = new Proxy(
    {},
    {
      get(_t, prop) {
        throw new Error(`helmet read the request (${String(prop)}): its headers can no longer be worked out once`);
      },
    },
  );
  let done = false;
  helmet(options)(req as IncomingMessage, res as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err instanceof Error ? err : new Error(String(err));
    done = true;
  });
  // helmet calls next at once today; a helmet that waited would leave these headers half set.
  if (!done) throw new Error('helmet did not set its headers at once');
  return headers;
}
