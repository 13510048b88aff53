import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client.ts';
import { atMostEvery, type Job } from './job-runner.ts';

/** How often the prune job does its work (it is called on every jobs tick). */
export const PRUNE_EVERY_MS = 10 * 60_000;
/** How long the plate-check audit keeps an answered check, and a refused one. */
export const AUDIT_ANSWER_DAYS = 365;
export const AUDIT_REFUSAL_DAYS = 30;
/** How long a dead webhook event waits for its replay. */
export const DEAD_EVENT_DAYS = 30;

/**
 * Rows nothing will read again are deleted, in one statement:
 * - refresh tokens expired for a day (a day's grace: replaying a just-expired rotated token still
 *   revokes its family);
 * - one-time codes expired for a day;
 * - outbox messages sent a day ago, or a week old (codes in them have long expired; reminders
 *   and receipts are stale);
 * - rate-limit windows that started more than a day ago (the longest window is an hour);
 * - APDS webhook events dead for DEAD_EVENT_DAYS (never replayed: they hold a plate and a
 *   session a city no longer asks for; docs/apds.md#webhooks).
 * The plate checks' audit (enforcement_checks) is kept for a while, not for ever:
 * - answers (paid, not paid, no such zone) for AUDIT_ANSWER_DAYS: a citation contested months
 *   later, or the city's yearly review, can still see what the officer was told;
 * - refusals (401, 429) for AUDIT_REFUSAL_DAYS: enough to look into a run of bad keys, while a
 *   flood of them (from many addresses) cannot grow the table for more than that.
 * Returns how many rows went.
 */
export async function pruneExpired(db: Db, now: Date): Promise<number> {
  const at = now.toISOString();
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`
    WITH tokens AS (DELETE FROM refresh_tokens WHERE expires_at < ${at}::timestamptz - interval '1 day' RETURNING 1),
         codes AS (DELETE FROM otp_codes WHERE expires_at < ${at}::timestamptz - interval '1 day' RETURNING 1),
         messages AS (
           DELETE FROM outbox
           WHERE sent_at < ${at}::timestamptz - interval '1 day' OR created_at < ${at}::timestamptz - interval '7 days'
           RETURNING 1),
         windows AS (DELETE FROM rate_limits WHERE window_start < ${at}::timestamptz - interval '1 day' RETURNING 1),
         dead_events AS (
           DELETE FROM apds_webhook_deliveries
           WHERE status = 'dead' AND created_at < ${at}::timestamptz - make_interval(days => ${DEAD_EVENT_DAYS})
           RETURNING 1),
         checks AS (
           DELETE FROM enforcement_checks
           WHERE checked_at < ${at}::timestamptz - make_interval(days => ${AUDIT_REFUSAL_DAYS})
             AND (outcome IN ('unauthorized', 'rate_limited') OR checked_at < ${at}::timestamptz - make_interval(days => ${AUDIT_ANSWER_DAYS}))
           RETURNING 1)
    SELECT (SELECT count(*) FROM tokens) + (SELECT count(*) FROM codes) + (SELECT count(*) FROM messages) + (SELECT count(*) FROM windows)
      + (SELECT count(*) FROM checks) + (SELECT count(*) FROM dead_events) AS n`,
  );
  return Number(row?.n ?? 0);
}

/** The job: prunes at most every PRUNE_EVERY_MS per process (tests pass `now`). */
export const pruneJob = (): Job => atMostEvery(PRUNE_EVERY_MS, pruneExpired);
