import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  pgTable,
  smallint,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, moment, ref, serialId, updatedAt } from './columns.ts';
import { members, operatorRef } from './members.ts';
import { vehicles } from './vehicles.ts';
import { zones } from './zones.ts';
import { pricePolicyVersions } from './pricing.ts';

/** Whose session or quote: a member's, or a Quick Park guest's phone (until that phone registers). */
function owner() {
  return {
    memberId: integer('member_id').references(() => members.id, { onDelete: 'cascade' }),
    guestPhone: text('guest_phone'),
  };
}

/**
 * Parking sessions. A member's session has member_id; a Quick Park session (no account)
 * has guest_phone instead, and gets member_id when that phone registers later. Vehicle and zone
 * facts are copied at start (and on Amend) so a receipt stays true when the vehicle is edited or
 * deleted. Money is integer cents: amount_paid_cents = parking_cents + fee_cents - refunded_cents.
 */
export const parkingSessions = pgTable(
  'parking_sessions',
  {
    id: serialId(),
    ...owner(),
    operatorId: operatorRef(),
    zoneId: ref('zone_id', () => zones.id),
    vehicleId: integer('vehicle_id').references(() => vehicles.id, { onDelete: 'set null' }),
    vehicleMake: text('vehicle_make').notNull(),
    vehicleModel: text('vehicle_model').notNull(),
    plate: text('plate').notNull(),
    plateState: text('plate_state').notNull(),
    startedAt: moment('started_at').notNull(),
    endsAt: moment('ends_at').notNull(),
    /** When it really ended: Stop, or ends_at once the expiry job has run. */
    endedAt: moment('ended_at'),
    /** Minutes bought, extensions included. */
    durationMinutes: integer('duration_minutes').notNull(),
    /** Minutes of the first purchase: Auto Extend extends by this much each time. */
    initialMinutes: integer('initial_minutes').notNull(),
    /** The zone's hourly rate when the session started (or was amended): extensions and refunds use it. */
    rateCents: integer('rate_cents').notNull(),
    parkingCents: integer('parking_cents').notNull(),
    feeCents: integer('fee_cents').notNull(),
    refundedCents: integer('refunded_cents').notNull().default(0),
    /** The plan's discount on the zone rate when the session started (Deluxe 10%); extensions, amends and refunds use it. */
    discountPercent: smallint('discount_percent').notNull().default(0),
    /** The policy version that prices the session, its extensions and refunds; none: the zone's preset at rate_cents. */
    policyVersionId: integer('policy_version_id').references(() => pricePolicyVersions.id),
    /** 'Wallet' or 'Card' (Quick Park). */
    paidVia: text('paid_via').notNull(),
    /**
     * Quick Park: the typed card the guest paid with (sandbox token or Stripe pm_…), charged again by
     * Extend, and the provider's customer it was saved under on its first charge (Stripe cus_…, which
     * Extend charges it off-session under; null for the sandbox). An express wallet's card: neither.
     */
    cardRef: text('card_ref'),
    cardCustomerRef: text('card_customer_ref'),
    /**
     * The saved card's forgetting (parking/saved-cards.ts), once the session can no longer be
     * extended: claimed by a job until this moment (null: not claimed), so no other process deletes
     * its customer meanwhile; card_ref and card_customer_ref are cleared once the provider has.
     */
    cardForgetAt: moment('card_forget_at'),
    /** 'active' | 'ended' */
    status: text('status').notNull().default('active'),
    autoSessionUsed: boolean('auto_session_used').notNull().default(false),
    autoExtendedUsed: boolean('auto_extended_used').notNull().default(false),
    /** Jobs: the 10-minute reminder sent for the current ends_at; the end notice sent. */
    reminderSentAt: moment('reminder_sent_at'),
    endNoticeSentAt: moment('end_notice_sent_at'),
    /** The ends_at the auto-extend job last looked at (so a refusal is not retried every tick). */
    autoExtendCheckedEndsAt: moment('auto_extend_checked_ends_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('parking_sessions_owner_check', sql`${t.memberId} IS NOT NULL OR ${t.guestPhone} IS NOT NULL`),
    check('parking_sessions_status_check', sql`${t.status} IN ('active', 'ended')`),
    check(
      'parking_sessions_money_check',
      sql`${t.parkingCents} >= 0 AND ${t.feeCents} >= 0 AND ${t.refundedCents} >= 0 AND ${t.refundedCents} <= ${t.parkingCents} + ${t.feeCents}`,
    ),
    check('parking_sessions_time_check', sql`${t.endsAt} > ${t.startedAt} AND ${t.durationMinutes} > 0`),
    // Past Parkings pages by (started_at, id) newest first (issue 12's keyset paging).
    index('parking_sessions_member_started_idx').on(t.memberId, t.startedAt.desc(), t.id.desc()),
    // Its distance sorts: the member's distinct zones (a loose index scan), then each zone's sessions newest first.
    index('parking_sessions_member_zone_idx').on(t.memberId, t.zoneId, t.startedAt.desc(), t.id.desc()),
    // Its vehicle filter, newest/oldest: the vehicle's sessions in the page's order, however rarely the member uses it.
    index('parking_sessions_member_vehicle_started_idx').on(t.memberId, t.vehicleId, t.startedAt.desc(), t.id.desc()),
    index('parking_sessions_guest_idx').on(t.guestPhone),
    // The operator's report CSV and its raw-scan baseline (docs/reports.md): one operator's sessions by start.
    index('parking_sessions_operator_started_idx').on(t.operatorId, t.startedAt),
    // The CDS events feed's park_end events: one operator's ended sessions by end time, in a window.
    index('parking_sessions_operator_ended_idx')
      .on(t.operatorId, t.endedAt)
      .where(sql`${t.status} = 'ended'`),
    // The saved cards still kept (parking/saved-cards.ts): few rows, those of running typed-card
    // sessions and of ended ones not yet forgotten; by customer, for the check that none of a
    // customer's sessions still runs.
    index('parking_sessions_saved_card_idx')
      .on(t.cardCustomerRef)
      .where(sql`${t.cardRef} IS NOT NULL`),
    index('parking_sessions_active_ends_idx')
      .on(t.endsAt)
      .where(sql`${t.status} = 'active'`),
    // The plate check and the officers' rights download (enforcement/rights.ts, rights-list.ts): a
    // zone's running sessions, by the plate as the check compares it. Without it both read every
    // running session of every operator (13,000 at 1M sessions: 5 ms a check, bench enforcement).
    index('parking_sessions_active_zone_plate_idx')
      .on(t.zoneId, sql`regexp_replace(upper(${t.plate}), '[[:space:].·-]', '', 'g')`)
      .where(sql`${t.status} = 'active'`),
    // One active session per vehicle, for members' vehicles and for Quick Park plates.
    uniqueIndex('parking_sessions_active_vehicle_key')
      .on(t.vehicleId)
      .where(sql`${t.status} = 'active' AND ${t.vehicleId} IS NOT NULL`),
    uniqueIndex('parking_sessions_active_guest_plate_key')
      .on(t.guestPhone, t.plate, t.plateState)
      .where(sql`${t.status} = 'active' AND ${t.memberId} IS NULL`),
  ],
);

/**
 * A price held for 5 minutes: Start or Extend charges exactly this total. kind 'start' names a
 * zone and vehicle; kind 'extend' names a session and the ends_at it extends (a quote made before
 * another extension no longer applies). used_at is set once, by the request that spends it.
 */
export const parkingQuotes = pgTable(
  'parking_quotes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ...owner(),
    kind: text('kind').notNull(),
    zoneId: ref('zone_id', () => zones.id),
    vehicleId: integer('vehicle_id').references(() => vehicles.id, { onDelete: 'cascade' }),
    sessionId: integer('session_id').references(() => parkingSessions.id, { onDelete: 'cascade' }),
    /** Quick Park: the plate typed by the guest (members' quotes name a vehicle instead). */
    plate: text('plate'),
    plateState: text('plate_state'),
    startsAt: moment('starts_at').notNull(),
    endsAt: moment('ends_at').notNull(),
    durationMinutes: integer('duration_minutes').notNull(),
    parkingCents: integer('parking_cents').notNull(),
    feeCents: integer('fee_cents').notNull(),
    totalCents: integer('total_cents').notNull(),
    /** The plan's zone discount in parking_cents (percent). */
    discountPercent: smallint('discount_percent').notNull().default(0),
    /** The policy version the quote was priced by (Start copies it to the session); none: the zone's preset. */
    policyVersionId: integer('policy_version_id').references(() => pricePolicyVersions.id),
    autoStart: boolean('auto_start').notNull().default(false),
    expiresAt: moment('expires_at').notNull(),
    usedAt: moment('used_at'),
    createdAt: createdAt(),
  },
  (t) => [
    check('parking_quotes_kind_check', sql`${t.kind} IN ('start', 'extend')`),
    check(
      'parking_quotes_money_check',
      sql`${t.totalCents} = ${t.parkingCents} + ${t.feeCents} AND ${t.parkingCents} >= 0 AND ${t.feeCents} >= 0`,
    ),
    index('parking_quotes_member_idx').on(t.memberId, t.createdAt),
  ],
);

/**
 * Quick Park card payments: each charge of a guest's session (start, extensions) with
 * what was refunded from it, so Stop refunds the unused minutes through the provider, newest
 * charge first, never more than a charge took.
 */
export const parkingCardPayments = pgTable(
  'parking_card_payments',
  {
    id: serialId(),
    sessionId: ref('session_id', () => parkingSessions.id, 'cascade'),
    chargeRef: text('charge_ref').notNull(),
    amountCents: integer('amount_cents').notNull(),
    refundedCents: integer('refunded_cents').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    check(
      'parking_card_payments_money_check',
      sql`${t.amountCents} > 0 AND ${t.refundedCents} >= 0 AND ${t.refundedCents} <= ${t.amountCents}`,
    ),
    index('parking_card_payments_session_idx').on(t.sessionId),
    uniqueIndex('parking_card_payments_charge_key').on(t.chargeRef),
  ],
);

/**
 * Refunds an operator's manager gave from the console (docs/product.md#the-operators-console): who,
 * how much, why. The session's refunded_cents counts them with Stop's (its CHECK keeps the total at
 * or under what was paid); a wallet-paid one is a 'refund' ledger entry (ledger_entry_id), a
 * card-paid one a quick-park-refund card movement (wallet_charges, provider key
 * `operator-refund:<id>:<charge>`).
 */
export const sessionRefunds = pgTable(
  'session_refunds',
  {
    id: serialId(),
    operatorId: operatorRef(),
    sessionId: ref('session_id', () => parkingSessions.id, 'cascade'),
    /** The staff member who gave it (null once their account is gone; actor_name stays). */
    actorId: integer('actor_id').references(() => members.id, { onDelete: 'set null' }),
    actorName: text('actor_name').notNull(),
    amountCents: integer('amount_cents').notNull(),
    reason: text('reason').notNull(),
    /** 'Wallet' or 'Card', as the session was paid. */
    paidVia: text('paid_via').notNull(),
    ledgerEntryId: bigint('ledger_entry_id', { mode: 'number' }),
    createdAt: createdAt(),
  },
  (t) => [
    check('session_refunds_amount_check', sql`${t.amountCents} > 0`),
    index('session_refunds_session_idx').on(t.sessionId),
    index('session_refunds_operator_idx').on(t.operatorId, t.createdAt),
  ],
);
