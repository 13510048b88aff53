import type { Executor } from './client.ts';
import { REGISTER, type NamedClient } from './pglite-named.ts';

/**
 * A statement of the hot path, prepared once per database (or transaction): drizzle builds its SQL
 * once and PostgreSQL keeps the plan of the named statement (issue 9); on PGlite, which has no
 * named statements on its protocol path, it is prepared with SQL's PREPARE (pglite-named.ts).
 *     const findThing = preparedPerDatabase((db) => db.select(…).where(eq(t.id, sql.placeholder('id'))).prepare('thing'));
 *     await findThing(db).execute({ id });
 */
export function preparedPerDatabase<S>(prepare: (db: Executor) => S): (db: Executor) => S {
  const statements = new WeakMap<Executor, S>();
  return (db) => {
    let statement = statements.get(db);
    if (!statement) {
      statement = prepare(db);
      statements.set(db, statement);
      registerOnPglite(statement);
    }
    return statement;
  };
}

/** drizzle's PGlite statement keeps its client and SQL: a client of ours (not a transaction's) learns the SQL. */
function registerOnPglite(statement: unknown) {
  const s = statement as { client?: Partial<NamedClient>; queryString?: unknown };
  if (typeof s.queryString === 'string') s.client?.[REGISTER]?.(s.queryString);
}
