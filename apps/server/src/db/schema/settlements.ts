import { sql } from 'drizzle-orm';
import { bigint, bigserial, check, date, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, moment, ref, serialId } from './columns.ts';
import { members, operatorRef } from './members.ts';

/**
 * Settlement statements (docs/product.md#the-operators-console): what an operator earned over a day
 * or a month of its time zone, issued once and never changed. A statement takes every money line
 * of the operator's sessions made before its cut-off (the period's end, or its issue when that
 * comes first) that no earlier statement of the same kind took: a refund made after a period's
 * statement lands in the next one. UNIQUE (operator, kind, start): issuing a period twice, even at
 * once, gives one statement.
 */
export const settlementStatements = pgTable(
  'settlement_statements',
  {
    id: serialId(),
    operatorId: operatorRef(),
    /** 'day' or 'month'. */
    periodKind: text('period_kind').notNull(),
    /** The period's first day (YYYY-MM-DD, the operator's time zone). */
    periodStart: date('period_start', { mode: 'string' }).notNull(),
    /** Lines made before this moment are in it (the period's end, or its issue if sooner). */
    cutOff: moment('cut_off').notNull(),
    grossCents: integer('gross_cents').notNull(),
    refundsCents: integer('refunds_cents').notNull(),
    feesCents: integer('fees_cents').notNull(),
    netCents: integer('net_cents').notNull(),
    issuedBy: integer('issued_by').references(() => members.id, { onDelete: 'set null' }),
    issuedByName: text('issued_by_name').notNull(),
    issuedAt: createdAt(),
  },
  (t) => [
    check('settlement_statements_kind_check', sql`${t.periodKind} IN ('day', 'month')`),
    check(
      'settlement_statements_sums_check',
      sql`${t.netCents} = ${t.grossCents} - ${t.refundsCents} - ${t.feesCents} AND ${t.grossCents} >= 0 AND ${t.refundsCents} >= 0 AND ${t.feesCents} >= 0`,
    ),
    uniqueIndex('settlement_statements_period_key').on(t.operatorId, t.periodKind, t.periodStart),
  ],
);

/**
 * A statement's lines: each money movement of the operator's sessions it covers, from the
 * operator's side (a payment positive, a refund negative): a ledger entry (a wallet payment or
 * refund), a Quick Park card payment, or a Quick Park card refund. UNIQUE (kind, source, id): a
 * movement is in one statement of each kind, never two.
 */
export const settlementLines = pgTable(
  'settlement_lines',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    statementId: ref('statement_id', () => settlementStatements.id),
    periodKind: text('period_kind').notNull(),
    /** 'ledger' (ledger_entries.id), 'card-payment' (parking_card_payments.id), 'card-refund' (wallet_charges.id). */
    source: text('source').notNull(),
    sourceId: bigint('source_id', { mode: 'number' }).notNull(),
    sessionId: integer('session_id').notNull(),
    amountCents: integer('amount_cents').notNull(),
    /** The platform's convenience fee within a session's first payment (0 in any other line). */
    feeCents: integer('fee_cents').notNull(),
    at: moment('at').notNull(),
  },
  (t) => [
    check('settlement_lines_source_check', sql`${t.source} IN ('ledger', 'card-payment', 'card-refund')`),
    uniqueIndex('settlement_lines_source_key').on(t.periodKind, t.source, t.sourceId),
    index('settlement_lines_statement_idx').on(t.statementId, t.id),
  ],
);
