/** PostgreSQL's unique_violation (SQLSTATE 23505). */
const UNIQUE_VIOLATION = '23505';

/**
 * A unique index or constraint refused the row: the one test of it, for PGlite and node-postgres
 * alike (drizzle wraps the driver's error, so the code may sit on a `cause` down the chain). Code
 * that checks before it writes still catches this: a concurrent request can slip between the two.
 */
export function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause)
    if ((e as { code?: unknown }).code === UNIQUE_VIOLATION) return true;
  return false;
}
