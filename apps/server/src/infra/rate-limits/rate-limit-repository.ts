import { and, eq, sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/client.ts';
import { rateLimits } from '../../db/schema/index.ts';

export interface Limit {
  bucket: string;
  limit: number;
  windowSeconds: number;
}

/**
 * The exact rate limits (docs/decisions/011-two-rate-limits.md): for acts that cost money or can be
 * guessed, a statement before the act, exact across every process; back-off (auth/login-limits.ts) is
 * the other policy of this mechanism. The volume of requests is limited elsewhere, without a round
 * trip (plugins/rate-limit.ts).
 *
 * Counts one hit in a fixed window kept in the database, so every replica shares the count.
 * Returns the seconds to wait when the limit is exceeded, else 0.
 */
export async function hit(db: Executor, limit: Limit, key: string): Promise<number> {
  return (await hitWindow(db, limit, key)).wait;
}

/** hit(), also saying whether this is the window's first refusal (count = limit + 1). */
export async function hitWindow(
  db: Executor,
  { bucket, limit, windowSeconds }: Limit,
  key: string,
): Promise<{ wait: number; firstRefusal: boolean }> {
  const nowMs = Date.now();
  const windowMs = windowSeconds * 1000;
  const start = new Date(Math.floor(nowMs / windowMs) * windowMs);
  const rows = await queryRows<{ count: number }>(
    db,
    sql`
    INSERT INTO rate_limits (bucket, key, window_start, count) VALUES (${bucket}, ${key}, ${start.toISOString()}, 1)
    ON CONFLICT (bucket, key, window_start) DO UPDATE SET count = rate_limits.count + 1
    RETURNING count`,
  );
  const count = Number(rows[0]?.count ?? 0);
  return { wait: count > limit ? (start.getTime() + windowMs - nowMs) / 1000 : 0, firstRefusal: count === limit + 1 };
}

/** Forgets the hits of one key, e.g. failed logins after a successful one. */
export async function reset(db: Executor, bucket: string, key: string): Promise<void> {
  await db.delete(rateLimits).where(and(eq(rateLimits.bucket, bucket), eq(rateLimits.key, key)));
}
