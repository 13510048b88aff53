import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

/**
 * Named statements on PGlite (issue 9). PGlite's query() parses and plans its SQL on every call,
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
export const TEXT_PARSERS: Record<number, (value: string) => string> = Object.fromEntries(TEXT_TYPES.map((t) => [t, (value: string) => value]));

const plainOptions = new WeakMap<object, QueryOptions>();

/** The query's options without its parsers when each of them is one of TEXT_PARSERS' (it reads the text as it is). */
function withoutTextParsers(options: QueryOptions): QueryOptions {
  const parsers = options?.parsers;
  if (!parsers) return options;
  let plain = plainOptions.get(options);
  if (plain === undefined) {
    const onlyText = Object.entries(parsers).every(([type, parse]) => TEXT_TYPES.includes(Number(type)) && parse('2025-01-01 00:00:00+00') === '2025-01-01 00:00:00+00');
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
      ready = run(`PREPARE ${name} AS ${text}`).then(() => true, () => false);
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
