import { sql } from 'drizzle-orm';
import { bigserial, check, index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { createdAt, moment, serialId } from './columns.ts';
import { memberRef, operatorRef } from './members.ts';

const ROLE_CHECK = "in ('owner', 'manager', 'officer', 'analyst')";

/**
 * The people of an operator (the console's staff): ordinary member accounts with a role per
 * operator. A person may work for several operators; a staff change locks the operator's row
 * first (operators/staff-repository.ts), so that no race leaves an operator without an owner.
 */
export const operatorStaff = pgTable(
  'operator_staff',
  {
    operatorId: operatorRef(),
    memberId: memberRef(),
    role: text('role').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.operatorId, t.memberId] }),
    check('operator_staff_role_check', sql.raw(`role ${ROLE_CHECK}`)),
    index('operator_staff_member_idx').on(t.memberId),
  ],
);

/**
 * An invitation to join an operator: a code sent to a phone or an e-mail address through the
 * outbox (only its hash is kept), accepted by a signed-in member with that phone or address.
 */
export const operatorInvites = pgTable(
  'operator_invites',
  {
    id: serialId(),
    operatorId: operatorRef(),
    /** A phone (digits) or a lower-case e-mail address. */
    contact: text('contact').notNull(),
    role: text('role').notNull(),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    invitedBy: integer('invited_by'),
    expiresAt: moment('expires_at').notNull(),
    acceptedAt: moment('accepted_at'),
    acceptedBy: integer('accepted_by'),
    revokedAt: moment('revoked_at'),
    createdAt: createdAt(),
  },
  (t) => [
    check('operator_invites_role_check', sql.raw(`role ${ROLE_CHECK}`)),
    index('operator_invites_contact_idx').on(t.contact),
    index('operator_invites_operator_idx').on(t.operatorId, t.createdAt),
  ],
);

/**
 * Every change an operator's people make (zones, people, prices, permits, refunds): who, when,
 * what, before and after. Written by infra/audit-log.ts `audit()` in the change's own
 * transaction; never changed: a trigger (migration) refuses UPDATE, DELETE and TRUNCATE. The
 * actor is kept by id and name without a foreign key, so deleting a member changes no entry.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    operatorId: operatorRef(),
    actorId: integer('actor_id'),
    actorName: text('actor_name').notNull(),
    /** What was done, e.g. staff.invite, staff.role, zone.create. */
    action: text('action').notNull(),
    /** The kind of thing changed (staff, invite, zone, ...) and its id. */
    entity: text('entity').notNull(),
    entityId: text('entity_id').notNull(),
    before: jsonb('before'),
    after: jsonb('after'),
    createdAt: createdAt(),
  },
  (t) => [index('audit_log_operator_idx').on(t.operatorId, t.id)],
);
