import { sql } from 'drizzle-orm';
import { bigserial, boolean, check, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, moment, ref, serialId } from './columns.ts';
import { operatorRef } from './members.ts';

/**
 * An operator's API keys for the officers' plate check (issue 12). Only a SHA-256 of the key is
 * kept (the key is 32 random bytes, so a fast hash is enough); the prefix finds the row.
 */
export const operatorApiKeys = pgTable(
  'operator_api_keys',
  {
    id: serialId(),
    operatorId: operatorRef(),
    /** The key's first characters ('pk_' + 8), shown in listings so a key can be told apart. */
    prefix: text('prefix').notNull().unique(),
    keyHash: text('key_hash').notNull(),
    label: text('label').notNull().default(''),
    createdAt: createdAt(),
    lastUsedAt: moment('last_used_at'),
    revokedAt: moment('revoked_at'),
  },
  (t) => [index('operator_api_keys_operator_idx').on(t.operatorId), check('operator_api_keys_hash_len', sql`length(${t.keyHash}) = 64`)],
);

/** Every plate check: which key asked, when, about what, and what it was told. */
export const enforcementChecks = pgTable(
  'enforcement_checks',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    keyId: ref('key_id', () => operatorApiKeys.id),
    operatorId: operatorRef(),
    zoneNumber: text('zone_number').notNull(),
    /** Normalised: upper case, no spaces or dashes. */
    plate: text('plate').notNull(),
    plateState: text('plate_state').notNull(),
    paid: boolean('paid').notNull(),
    sessionId: integer('session_id'),
    address: text('address').notNull().default(''),
    checkedAt: moment('checked_at').notNull().defaultNow(),
  },
  (t) => [index('enforcement_checks_operator_time_idx').on(t.operatorId, t.checkedAt)],
);
