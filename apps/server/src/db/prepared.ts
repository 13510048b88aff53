import type { Executor } from './client.ts';
import { learnPrepared } from '../lib/library-internals.ts';

/**
 * A statement of the hot path, prepared once per database (or transaction): drizzle builds its SQL
 * once and PostgreSQL keeps the plan of the named statement; on PGlite, which has no
 * named statements on its protocol path, it is prepared with SQL's PREPARE (withNamedStatements in
 * lib/library-internals.ts).
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
      learnPrepared(statement);
    }
    return statement;
  };
}
