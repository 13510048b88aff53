import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, moment, ref, serialId, updatedAt } from './columns.ts';
import { operatorRef } from './members.ts';
import { zones } from './zones.ts';

/**
 * An APDS AssignedRight a third party created with the operator's API key
 * (docs/apds.md#assigned-rights): the right for some plates to park in one zone of the operator
 * between `starts_at` and `ends_at`. The plate check honours it (enforcement/rights.ts).
 *
 * `apds_id` is the creator's own id (the APDS document has the client name it), unique per
 * operator: it is the create's idempotency handle, and so is the Idempotency-Key when one is sent.
 * `request_hash` is a SHA-256 of what was kept, so that a repeat is told from a conflicting one.
 */
export const apdsAssignedRights = pgTable(
  'apds_assigned_rights',
  {
    id: serialId(),
    operatorId: operatorRef(),
    apdsId: text('apds_id').notNull(),
    version: integer('version').notNull(),
    zoneId: ref('zone_id', () => zones.id),
    /** The licence plates among the holder's credentials, normalised (normalisePlate). */
    plates: text('plates').array().notNull(),
    /** The holder's credentials as sent (identifier, issuer, type): the answer repeats them. */
    credentials: jsonb('credentials').$type<ApdsStoredCredential[]>().notNull(),
    startsAt: moment('starts_at').notNull(),
    endsAt: moment('ends_at').notNull(),
    issuedAt: moment('issued_at').notNull(),
    issueMethod: text('issue_method'),
    idempotencyKey: text('idempotency_key'),
    requestHash: text('request_hash').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('apds_assigned_rights_operator_apds_id_key').on(t.operatorId, t.apdsId),
    uniqueIndex('apds_assigned_rights_operator_idempotency_key').on(t.operatorId, t.idempotencyKey),
    index('apds_assigned_rights_operator_idx').on(t.operatorId, t.id),
    // The rights check (enforcement/rights.ts) looks a right up by plate.
    index('apds_assigned_rights_plates_idx').using('gin', t.plates),
    check('apds_assigned_rights_window_check', sql`${t.endsAt} > ${t.startsAt}`),
    check('apds_assigned_rights_plates_check', sql`cardinality(${t.plates}) BETWEEN 1 AND 10`),
    check('apds_assigned_rights_version_check', sql`${t.version} >= 1`),
  ],
);

/** A holder's credential as the APDS document writes it (HolderCredential). */
export interface ApdsStoredCredential {
  identifier: { className: string; id: string };
  issuer: Array<{ language: string; string: string }>;
  type?: string;
}
