import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../../../db/client.ts';

/**
 * Failures counted in a sliding window with exponential back-off (issue 8): the first `free`
 * failures cost nothing; each one after that locks the key for base·2^(n-free-1) seconds (at most
 * `maxSeconds`). A key with no failure for `windowSeconds` starts over.
 */
export interface Backoff {
  bucket: string;
  free: number;
  baseSeconds: number;
  maxSeconds: number;
  windowSeconds: number;
}

/**
 * Counts one attempt against a key before it is checked, in one statement (so concurrent attempts
 * cannot slip past the count). Returns 0 when the attempt may go ahead, else the seconds the key
 * stays locked: a locked key is not counted again, so a stranger cannot stretch the lock forever.
 * Call `forgive` when the attempt succeeds.
 */
export async function attempt(db: Executor, b: Backoff, key: string): Promise<number> {
  const stale = sql`auth_failures.last_failure_at < now() - make_interval(secs => ${b.windowSeconds})`;
  const locked = sql`(auth_failures.locked_until IS NOT NULL AND auth_failures.locked_until > now())`;
  const next = sql`(CASE WHEN ${stale} THEN 1 ELSE auth_failures.failures + 1 END)`;
  const lockFor = (n: SQL) =>
    sql`CASE WHEN ${n} > ${b.free} THEN now() + make_interval(secs => least(${b.maxSeconds}::float8, ${b.baseSeconds}::float8 * power(2, least(${n} - ${b.free} - 1, 30)))) END`;
  const rows = await queryRows<{ counted: boolean; wait: number | string | null }>(db, sql`
    INSERT INTO auth_failures (bucket, key, failures, last_failure_at, locked_until)
    VALUES (${b.bucket}, ${key}, 1, now(), ${lockFor(sql`1`)})
    ON CONFLICT (bucket, key) DO UPDATE SET
      failures = CASE WHEN ${locked} THEN auth_failures.failures ELSE ${next} END,
      locked_until = CASE WHEN ${locked} THEN auth_failures.locked_until ELSE ${lockFor(next)} END,
      last_failure_at = CASE WHEN ${locked} THEN auth_failures.last_failure_at ELSE now() END
    RETURNING last_failure_at = now() AS counted,
      extract(epoch FROM (locked_until - now())) AS wait`);
  const row = rows[0];
  if (!row || row.counted) return 0;
  return Math.max(1, Number(row.wait ?? 1));
}

/** The attempt succeeded: the key's failures are forgotten. */
export async function forgive(db: Executor, bucket: string, key: string): Promise<void> {
  await db.execute(sql`DELETE FROM auth_failures WHERE bucket = ${bucket} AND key = ${key}`);
}

type SQL = ReturnType<typeof sql>;

/** Seconds the key stays locked (0 when it is not), without counting anything. */
export async function lockedFor(db: Executor, bucket: string, key: string): Promise<number> {
  const rows = await queryRows<{ wait: number | string }>(db, sql`
    SELECT extract(epoch FROM (locked_until - now())) AS wait FROM auth_failures
    WHERE bucket = ${bucket} AND key = ${key} AND locked_until > now()`);
  return rows[0] ? Math.max(1, Number(rows[0].wait)) : 0;
}
