import { sql } from 'drizzle-orm';
import { index, integer, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, moment, serialId } from './columns.ts';
import { memberRef } from './members.ts';

/** Rotating refresh tokens: one family per sign-in; reuse of a rotated token revokes the family. */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    memberId: memberRef(),
    familyId: uuid('family_id').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    amr: text('amr').notNull(),
    expiresAt: moment('expires_at').notNull(),
    rotatedAt: moment('rotated_at'),
    revokedAt: moment('revoked_at'),
    createdAt: createdAt(),
  },
  // member_id: revoking all of a member's tokens and deleting a member.
  (t) => [index('refresh_tokens_family_idx').on(t.familyId), index('refresh_tokens_member_idx').on(t.memberId)],
);

/** One-time codes sent to a phone. Only a hash is kept. */
export const otpCodes = pgTable(
  'otp_codes',
  {
    id: serialId(),
    phone: text('phone').notNull(),
    purpose: text('purpose').notNull(), // 'verify' | 'login' | 'reset'
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: moment('expires_at').notNull(),
    consumedAt: moment('consumed_at'),
    createdAt: createdAt(),
  },
  (t) => [index('otp_codes_phone_idx').on(t.phone, t.purpose, t.createdAt)],
);

/** Messages to members. Development lists them at GET /api/Dev/Outbox; production sends them. */
export const outbox = pgTable(
  'outbox',
  {
    id: serialId(),
    channel: text('channel').notNull(),
    recipient: text('recipient').notNull(),
    body: text('body').notNull(),
    sentAt: moment('sent_at'),
    createdAt: createdAt(),
    /** The SMS job's tries (infra/sms): counted at each claim. */
    attempts: integer('attempts').notNull().default(0),
    /** When the SMS job may claim it next: a claim moves it ahead (its lease), a failure's back-off too. */
    nextAttemptAt: moment('next_attempt_at').notNull().defaultNow(),
    /** Given up: the gateway refused it for good, or every attempt failed. */
    failedAt: moment('failed_at'),
  },
  (t) => [
    // The SMS job's due messages.
    index('outbox_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.sentAt} IS NULL AND ${t.failedAt} IS NULL`),
  ],
);

/** Fixed-window counters kept in the database so that every replica sees the same limits. */
export const rateLimits = pgTable(
  'rate_limits',
  {
    bucket: text('bucket').notNull(),
    key: text('key').notNull(),
    windowStart: moment('window_start').notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.bucket, t.key, t.windowStart] })],
);

/** When the last code went to a phone for a purpose: the resend wait is one atomic upsert on it. */
export const otpSends = pgTable(
  'otp_sends',
  {
    phone: text('phone').notNull(),
    purpose: text('purpose').notNull(),
    lastSentAt: moment('last_sent_at').notNull().defaultNow(),
    /** The language the last code was asked in (en, hi or es): a guest's texts follow it. */
    language: text('language').notNull().default('en'),
  },
  (t) => [primaryKey({ columns: [t.phone, t.purpose] })],
);

/**
 * Failed sign-ins and wrong codes, per account, address, device or phone: a sliding window with
 * exponential back-off. A failure more than `window` after the last one starts over.
 */
export const authFailures = pgTable(
  'auth_failures',
  {
    bucket: text('bucket').notNull(),
    key: text('key').notNull(),
    failures: integer('failures').notNull().default(0),
    lastFailureAt: moment('last_failure_at').notNull().defaultNow(),
    lockedUntil: moment('locked_until'),
    /** Checks under way (counted before the check, settled after it); stale after 30 s. */
    pending: integer('pending').notNull().default(0),
    pendingAt: moment('pending_at'),
  },
  (t) => [primaryKey({ columns: [t.bucket, t.key] })],
);
