import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, moment, serialId, updatedAt } from './columns.ts';
import { members, operatorRef } from './members.ts';
import { zones } from './zones.ts';

/**
 * An operator's list of violations: what an officer may cite, with its fine, the days
 * the driver has to pay, and the late fee added after that. A code is unique per operator; a
 * violation in use is retired, never deleted, so its citations keep it.
 */
export const violations = pgTable(
  'violations',
  {
    id: serialId(),
    operatorId: operatorRef(),
    code: text('code').notNull(),
    description: text('description').notNull(),
    fineCents: integer('fine_cents').notNull(),
    dueDays: integer('due_days').notNull(),
    lateFeeCents: integer('late_fee_cents').notNull().default(0),
    retiredAt: moment('retired_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('violations_operator_code_idx').on(t.operatorId, sql`upper(${t.code})`),
    check('violations_fine_check', sql`${t.fineCents} > 0 and ${t.fineCents} <= 10000000`),
    check('violations_due_days_check', sql`${t.dueDays} between 1 and 365`),
    check('violations_late_fee_check', sql`${t.lateFeeCents} >= 0 and ${t.lateFeeCents} <= 10000000`),
  ],
);

export const CITATION_STATUSES = ['issued', 'paid', 'contested', 'upheld', 'cancelled', 'reduced'] as const;
export type CitationStatus = (typeof CITATION_STATUSES)[number];

/**
 * A citation: a plate (normalised: upper case, no spaces, dots or dashes) cited in one
 * of the operator's zones for one of its violations, by an officer (a staff member; the name is
 * kept as it was), at a moment and a place. The fine and the late fee are copied from the
 * violation when issued (a later change of the list changes no citation). A contest's decision
 * may reduce the fine. The late fee is added once, by the job, after due_at (late_fee_applied_at).
 * Paid: paid_cents from the driver's wallet (ledger kind 'citation'); a cancelled paid citation
 * is refunded to the wallet (refunded_cents, ledger kind 'citation-refund').
 */
export const citations = pgTable(
  'citations',
  {
    id: serialId(),
    operatorId: operatorRef(),
    zoneId: integer('zone_id')
      .notNull()
      .references(() => zones.id),
    plate: text('plate').notNull(),
    plateState: text('plate_state').notNull(),
    violationId: integer('violation_id')
      .notNull()
      .references(() => violations.id),
    fineCents: integer('fine_cents').notNull(),
    lateFeeCents: integer('late_fee_cents').notNull(),
    officerId: integer('officer_id').references(() => members.id, { onDelete: 'set null' }),
    officerName: text('officer_name').notNull().default(''),
    issuedAt: moment('issued_at').notNull(),
    location: text('location').notNull().default(''),
    status: text('status').$type<CitationStatus>().notNull().default('issued'),
    dueAt: moment('due_at').notNull(),
    lateFeeAppliedAt: moment('late_fee_applied_at'),
    paidAt: moment('paid_at'),
    paidCents: integer('paid_cents').notNull().default(0),
    paidBy: integer('paid_by').references(() => members.id, { onDelete: 'set null' }),
    refundedCents: integer('refunded_cents').notNull().default(0),
    /**
     * The card charge that paid it (a payment by card: the charge credited the wallet, the payment
     * debited it), or null (paid from the wallet, or unpaid). A cancellation refunds it to that card.
     */
    // No foreign key: the charge is a driver's (distributed by member_id), the citation an operator's
    // (by operator_id), and a distributed database refuses a key across the two (docs/scaling.md).
    paidChargeId: integer('paid_charge_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('citations_operator_time_idx').on(t.operatorId, t.issuedAt),
    index('citations_plate_idx').on(t.plate, t.plateState),
    // The late-fee job's scan: unpaid, not yet late-charged.
    index('citations_due_idx')
      .on(t.dueAt)
      .where(sql`${t.lateFeeAppliedAt} is null and ${t.status} in ('issued', 'upheld', 'reduced')`),
    check(
      'citations_status_check',
      sql`${t.status} in ('issued', 'paid', 'contested', 'upheld', 'cancelled', 'reduced')`,
    ),
    check('citations_fine_check', sql`${t.fineCents} >= 0 and ${t.lateFeeCents} >= 0`),
    check(
      'citations_paid_check',
      sql`${t.paidCents} >= 0 and ${t.refundedCents} >= 0 and ${t.refundedCents} <= ${t.paidCents}`,
    ),
  ],
);

/**
 * A citation's files: the officer's photos (kind 'photo', at least one per citation) and a
 * contest's attachments (kind 'contest'). The bytes live under DATA_DIR/citation-files, outside the
 * web root, checked by content like support's attachments; served only through authorised routes.
 * A file is uploaded first (citation_id null) and bound when the citation or contest is made.
 */
export const citationFiles = pgTable(
  'citation_files',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    operatorId: integer('operator_id'),
    kind: text('kind').notNull(),
    citationId: integer('citation_id').references(() => citations.id, { onDelete: 'cascade' }),
    uploadedBy: integer('uploaded_by').references(() => members.id, { onDelete: 'set null' }),
    fileName: text('file_name').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('citation_files_citation_idx').on(t.citationId),
    check('citation_files_kind_check', sql`${t.kind} in ('photo', 'contest')`),
    check('citation_files_size_check', sql`${t.size} > 0 and ${t.size} <= 5242880`),
  ],
);

export const CONTEST_DECISIONS = ['upheld', 'cancelled', 'reduced'] as const;
export type ContestDecision = (typeof CONTEST_DECISIONS)[number];

/**
 * A driver's contest of a citation: one per citation (UNIQUE), with the reason and attachments
 * (citation_files of kind 'contest'); a manager's decision, who made it and when.
 */
export const citationContests = pgTable(
  'citation_contests',
  {
    id: serialId(),
    citationId: integer('citation_id')
      .notNull()
      .unique()
      .references(() => citations.id, { onDelete: 'cascade' }),
    memberId: integer('member_id').references(() => members.id, { onDelete: 'set null' }),
    reason: text('reason').notNull(),
    decision: text('decision').$type<ContestDecision>(),
    decisionNote: text('decision_note').notNull().default(''),
    reducedFineCents: integer('reduced_fine_cents'),
    decidedBy: integer('decided_by').references(() => members.id, { onDelete: 'set null' }),
    decidedAt: moment('decided_at'),
    createdAt: createdAt(),
  },
  (t) => [
    check(
      'citation_contests_decision_check',
      sql`${t.decision} is null or ${t.decision} in ('upheld', 'cancelled', 'reduced')`,
    ),
  ],
);
