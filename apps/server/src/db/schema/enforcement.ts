import { sql } from 'drizzle-orm';
import { bigserial, boolean, check, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { operators } from './members.ts';

/**
 * An operator's API keys for the officers' plate check (issue 12). Only a SHA-256 of the key is
 * kept (the key is 32 random bytes, so a fast hash is enough); the prefix finds the row.
 */
export const operatorApiKeys = pgTable(
  'operator_api_keys',
  {
    id: serial('id').primaryKey(),
    operatorId: integer('operator_id')
      .notNull()
      .references(() => operators.id),
    /** The key's first characters ('pk_' + 8), shown in listings so a key can be told apart. */
    prefix: text('prefix').notNull().unique(),
    keyHash: text('key_hash').notNull(),
    label: text('label').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('operator_api_keys_operator_idx').on(t.operatorId), check('operator_api_keys_hash_len', sql`length(${t.keyHash}) = 64`)],
);

/** Every plate check: which key asked, when, about what, and what it was told. */
export const enforcementChecks = pgTable(
  'enforcement_checks',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    keyId: integer('key_id')
      .notNull()
      .references(() => operatorApiKeys.id),
    operatorId: integer('operator_id')
      .notNull()
      .references(() => operators.id),
    zoneNumber: text('zone_number').notNull(),
    /** Normalised: upper case, no spaces or dashes. */
    plate: text('plate').notNull(),
    plateState: text('plate_state').notNull(),
    paid: boolean('paid').notNull(),
    sessionId: integer('session_id'),
    address: text('address').notNull().default(''),
    checkedAt: timestamp('checked_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('enforcement_checks_operator_time_idx').on(t.operatorId, t.checkedAt)],
);
