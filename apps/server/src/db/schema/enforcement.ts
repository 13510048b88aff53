import { sql } from 'drizzle-orm';
import { bigserial, boolean, check, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, moment, serialId } from './columns.ts';
import { operatorRef, operators } from './members.ts';
import { zones } from './zones.ts';

/** What a key opens: the officers' plate check and APDS sessions, or the city's CDS Events and Metrics feed. */
export const KEY_PURPOSES = ['enforcement', 'cds'] as const;
export type KeyPurpose = (typeof KEY_PURPOSES)[number];

/**
 * An operator's API keys: the officers' plate check and the city's CDS feed
 * (docs/open-data.md#authentication), told apart by `purpose`; a key opens only its purpose's
 * routes. Only a SHA-256 of the key is kept (the key is 32 random bytes, so a fast hash is enough);
 * the prefix finds the row.
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
    purpose: text('purpose').$type<KeyPurpose>().notNull().default('enforcement'),
    createdAt: createdAt(),
    lastUsedAt: moment('last_used_at'),
    revokedAt: moment('revoked_at'),
  },
  (t) => [
    index('operator_api_keys_operator_idx').on(t.operatorId),
    check('operator_api_keys_hash_len', sql`length(${t.keyHash}) = 64`),
    check('operator_api_keys_purpose_check', sql`${t.purpose} IN ('enforcement', 'cds')`),
  ],
);

/** What a plate check was told: answered (paid, not paid, no such zone of the key's operator) or refused (401, 429). */
export const CHECK_OUTCOMES = ['paid', 'not_paid', 'zone_not_found', 'unauthorized', 'rate_limited'] as const;
export type CheckOutcome = (typeof CHECK_OUTCOMES)[number];

/**
 * Every plate check, answered or refused: who asked (the key, its operator, the first
 * characters of the key presented, the client address; or, for a check from the officer's page,
 * the signed-in officer), when, about what (zone, normalised plate, state) and the outcome. A
 * refused attempt whose key matches no row has no key_id or operator_id.
 * Kept for a while only (jobs/prune.ts): a year for answers, 30 days for refusals.
 */
export const enforcementChecks = pgTable(
  'enforcement_checks',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** The key's row when the presented key matches one (live or revoked); null for an unknown or missing key. */
    keyId: integer('key_id').references(() => operatorApiKeys.id),
    operatorId: integer('operator_id').references(() => operators.id),
    /** The first characters of the key presented (a real key's public prefix, never the secret); null when none was. */
    keyPrefix: text('key_prefix'),
    /**
     * The officer who checked from the officer's page (GET /api/Operator/{id}/Check), with no key;
     * a plain id without a foreign key: the row is the operator's, the member a driver's
     * (db/distribution.ts, PLAIN_ID).
     */
    memberId: integer('member_id'),
    clientAddress: text('client_address').notNull().default(''),
    zoneNumber: text('zone_number').notNull(),
    /** Normalised: upper case, no spaces or dashes. */
    plate: text('plate').notNull(),
    plateState: text('plate_state').notNull(),
    outcome: text('outcome').notNull(),
    /** The answer given; null when the check was refused. */
    paid: boolean('paid'),
    sessionId: integer('session_id'),
    address: text('address').notNull().default(''),
    checkedAt: moment('checked_at').notNull().defaultNow(),
  },
  (t) => [
    index('enforcement_checks_operator_time_idx').on(t.operatorId, t.checkedAt),
    // The prune job deletes by age.
    index('enforcement_checks_checked_at_idx').on(t.checkedAt),
    check(
      'enforcement_checks_outcome_check',
      sql`${t.outcome} IN ('paid', 'not_paid', 'zone_not_found', 'unauthorized', 'rate_limited')`,
    ),
    check(
      'enforcement_checks_answered_check',
      sql`${t.outcome} IN ('unauthorized', 'rate_limited') OR ((${t.keyId} IS NOT NULL OR ${t.memberId} IS NOT NULL) AND ${t.operatorId} IS NOT NULL AND ${t.paid} IS NOT NULL)`,
    ),
  ],
);

/**
 * Digital chalking (docs/enforcement.md#chalking): an officer's first sighting of a plate in a
 * free, time-limited zone; a later check says how long it has stood there. The plate is
 * normalised (upper case, no spaces, dashes or dots) and emptied by retention
 * (`anonymiseChalksBefore`). The officer is a plain id and a name, as citations keep them.
 */
export const chalks = pgTable(
  'chalks',
  {
    id: serialId(),
    operatorId: operatorRef(),
    zoneId: integer('zone_id')
      .notNull()
      .references(() => zones.id),
    plate: text('plate').notNull(),
    plateState: text('plate_state').notNull(),
    firstSeenAt: moment('first_seen_at').notNull(),
    officerId: integer('officer_id'),
    officerName: text('officer_name').notNull().default(''),
  },
  (t) => [
    index('chalks_zone_plate_idx').on(t.operatorId, t.zoneId, t.plate, t.firstSeenAt),
    index('chalks_operator_seen_idx').on(t.operatorId, t.firstSeenAt),
  ],
);
