import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, moment, ref, serialId, updatedAt } from './columns.ts';
import { memberRef } from './members.ts';

/**
 * When before a session's end the member is reminded and on which channels (issue 28;
 * docs/product.md#reminders). A member without a row has the defaults: 10 minutes, SMS only.
 */
export const reminderSettings = pgTable(
  'reminder_settings',
  {
    memberId: memberRef().primaryKey(),
    minutesBefore: integer('minutes_before').notNull().default(10),
    push: boolean('push').notNull().default(false),
    sms: boolean('sms').notNull().default(true),
    updatedAt: updatedAt(),
  },
  (t) => [check('reminder_settings_minutes', sql`${t.minutesBefore} in (10, 15, 30)`)],
);

/**
 * A browser's Web Push subscription (the Push API's endpoint and keys), owned by one member: the
 * same endpoint posted by another member (another account signed in on that browser) moves to
 * them. Deleted when the push service answers 404 or 410, or when the member turns it off.
 */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: serialId(),
    memberId: memberRef(),
    endpoint: text('endpoint').notNull().unique(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    /** The language its notifications are written in: en, hi or es. */
    language: text('language').notNull().default('en'),
    createdAt: createdAt(),
  },
  (t) => [index('push_subscriptions_member_idx').on(t.memberId)],
);

/**
 * The push outbox: one notification for one subscription, written in the transaction of what it
 * tells (a reminder, an end notice) and sent after COMMIT by the push job, which claims a row by
 * moving next_attempt_at forward (no lock is held while the push service is called), deletes it
 * once delivered, and tries again later on a failure until expires_at (infra/push/README.md).
 */
export const pushMessages = pgTable(
  'push_messages',
  {
    id: serialId(),
    subscriptionId: ref('subscription_id', () => pushSubscriptions.id, 'cascade'),
    /** The JSON the service worker shows: { title, body, url, tag }. */
    payload: text('payload').notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: moment('next_attempt_at').notNull().defaultNow(),
    /** Past this the message is no longer worth sending (the session it reminds of has ended). */
    expiresAt: moment('expires_at').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('push_messages_due_idx').on(t.nextAttemptAt),
    index('push_messages_subscription_idx').on(t.subscriptionId),
  ],
);
