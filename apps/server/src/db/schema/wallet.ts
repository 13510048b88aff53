import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, moment, ref, serialId, updatedAt } from './columns.ts';
import { memberRef, members, operatorRef } from './members.ts';
import { parkingCardPayments, parkingQuotes } from './parking.ts';

/**
 * The wallet. The balance itself is members.balance_cents (CHECK >= 0, see
 * members.ts); every change of it is one immutable row here, written in the same statement by the
 * database function post_ledger_entry (migration 0023), which wallet/ledger.ts and Start's one
 * statement call, and nothing else.
 */
export const LEDGER_KINDS = [
  'top-up',
  'auto-reload',
  'parking',
  'refund',
  'plan',
  'adjustment',
  'card-refund',
  'citation',
  'citation-refund',
  'permit',
] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    memberId: memberRef(),
    /** Signed: credits positive, debits negative. */
    amountCents: integer('amount_cents').notNull(),
    kind: text('kind').$type<LedgerKind>().notNull(),
    /** What caused it: 'charge:ch_…', 'session:42', 'subscription:7', … */
    reference: text('reference').notNull(),
    /** The Idempotency-Key of the request that moved the money (null for jobs). */
    idempotencyKey: text('idempotency_key'),
    balanceAfterCents: integer('balance_after_cents').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('ledger_entries_member_idx').on(t.memberId, t.id),
    check('ledger_entries_amount_nonzero', sql`${t.amountCents} <> 0`),
    check('ledger_entries_balance_after_nonneg', sql`${t.balanceAfterCents} >= 0`),
    check(
      'ledger_entries_kind',
      sql`${t.kind} in ('top-up', 'auto-reload', 'parking', 'refund', 'plan', 'adjustment', 'card-refund', 'citation', 'citation-refund', 'permit')`,
    ),
  ],
);

/**
 * Auto-reload and provider settings per member. MinBalance (the trigger) stays in
 * members.min_balance_cents, where user_data has always read it.
 */
export const walletSettings = pgTable(
  'wallet_settings',
  {
    memberId: memberRef().primaryKey(),
    autoReload: boolean('auto_reload').notNull().default(false),
    defaultAddAmountCents: integer('default_add_amount_cents').notNull().default(2000),
    /** Set by a debit that left the balance below the trigger; cleared by the reload job. */
    reloadDueAt: moment('reload_due_at'),
    /** The payment provider's customer (Stripe: cus_…); null for the sandbox. */
    providerCustomerId: text('provider_customer_id'),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('wallet_settings_default_add_amount', sql`${t.defaultAddAmountCents} between 500 and 50000`),
    index('wallet_settings_reload_due_idx')
      .on(t.reloadDueAt)
      .where(sql`${t.reloadDueAt} is not null`),
  ],
);

/** Saved cards. Only the provider's reference, brand, last 4 and expiry: never the number. */
export const paymentMethods = pgTable(
  'payment_methods',
  {
    id: serialId(),
    memberId: memberRef(),
    provider: text('provider').notNull(), // 'sandbox' | 'stripe'
    providerRef: text('provider_ref').notNull(),
    brand: text('brand').notNull(),
    last4: text('last4').notNull(),
    expMonth: smallint('exp_month').notNull(),
    expYear: smallint('exp_year').notNull(),
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    index('payment_methods_member_idx').on(t.memberId),
    uniqueIndex('payment_methods_member_ref_key').on(t.memberId, t.providerRef),
    uniqueIndex('payment_methods_one_default_key')
      .on(t.memberId)
      .where(sql`${t.isDefault}`),
    check('payment_methods_last4', sql`${t.last4} ~ '^[0-9]{4}$'`),
  ],
);

/**
 * Idempotency keys of money-moving requests, kept 24 hours per member. The row is inserted in the
 * transaction that moves the money, so a concurrent request with the same key waits on the unique
 * key and then reads the stored answer.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    memberId: memberRef(),
    key: text('key').notNull(),
    /** sha256 of the route and the request body. */
    requestHash: text('request_hash').notNull(),
    statusCode: integer('status_code'),
    response: jsonb('response'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.memberId, t.key] }), index('idempotency_keys_created_idx').on(t.createdAt)],
);

/**
 * The same, for writes an operator's API key sends (the APDS updates, docs/apds.md#idempotency),
 * kept 24 hours per operator: the key's owner is the operator, not a member.
 */
export const operatorIdempotencyKeys = pgTable(
  'operator_idempotency_keys',
  {
    operatorId: operatorRef(),
    key: text('key').notNull(),
    /** sha256 of the route and the request body. */
    requestHash: text('request_hash').notNull(),
    statusCode: integer('status_code'),
    response: jsonb('response'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.operatorId, t.key] }),
    index('operator_idempotency_keys_created_idx').on(t.createdAt),
  ],
);

/** Plans of /subscription, seeded by migration (Basic, Deluxe). */
export const plans = pgTable(
  'plans',
  {
    id: integer('id').primaryKey(),
    code: text('code').notNull().unique(),
    name: text('name').notNull(),
    /** Per month; 0 for the free plan. */
    priceCents: integer('price_cents').notNull(),
    /** Added to every parking session. */
    convenienceFeeCents: integer('convenience_fee_cents').notNull(),
    /** Off zone rates where the operator allows it (percent). */
    zoneDiscountPercent: smallint('zone_discount_percent').notNull().default(0),
    sortOrder: smallint('sort_order').notNull().default(0),
  },
  (t) => [
    check('plans_price_nonneg', sql`${t.priceCents} >= 0`),
    check('plans_fee_nonneg', sql`${t.convenienceFeeCents} >= 0`),
    check('plans_discount_range', sql`${t.zoneDiscountPercent} between 0 and 100`),
  ],
);

/** A member's paid plan. No active row means Basic. */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: serialId(),
    memberId: memberRef(),
    planId: ref('plan_id', () => plans.id),
    status: text('status').notNull(), // 'active' | 'ended'
    currentPeriodStart: moment('current_period_start').notNull(),
    currentPeriodEnd: moment('current_period_end').notNull(),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    createdAt: createdAt(),
    endedAt: moment('ended_at'),
  },
  (t) => [
    uniqueIndex('subscriptions_one_active_key')
      .on(t.memberId)
      .where(sql`${t.status} = 'active'`),
    index('subscriptions_period_end_idx')
      .on(t.currentPeriodEnd)
      .where(sql`${t.status} = 'active'`),
    check('subscriptions_status', sql`${t.status} in ('active', 'ended')`),
  ],
);

/** Stripe webhook events already handled (idempotent on the event id). */
export const providerEvents = pgTable('provider_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: moment('received_at').notNull().defaultNow(),
});

export const WALLET_CHARGE_STATUSES = ['pending', 'recorded'] as const;

/** What a card movement is for: the wallet's two credits, and Quick Park's charges and refunds. */
export const WALLET_CHARGE_KINDS = [
  'top-up',
  'auto-reload',
  'quick-park-start',
  'quick-park-extend',
  'quick-park-refund',
] as const;
export type WalletChargeKind = (typeof WALLET_CHARGE_KINDS)[number];

/**
 * Every card movement, one path (wallet/charges.ts): the wallet's credits (Add Money, auto-reload,
 * a plan's payment: member_id) and Quick Park's card charges (start and extend: quote_id, the
 * claimed quote) and refunds (quick-park-refund: card_payment_id, the charge given back from;
 * provider_ref is then that charge's reference). The row is written 'pending' before the provider
 * is called, outside any transaction, under the provider's idempotency key; the movement is
 * recorded after, in a short transaction that marks it 'recorded'. A row left 'pending' (the
 * process died between the provider's answer and the record) is sent again with the same key by
 * the wallet job, which the provider answers with the first answer, and then recorded.
 */
export const walletCharges = pgTable(
  'wallet_charges',
  {
    id: serialId(),
    memberId: integer('member_id').references(() => members.id, { onDelete: 'cascade' }),
    /** The provider's idempotency key: one charge per key, ever. */
    providerKey: text('provider_key').notNull().unique(),
    kind: text('kind').$type<WalletChargeKind>().notNull(),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull(),
    description: text('description').notNull(),
    /** The card charged (what the provider's charge takes) and the provider's customer; a refund's charge. */
    providerRef: text('provider_ref').notNull(),
    customerRef: text('customer_ref'),
    /**
     * The first charge of a card that later charges reuse (Quick Park's typed card, charged again by
     * Extend): the provider saves it for off-session use (Stripe: under a new customer, written to
     * customer_ref when the charge is recorded).
     */
    saveCard: boolean('save_card').notNull().default(false),
    /** The Idempotency-Key of the request (written on the ledger entry), or null for a job. */
    idempotencyKey: text('idempotency_key'),
    /** Quick Park: the quote a start or extend charge pays. */
    quoteId: uuid('quote_id').references(() => parkingQuotes.id, { onDelete: 'cascade' }),
    /** Quick Park: the card payment a refund gives back from. */
    cardPaymentId: integer('card_payment_id').references(() => parkingCardPayments.id, { onDelete: 'cascade' }),
    status: text('status').$type<(typeof WALLET_CHARGE_STATUSES)[number]>().notNull().default('pending'),
    chargeRef: text('charge_ref'),
    ledgerEntryId: bigint('ledger_entry_id', { mode: 'number' }),
    /** What has been given back to the card from this charge (wallet_refunds: a deleted account's balance). */
    refundedCents: integer('refunded_cents').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    check('wallet_charges_amount_positive', sql`${t.amountCents} > 0`),
    check('wallet_charges_refunded_range', sql`${t.refundedCents} >= 0 AND ${t.refundedCents} <= ${t.amountCents}`),
    check(
      'wallet_charges_kind',
      sql`(${t.kind} in ('top-up', 'auto-reload') and ${t.memberId} is not null)
        or (${t.kind} in ('quick-park-start', 'quick-park-extend') and ${t.quoteId} is not null)
        or (${t.kind} = 'quick-park-refund' and ${t.cardPaymentId} is not null)`,
    ),
    check('wallet_charges_status', sql`${t.status} in ('pending', 'recorded')`),
    index('wallet_charges_pending_idx')
      .on(t.createdAt)
      .where(sql`${t.status} = 'pending'`),
    index('wallet_charges_quote_idx').on(t.quoteId),
    index('wallet_charges_card_payment_idx').on(t.cardPaymentId),
  ],
);

export const WALLET_REFUND_STATUSES = ['pending', 'done', 'failed'] as const;

/**
 * Money given back from the wallet to the card a charge came from (a deleted account's balance:
 * docs/data.md#leaving). The wallet is debited ('card-refund' in the ledger) and the row written
 * 'pending' in one transaction; the provider is called after it, outside any transaction, with
 * provider_key, and the row marked 'done' (or 'failed' when the provider refuses: the operator
 * pays it another way). A row left 'pending' is sent again by the wallet job with the same key.
 * A cancelled citation's refund to the card it was paid with (docs/citations.md) is one too, with
 * credit_on_refusal: a refusal credits the amount back to the wallet.
 */
export const walletRefunds = pgTable(
  'wallet_refunds',
  {
    id: serialId(),
    memberId: memberRef(),
    chargeId: ref('charge_id', () => walletCharges.id),
    amountCents: integer('amount_cents').notNull(),
    providerKey: text('provider_key').notNull().unique(),
    status: text('status').$type<(typeof WALLET_REFUND_STATUSES)[number]>().notNull().default('pending'),
    refundRef: text('refund_ref'),
    ledgerEntryId: bigint('ledger_entry_id', { mode: 'number' }).notNull(),
    /** A refusal credits the amount back to the wallet (a citation's refund), rather than ending there. */
    creditOnRefusal: boolean('credit_on_refusal').notNull().default(false),
    createdAt: createdAt(),
    settledAt: moment('settled_at'),
  },
  (t) => [
    check('wallet_refunds_amount_positive', sql`${t.amountCents} > 0`),
    check('wallet_refunds_status', sql`${t.status} in ('pending', 'done', 'failed')`),
    index('wallet_refunds_member_idx').on(t.memberId),
    index('wallet_refunds_pending_idx')
      .on(t.createdAt)
      .where(sql`${t.status} = 'pending'`),
  ],
);
