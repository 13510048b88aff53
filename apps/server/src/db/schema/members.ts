import { sql } from 'drizzle-orm';
import { boolean, check, doublePrecision, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** Parking operators: the spec's client_id. */
export const operators = pgTable('operators', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  city: text('city').notNull(),
  state: text('state').notNull(),
  /** City centre: where Find Parking looks when the driver's position is unknown. */
  lat: doublePrecision('lat').notNull(),
  lng: doublePrecision('lng').notNull(),
  timezone: text('timezone').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const members = pgTable(
  'members',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id').notNull().references(() => operators.id),
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
    phoneVerifiedAt: timestamp('phone_verified_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Case-insensitive uniqueness: 'Alice' and 'alice' are one account.
    uniqueIndex('members_user_name_key').on(sql`lower(${t.userName})`),
    uniqueIndex('members_email_key').on(sql`lower(${t.email})`),
    uniqueIndex('members_phone_key').on(t.phone),
    // The wallet balance never goes below zero (issue 10): the database refuses it, not only code.
    check('members_balance_nonneg', sql`${t.balanceCents} >= 0`),
    check('members_min_balance_nonneg', sql`${t.minBalanceCents} >= 0`),
  ],
);

/** Default Parking Options of the profile screen, saved per member and applied by the server. */
export const parkingOptions = pgTable('parking_options', {
  memberId: integer('member_id')
    .primaryKey()
    .references(() => members.id, { onDelete: 'cascade' }),
  autoStart: boolean('auto_start').notNull().default(false),
  autoExtend: boolean('auto_extend').notNull().default(false),
  maxPaymentEnabled: boolean('max_payment_enabled').notNull().default(false),
  maxPaymentCents: integer('max_payment_cents').notNull().default(2000),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
