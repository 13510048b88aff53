import { sql } from 'drizzle-orm';
import { boolean, check, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, moment, position, ref, serialId, updatedAt } from './columns.ts';

/** Parking operators: the spec's client_id. */
export const operators = pgTable(
  'operators',
  {
    id: serialId(),
    name: text('name').notNull(),
    city: text('city').notNull(),
    state: text('state').notNull(),
    /** City centre: where Find Parking looks when the driver's position is unknown. */
    ...position(),
    timezone: text('timezone').notNull(),
    /** Whether the console shows drivers' plates in full (the operator opted in); otherwise they are masked. */
    showPlates: boolean('show_plates').notNull().default(false),
    /** Minutes after a paid session ends that the plate check still counts it (enforcement/rights.ts). */
    graceMinutes: integer('grace_minutes').notNull().default(0),
    /** Weeks after which plates in plate checks and expired permits are anonymised (enforcement/retention.ts). */
    retentionWeeks: integer('retention_weeks').notNull().default(13),
    createdAt: createdAt(),
  },
  (t) => [check('operators_retention_weeks_check', sql`${t.retentionWeeks} BETWEEN 1 AND 520`)],
);

export const members = pgTable(
  'members',
  {
    id: serialId(),
    clientId: integer('client_id')
      .notNull()
      .references(() => operators.id),
    userName: text('user_name').notNull(),
    email: text('email').notNull(),
    phone: text('phone').notNull(),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    passwordHash: text('password_hash').notNull(),
    addressLine1: text('address_line1').notNull().default(''),
    addressLine2: text('address_line2').notNull().default(''),
    city: text('city').notNull().default(''),
    state: text('state').notNull().default(''),
    zipCode: text('zip_code').notNull().default(''),
    balanceCents: integer('balance_cents').notNull().default(0),
    minBalanceCents: integer('min_balance_cents').notNull().default(0),
    phoneVerifiedAt: moment('phone_verified_at'),
    /** The app's language at the last sign-in or language change (en, hi or es): the SMS are written in it. */
    language: text('language').notNull().default('en'),
    /** Carried in every access token (claim sv); logout and a password change raise it. */
    sessionVersion: integer('session_version').notNull().default(0),
    /**
     * What GET /api/Account/Details shows of other tables, kept on the member's row by triggers
     * (migration 0020) so that Details reads one row by its key: the number of vehicles;
     * the wallet settings' auto-reload and default amount (null: never saved); the default card;
     * the active subscription's plan (null: Basic). Never written by the application.
     */
    vehicleCount: integer('vehicle_count').notNull().default(0),
    walletAutoReload: boolean('wallet_auto_reload'),
    walletDefaultAddAmountCents: integer('wallet_default_add_amount_cents'),
    defaultCardId: integer('default_card_id'),
    defaultCardBrand: text('default_card_brand'),
    defaultCardLast4: text('default_card_last4'),
    activePlanId: integer('active_plan_id'),
    /**
     * When the member deleted their account (docs/data.md#leaving): the row stays, anonymised, so
     * the ledger and the receipts an operator must keep still point at it; nothing signs in as it.
     */
    deletedAt: moment('deleted_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // Case-insensitive uniqueness: 'Alice' and 'alice' are one account.
    uniqueIndex('members_user_name_key').on(sql`lower(${t.userName})`),
    uniqueIndex('members_email_key').on(sql`lower(${t.email})`),
    uniqueIndex('members_phone_key').on(t.phone),
    // The wallet balance never goes below zero: the database refuses it, not only code.
    check('members_balance_nonneg', sql`${t.balanceCents} >= 0`),
    check('members_min_balance_nonneg', sql`${t.minBalanceCents} >= 0`),
    check('members_language_check', sql`${t.language} IN ('en', 'hi', 'es')`),
  ],
);

/** operator_id: the operator a row belongs to. */
export function operatorRef() {
  return ref('operator_id', () => operators.id);
}

/** A member's row in another table (member_id unless named): deleted with the member. */
export function memberRef(name = 'member_id') {
  return ref(name, () => members.id, 'cascade');
}

/** Default Parking Options of the profile screen, saved per member and applied by the server. */
export const parkingOptions = pgTable('parking_options', {
  memberId: memberRef().primaryKey(),
  autoStart: boolean('auto_start').notNull().default(false),
  autoExtend: boolean('auto_extend').notNull().default(false),
  maxPaymentEnabled: boolean('max_payment_enabled').notNull().default(false),
  maxPaymentCents: integer('max_payment_cents').notNull().default(2000),
  updatedAt: updatedAt(),
});
