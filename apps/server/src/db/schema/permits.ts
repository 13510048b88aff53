import { sql } from 'drizzle-orm';
import { boolean, check, date, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, moment, serialId, updatedAt } from './columns.ts';
import { memberRef, members, operatorRef } from './members.ts';
import { supportAttachments } from './support.ts';

/** The kinds of permit an operator may define. */
export const PERMIT_KINDS = ['resident', 'visitor', 'business', 'disabled', 'ev'] as const;
export type PermitKind = (typeof PERMIT_KINDS)[number];

/**
 * A permit's life: pending (applied, waiting for a manager), refused (with a reason), approved
 * (waiting for payment), active (paid, or free, for its validity window). "Expired" is an active
 * permit past valid_until: it is said on read, never written, so no job has to run for it.
 */
export const PERMIT_STATUSES = ['pending', 'approved', 'refused', 'active'] as const;
export type PermitStatus = (typeof PERMIT_STATUSES)[number];

/**
 * An operator's permit types (docs/permits.md): which zones a permit of the type covers, for how
 * many months, at what price, whether proof is needed, how many plates it may carry and, for a
 * resident type, how many visitor days a month it gives.
 */
export const permitTypes = pgTable(
  'permit_types',
  {
    id: serialId(),
    operatorId: operatorRef(),
    kind: text('kind').$type<PermitKind>().notNull(),
    name: text('name').notNull(),
    /** The operator's zones it covers (ids; checked against the operator's zones when written). */
    zoneIds: integer('zone_ids').array().notNull(),
    validMonths: integer('valid_months').notNull(),
    priceCents: integer('price_cents').notNull(),
    proofRequired: boolean('proof_required').notNull().default(false),
    maxPlates: integer('max_plates').notNull().default(1),
    /** Visitor days a month a permit of this type gives (resident types only; 0 otherwise). */
    visitorDaysPerMonth: integer('visitor_days_per_month').notNull().default(0),
    /** A retired type takes no new applications; its permits stay. */
    retiredAt: moment('retired_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('permit_types_operator_idx').on(t.operatorId, t.id),
    check('permit_types_kind_check', sql`${t.kind} IN ('resident', 'visitor', 'business', 'disabled', 'ev')`),
    check('permit_types_months_check', sql`${t.validMonths} BETWEEN 1 AND 36`),
    check('permit_types_price_check', sql`${t.priceCents} BETWEEN 0 AND 10000000`),
    check('permit_types_plates_check', sql`${t.maxPlates} BETWEEN 1 AND 10`),
    check(
      'permit_types_visitor_days_check',
      sql`${t.visitorDaysPerMonth} BETWEEN 0 AND 31 AND (${t.kind} = 'resident' OR ${t.visitorDaysPerMonth} = 0)`,
    ),
    check('permit_types_zones_check', sql`cardinality(${t.zoneIds}) BETWEEN 1 AND 500`),
  ],
);

/**
 * A member's permit (an application until approved): its plates (normalised, up to the type's
 * limit) and zones (the type's, or some of them), the validity window once active, the proof
 * attached (a support attachment: checked by content, stored outside the web root) and the ledger
 * entry that paid it.
 */
export const permits = pgTable(
  'permits',
  {
    id: serialId(),
    operatorId: operatorRef(),
    typeId: integer('type_id')
      .notNull()
      .references(() => permitTypes.id),
    memberId: integer('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    plates: text('plates').array().notNull(),
    zoneIds: integer('zone_ids').array().notNull(),
    status: text('status').$type<PermitStatus>().notNull().default('pending'),
    refusalReason: text('refusal_reason'),
    proofAttachmentId: uuid('proof_attachment_id').references(() => supportAttachments.id, { onDelete: 'set null' }),
    /** The price when applied (a later change of the type does not change it). */
    priceCents: integer('price_cents').notNull(),
    validFrom: moment('valid_from'),
    validUntil: moment('valid_until'),
    /** The wallet's ledger entry that paid it (null: free or not paid yet). */
    ledgerEntryId: integer('ledger_entry_id'),
    decidedBy: integer('decided_by'),
    decidedAt: moment('decided_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('permits_operator_idx').on(t.operatorId, t.status, t.id),
    index('permits_member_idx').on(t.memberId, t.id),
    // The rights check (enforcement/rights.ts) looks an active permit up by plate.
    index('permits_active_plates_idx')
      .using('gin', t.plates)
      .where(sql`${t.status} = 'active'`),
    // The officers' rights download (enforcement/rights-list.ts) finds the active permits of some zones.
    index('permits_active_zones_idx')
      .using('gin', t.zoneIds)
      .where(sql`${t.status} = 'active'`),
    check('permits_status_check', sql`${t.status} IN ('pending', 'approved', 'refused', 'active')`),
    check('permits_plates_check', sql`cardinality(${t.plates}) BETWEEN 1 AND 10`),
    check('permits_zones_check', sql`cardinality(${t.zoneIds}) >= 1`),
    check('permits_price_check', sql`${t.priceCents} >= 0`),
    check(
      'permits_active_window_check',
      sql`${t.status} <> 'active' OR (${t.validFrom} IS NOT NULL AND ${t.validUntil} > ${t.validFrom})`,
    ),
    check('permits_refused_reason_check', sql`${t.status} <> 'refused' OR ${t.refusalReason} IS NOT NULL`),
  ],
);

/**
 * A visitor day: a resident's permit lets a plate park in the permit's zones for one date (the
 * operator's local date). The month's count is enforced under a lock on the permit's row
 * (permits/visitor-days.ts); one plate gets one day per permit and date.
 */
export const visitorDays = pgTable(
  'visitor_days',
  {
    id: serialId(),
    operatorId: operatorRef(),
    permitId: integer('permit_id')
      .notNull()
      .references(() => permits.id, { onDelete: 'cascade' }),
    memberId: memberRef(),
    plate: text('plate').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('visitor_days_permit_plate_day_key').on(t.permitId, t.plate, t.day),
    index('visitor_days_plate_day_idx').on(t.plate, t.day),
    index('visitor_days_permit_day_idx').on(t.permitId, t.day),
    // The officers' rights download: an operator's visitor days of one date.
    index('visitor_days_operator_day_idx').on(t.operatorId, t.day),
  ],
);
