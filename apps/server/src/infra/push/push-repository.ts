import { and, eq, sql } from 'drizzle-orm';
import { queryRows, type Db, type Executor } from '../../db/client.ts';
import type { PushLanguage } from '@parkit/contract';
import type { Localised } from '../../lib/language.ts';
import { pushMessages, pushSubscriptions } from '../../db/schema/index.ts';

/**
 * Web Push subscriptions and the push outbox (push_messages). The shapes and the rules are in
 * infra/push/README.md; a member's subscriptions are reached only with that member's id.
 */

/** A member keeps at most this many browsers subscribed; a new one drops the oldest. */
export const MAX_SUBSCRIPTIONS = 10;

export interface NewSubscription {
  endpoint: string;
  p256dh: string;
  auth: string;
  language: PushLanguage;
}

/**
 * Saves a browser's subscription for the member. The endpoint is the browser's own (a secret of
 * it): posted again it is updated; posted by another member (another account signed in on that
 * browser) it becomes theirs alone. One upsert, so two posts at once leave one row.
 */
export async function subscribe(db: Db, memberId: number, s: NewSubscription): Promise<void> {
  await db.transaction(async (tx) => {
    await upsert(tx, memberId, s);
    await keepNewest(tx, memberId);
  });
}

async function upsert(db: Executor, memberId: number, s: NewSubscription): Promise<void> {
  await db
    .insert(pushSubscriptions)
    .values({ memberId, ...s })
    .onConflictDoUpdate({
      target: pushSubscriptions.endpoint,
      set: { memberId, p256dh: s.p256dh, auth: s.auth, language: s.language },
    });
}

async function keepNewest(db: Executor, memberId: number): Promise<void> {
  await db.execute(sql`
    delete from push_subscriptions
    where member_id = ${memberId}
      and id not in (select id from push_subscriptions where member_id = ${memberId}
                     order by id desc limit ${MAX_SUBSCRIPTIONS})`);
}

/** Forgets the member's subscription with this endpoint; false when the member has none. */
export async function unsubscribe(db: Executor, memberId: number, endpoint: string): Promise<boolean> {
  const gone = await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.memberId, memberId), eq(pushSubscriptions.endpoint, endpoint)))
    .returning({ id: pushSubscriptions.id });
  return gone.length > 0;
}

/** The push service said the subscription is gone (404/410): it and its messages go. */
export async function removeSubscription(db: Executor, subscriptionId: number): Promise<void> {
  await db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, subscriptionId));
}

/** A notification in each language a subscription may ask for. */
export type { Localised } from '../../lib/language.ts';

/**
 * Queues one notification for each of the member's subscriptions, in its language, in the caller's
 * transaction (so it exists exactly when what it tells does), due at the job's `now`. Answers how
 * many were queued.
 */
export async function enqueueForMember(
  db: Executor,
  memberId: number,
  payload: Localised,
  at: { now: Date; expiresAt: Date },
): Promise<number> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`insert into push_messages (subscription_id, payload, next_attempt_at, expires_at)
        select s.id, case s.language when 'hi' then ${payload.hi} when 'es' then ${payload.es} else ${payload.en} end, ${at.now}, ${at.expiresAt}
        from push_subscriptions s where s.member_id = ${memberId}
        returning id`,
  );
  return rows.length;
}

export interface ClaimedPush {
  id: number;
  subscription_id: number;
  endpoint: string;
  p256dh: string;
  auth: string;
  payload: string;
  attempts: number;
  expires_at: Date | string;
}

/**
 * Claims due messages for one send: one statement moves each one's next attempt forward (30 s,
 * doubling, at most an hour) and counts the attempt, then commits, so no lock is held while the
 * push service is called and another process skips them. A process that dies mid-send leaves the
 * message due again at that time: a retry, as a failure's.
 */
export async function claimDue(db: Executor, now: Date, limit: number): Promise<ClaimedPush[]> {
  return queryRows<ClaimedPush>(
    db,
    sql`with due as (
          select id from push_messages
          where next_attempt_at <= ${now} and expires_at > ${now}
          order by next_attempt_at limit ${limit}
          for update skip locked)
        update push_messages m
        set attempts = m.attempts + 1,
            next_attempt_at = ${now}::timestamptz + least(interval '1 hour', interval '30 seconds' * power(2, m.attempts))
        from due, push_subscriptions s
        where m.id = due.id and s.id = m.subscription_id
        returning m.id, m.subscription_id, s.endpoint, s.p256dh, s.auth, m.payload, m.attempts, m.expires_at`,
  );
}

/** Delivered, or given up on: the message goes. */
export async function removeMessage(db: Executor, id: number): Promise<void> {
  await db.delete(pushMessages).where(eq(pushMessages.id, id));
}

/** Messages past their use (their session has ended), never delivered. */
export async function removeExpired(db: Executor, now: Date): Promise<number> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`delete from push_messages where expires_at <= ${now} returning id`,
  );
  return rows.length;
}
