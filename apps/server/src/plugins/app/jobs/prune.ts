import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../../db/client.ts';

/** How often the prune job does its work (it is called on every jobs tick). */
export const PRUNE_EVERY_MS = 10 * 60_000;

/**
 * Issue 9: rows nothing will read again are deleted, in one statement:
 * - refresh tokens expired for a day (a day's grace: replaying a just-expired rotated token still
 *   revokes its family);
 * - one-time codes expired for a day;
 * - outbox messages sent a day ago, or a week old (codes in them have long expired; reminders
 *   and receipts are stale);
 * - rate-limit windows that started more than a day ago (the longest window is an hour).
 * Returns how many rows went.
 */
export async function pruneExpired(db: Db, now: Date): Promise<number> {
  const at = now.toISOString();
  const [row] = await queryRows<{ n: number }>(db, sql`
    WITH tokens AS (DELETE FROM refresh_tokens WHERE expires_at < ${at}::timestamptz - interval '1 day' RETURNING 1),
         codes AS (DELETE FROM otp_codes WHERE expires_at < ${at}::timestamptz - interval '1 day' RETURNING 1),
         messages AS (
           DELETE FROM outbox
           WHERE sent_at < ${at}::timestamptz - interval '1 day' OR created_at < ${at}::timestamptz - interval '7 days'
           RETURNING 1),
         windows AS (DELETE FROM rate_limits WHERE window_start < ${at}::timestamptz - interval '1 day' RETURNING 1)
    SELECT (SELECT count(*) FROM tokens) + (SELECT count(*) FROM codes) + (SELECT count(*) FROM messages) + (SELECT count(*) FROM windows) AS n`);
  return Number(row?.n ?? 0);
}

/** The job: prunes at most every PRUNE_EVERY_MS per process (tests pass `now`). */
export function pruneJob(): (db: Db, now: Date) => Promise<number> {
  let last = -Infinity;
  return async (db, now) => {
    if (now.getTime() - last < PRUNE_EVERY_MS) return 0;
    last = now.getTime();
    return pruneExpired(db, now);
  };
}
