import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { ApdsPartnerSession } from '@parkit/contract';
import { createdAt, moment, ref, serialId, updatedAt } from './columns.ts';
import { operatorRef } from './members.ts';
import { zones } from './zones.ts';
/**
 * An APDS event subscription (docs/apds.md#webhooks): an operator's city asks for some topics of
 * the operator's zones to be POSTed to its endpoint. `zone_ids` is what `hierarchyElements` names,
 * resolved at subscription (null: every zone of the operator, new ones too); the document's own
 * words are kept in `hierarchy` to be answered back. `secret` signs each delivery (HMAC-SHA256):
 * shown once, when the subscription is made, and kept to sign with (so not hashed).
 */
export const apdsWebhooks = pgTable(
  'apds_webhooks',
  {
    id: serialId(),
    operatorId: operatorRef(),
    endpoint: text('endpoint').notNull(),
    topics: text('topics').array().notNull(),
    hierarchy: jsonb('hierarchy').$type<{ className: string; id: string }[]>(),
    includeChildren: boolean('include_children').notNull().default(false),
    zoneIds: integer('zone_ids').array(),
    secret: text('secret').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('apds_webhooks_operator_idx').on(t.operatorId)],
);

/**
 * The webhook outbox (docs/decisions/016-webhook-outbox.md): one event for one subscription,
 * written by the trigger on parking_sessions in the transaction of the change it reports, sent
 * after COMMIT by the job `apds.webhooks`. A subscription's oldest pending row is its head: only the
 * head is sent, so its events arrive in order. Claiming moves `next_attempt_at` forward (no lock is
 * held while the endpoint is called); a delivered row is deleted; after the last failed attempt
 * the row is `dead` (the dead-letter list) until it is replayed. `event_id` is the same for every
 * subscription the change reaches: receivers dedupe by it. `data` is the object as it was then.
 */
export const apdsWebhookDeliveries = pgTable(
  'apds_webhook_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    subscriptionId: ref('subscription_id', () => apdsWebhooks.id, 'cascade'),
    eventId: uuid('event_id').notNull(),
    topic: text('topic').notNull(),
    objectId: integer('object_id').notNull(),
    data: jsonb('data').notNull(),
    eventTime: moment('event_time').notNull(),
    /** 'pending' (waiting, or being sent) | 'dead' (every attempt failed; replayable). */
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: moment('next_attempt_at').notNull().defaultNow(),
    /** The last failure: an HTTP status or a network error's code, never the response's body. */
    lastError: text('last_error'),
    createdAt: createdAt(),
  },
  (t) => [
    check('apds_webhook_deliveries_status_check', sql`${t.status} IN ('pending', 'dead')`),
    // Each subscription's head, and the due heads.
    index('apds_webhook_deliveries_pending_idx')
      .on(t.subscriptionId, t.id)
      .where(sql`${t.status} = 'pending'`),
    index('apds_webhook_deliveries_dead_idx')
      .on(t.subscriptionId, t.id)
      .where(sql`${t.status} = 'dead'`),
  ],
);

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

/**
 * A Session a third party registered with the operator's API key (POST /apds/sessions,
 * docs/apds.md#partner-sessions): kept as the answer gives it back (`body`: the Session with its
 * segments' rights as created), with the columns the list's filters read. Its rights are the
 * assigned rights the segments created or named, which the plate check honours.
 */
export const apdsPartnerSessions = pgTable(
  'apds_partner_sessions',
  {
    id: serialId(),
    operatorId: operatorRef(),
    apdsId: text('apds_id').notNull(),
    version: integer('version').notNull(),
    /** The zone of the first segment's right (the Session's place). */
    zoneId: ref('zone_id', () => zones.id),
    /** The licence plates among the identified credentials, normalised (normalisePlate). */
    plates: text('plates').array().notNull(),
    startsAt: moment('starts_at').notNull(),
    /** actualEnd, when the Session has one. */
    endsAt: moment('ends_at'),
    body: jsonb('body').$type<ApdsPartnerSession>().notNull(),
    requestHash: text('request_hash').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('apds_partner_sessions_operator_apds_id_key').on(t.operatorId, t.apdsId),
    index('apds_partner_sessions_operator_idx').on(t.operatorId, t.id),
    check('apds_partner_sessions_version_check', sql`${t.version} >= 1`),
  ],
);

/** A holder's credential as the APDS document writes it (HolderCredential). */
export interface ApdsStoredCredential {
  identifier: { className: string; id: string };
  issuer: Array<{ language: string; string: string }>;
  type?: string;
}
