import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, moment, ref, serialId } from './columns.ts';
import { operatorRef } from './members.ts';

/**
 * Price policies (docs/pricing.md): a named policy of an operator, and its versions. A version is
 * never changed: its body (the contract's PolicyBody, validated before it is written) is stored as
 * JSON and read whole by the quote engine; the reasons are in docs/pricing.md#storage.
 */
export const pricePolicies = pgTable(
  'price_policies',
  {
    id: serialId(),
    operatorId: operatorRef(),
    name: text('name').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('price_policies_operator_name_key').on(t.operatorId, t.name)],
);

export const pricePolicyVersions = pgTable(
  'price_policy_versions',
  {
    id: serialId(),
    policyId: ref('policy_id', () => pricePolicies.id, 'cascade'),
    version: integer('version').notNull(),
    /** Sessions started from this moment on are priced by this version (until a later one takes effect). */
    effectiveFrom: moment('effective_from').notNull(),
    body: jsonb('body').notNull(),
    /**
     * The CDS `curb_policy_id` of each CDS Policy this version publishes, by key (span Id, span
     * Id/user class, '*' for the rest of the day) when the version came from a CDS feed; null:
     * derived from the version's id (opendata/). Written with the version, never changed.
     */
    cdsIds: jsonb('cds_ids'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('price_policy_versions_policy_version_key').on(t.policyId, t.version),
    // The version in force at a moment: the latest effective_from at or before it.
    index('price_policy_versions_policy_effective_idx').on(t.policyId, t.effectiveFrom.desc(), t.version.desc()),
    check('price_policy_versions_version_check', sql`${t.version} > 0`),
  ],
);

/** A named event: its policy prices the sessions started in [starts_at, ends_at) in the chosen zones, unless cancelled. */
export const priceEvents = pgTable(
  'price_events',
  {
    id: serialId(),
    operatorId: operatorRef(),
    name: text('name').notNull(),
    startsAt: moment('starts_at').notNull(),
    endsAt: moment('ends_at').notNull(),
    policyId: ref('policy_id', () => pricePolicies.id),
    zoneIds: integer('zone_ids').array().notNull(),
    /** Cancelled from the console: it prices no session starting after this (a running one keeps its version). */
    cancelledAt: moment('cancelled_at'),
    createdAt: createdAt(),
  },
  (t) => [
    check('price_events_window_check', sql`${t.endsAt} > ${t.startsAt}`),
    index('price_events_operator_ends_idx').on(t.operatorId, t.endsAt),
  ],
);
