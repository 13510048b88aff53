import type { Executor } from './client.ts';

/**
 * A statement of the hot path, prepared once per database (or transaction): drizzle builds its SQL
 * once and PostgreSQL keeps the plan of the named statement (issue 9).
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
    }
    return statement;
  };
}
