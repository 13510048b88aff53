import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/client.ts';

export interface ClaimedText {
  id: number;
  recipient: string;
  body: string;
  attempts: number;
}

/**
 * Claims due text messages of the outbox for one send: one statement counts the attempt and moves
 * each one's next attempt forward (30 s, doubling, at most an hour), then commits, so no lock is
 * held while the gateway is called and another process skips them. A process killed mid-send
 * leaves the message due again at that time: at least once, never lost.
 */
export async function claimDueTexts(db: Executor, now: Date, limit: number): Promise<ClaimedText[]> {
  return queryRows<ClaimedText>(
    db,
    sql`with due as (
          select id from outbox
          where channel = 'sms' and sent_at is null and failed_at is null and next_attempt_at <= ${now}
          order by next_attempt_at, id limit ${limit}
          for update skip locked)
        update outbox o
        set attempts = o.attempts + 1,
            next_attempt_at = ${now}::timestamptz + least(interval '1 hour', interval '30 seconds' * power(2, o.attempts))
        from due
        where o.id = due.id
        returning o.id, o.recipient, o.body, o.attempts`,
  );
}

/** The gateway took it. */
export async function markSent(db: Executor, id: number, at: Date): Promise<void> {
  await db.execute(sql`update outbox set sent_at = ${at} where id = ${id} and sent_at is null`);
}

/** Given up: refused for good, or out of attempts. The prune job deletes it after a week. */
export async function markFailed(db: Executor, id: number, at: Date): Promise<void> {
  await db.execute(sql`update outbox set failed_at = ${at} where id = ${id} and sent_at is null`);
}
