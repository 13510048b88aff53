import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../db/client.ts';

/**
 * Failures counted in a sliding window with exponential back-off: the first `free`
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

/** A check that started more than this long ago and never settled (a crash) no longer counts. */
const PENDING_STALE_SECONDS = 30;

/** What `attempt` decided: go ahead (then `settle`), wait `seconds` (locked), or try again soon (busy). */
export type Attempt = { go: true } | { go: false; wait: number } | { go: false; busy: true };

type SQL = ReturnType<typeof sql>;

/** The key's recent failures (0 once the window passed) and its checks under way. */
const recentFailures = (b: Backoff) =>
  sql`(CASE WHEN auth_failures.last_failure_at < now() - make_interval(secs => ${b.windowSeconds}) THEN 0 ELSE auth_failures.failures END)`;
const livePending = sql`(CASE WHEN auth_failures.pending_at > now() - make_interval(secs => ${PENDING_STALE_SECONDS}) THEN auth_failures.pending ELSE 0 END)`;
const lockFor = (b: Backoff, n: SQL) =>
  sql`CASE WHEN ${n} > ${b.free} THEN now() + make_interval(secs => least(${b.maxSeconds}::float8, ${b.baseSeconds}::float8 * power(2, least(${n} - ${b.free} - 1, 30)))) END`;

/**
 * Reserves one check against a key before it is made, in one statement: checks under way count
 * as failures until they are settled, so a burst cannot try more than the key's free failures
 * plus one. A reservation that would pass that bound is not made
 * (`busy`): the caller waits for the checks under way to settle, so a burst of right passwords is
 * never refused, while a burst of wrong ones locks the key. A locked key is not counted again, so
 * a stranger cannot stretch the lock forever. Every `{ go: true }` must be `settle`d.
 */
export async function attempt(db: Executor, b: Backoff, key: string): Promise<Attempt> {
  const locked = sql`(auth_failures.locked_until IS NOT NULL AND auth_failures.locked_until > now())`;
  // One check at a time once the free failures are used up, more while there are some left.
  const room = sql`(${livePending} = 0 OR ${recentFailures(b)} + ${livePending} <= ${b.free})`;
  const go = sql`(NOT ${locked} AND ${room})`;
  const rows = await queryRows<{ reserved: boolean; wait: number | string | null }>(
    db,
    sql`
    INSERT INTO auth_failures (bucket, key, failures, last_failure_at, locked_until, pending, pending_at)
    VALUES (${b.bucket}, ${key}, 0, now(), NULL, 1, now())
    ON CONFLICT (bucket, key) DO UPDATE SET
      failures = CASE WHEN ${go} THEN ${recentFailures(b)} ELSE auth_failures.failures END,
      pending = CASE WHEN ${go} THEN ${livePending} + 1 ELSE auth_failures.pending END,
      pending_at = CASE WHEN ${go} THEN now() ELSE auth_failures.pending_at END
    RETURNING pending_at = now() AS reserved,
      CASE WHEN locked_until > now() THEN extract(epoch FROM (locked_until - now())) END AS wait`,
  );
  const row = rows[0];
  if (!row || row.reserved) return { go: true };
  if (row.wait !== null) return { go: false, wait: Math.max(1, Math.ceil(Number(row.wait))) };
  return { go: false, busy: true };
}

/**
 * Settles a reserved check: `ok` forgets the key's failures, `failed` counts one (and locks the key
 * for base·2^(n-free-1) seconds past the free ones), `released` only gives the reservation back
 * (the check could not be made).
 */
export async function settle(
  db: Executor,
  b: Backoff,
  key: string,
  outcome: 'ok' | 'failed' | 'released',
): Promise<void> {
  const pending = sql`greatest(${livePending} - 1, 0)`;
  if (outcome === 'ok') {
    await db.execute(
      sql`UPDATE auth_failures SET pending = ${pending}, failures = 0, locked_until = NULL WHERE bucket = ${b.bucket} AND key = ${key}`,
    );
  } else if (outcome === 'released') {
    await db.execute(sql`UPDATE auth_failures SET pending = ${pending} WHERE bucket = ${b.bucket} AND key = ${key}`);
  } else {
    const n = sql`(${recentFailures(b)} + 1)`;
    await db.execute(sql`
      UPDATE auth_failures SET pending = ${pending}, failures = ${n}, last_failure_at = now(),
        locked_until = coalesce(${lockFor(b, n)}, auth_failures.locked_until)
      WHERE bucket = ${b.bucket} AND key = ${key}`);
  }
}

/**
 * Counts one failure against a key at once (no check under way: the address's failures). Returns
 * 0, or the seconds the key stays locked when it was locked already (then nothing is counted).
 */
export async function countFailure(db: Executor, b: Backoff, key: string): Promise<number> {
  const stale = sql`auth_failures.last_failure_at < now() - make_interval(secs => ${b.windowSeconds})`;
  const locked = sql`(auth_failures.locked_until IS NOT NULL AND auth_failures.locked_until > now())`;
  const next = sql`(CASE WHEN ${stale} THEN 1 ELSE auth_failures.failures + 1 END)`;
  const rows = await queryRows<{ counted: boolean; wait: number | string | null }>(
    db,
    sql`
    INSERT INTO auth_failures (bucket, key, failures, last_failure_at, locked_until)
    VALUES (${b.bucket}, ${key}, 1, now(), ${lockFor(b, sql`1`)})
    ON CONFLICT (bucket, key) DO UPDATE SET
      failures = CASE WHEN ${locked} THEN auth_failures.failures ELSE ${next} END,
      locked_until = CASE WHEN ${locked} THEN auth_failures.locked_until ELSE ${lockFor(b, next)} END,
      last_failure_at = CASE WHEN ${locked} THEN auth_failures.last_failure_at ELSE now() END
    RETURNING last_failure_at = now() AS counted,
      extract(epoch FROM (locked_until - now())) AS wait`,
  );
  const row = rows[0];
  if (!row || row.counted) return 0;
  return Math.max(1, Number(row.wait ?? 1));
}

/** Seconds the key stays locked (0 when it is not), without counting anything. */
export async function lockedFor(db: Executor, bucket: string, key: string): Promise<number> {
  const rows = await queryRows<{ wait: number | string }>(
    db,
    sql`
    SELECT extract(epoch FROM (locked_until - now())) AS wait FROM auth_failures
    WHERE bucket = ${bucket} AND key = ${key} AND locked_until > now()`,
  );
  return rows[0] ? Math.max(1, Number(rows[0].wait)) : 0;
}
