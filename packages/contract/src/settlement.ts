import { z } from 'zod';
import { OperatorParams } from './operator.ts';
import { WireId } from './vehicle.ts';

/**
 * Settlement (docs/product.md#the-operators-console): a statement per operator per day or month of
 * its time zone (gross, refunds, the platform's fees, net), with the money lines it covers, issued
 * once and never changed; what comes after a statement goes into the next one.
 */
export const SETTLEMENT_MESSAGES = {
  periodInvalid: 'Choose a day or a month',
  startFormat: 'A day is written YYYY-MM-DD and a month YYYY-MM',
  notStarted: 'This period has not started yet',
  outOfOrder: 'A statement for a later period was issued already',
  statementNotFound: 'Statement not found',
} as const;
const M = SETTLEMENT_MESSAGES;

export const SettlementPeriod = z.enum(['day', 'month'], { error: M.periodInvalid });
export type SettlementPeriod = z.infer<typeof SettlementPeriod>;

/** POST /api/Operator/{operatorId}/Statements: the period (a day YYYY-MM-DD or a month YYYY-MM). */
export const IssueStatementRequest = z
  .object({
    Period: SettlementPeriod,
    Start: z.string({ error: M.startFormat }).trim().max(10, M.startFormat),
  })
  .superRefine((r, ctx) => {
    const re = r.Period === 'day' ? /^\d{4}-\d{2}-\d{2}$/ : /^\d{4}-\d{2}$/;
    const day = r.Period === 'day' ? r.Start : `${r.Start}-01`;
    const d = new Date(`${day}T00:00:00Z`);
    if (!re.test(r.Start) || Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== day)
      ctx.addIssue({ code: 'custom', path: ['Start'], message: M.startFormat });
  });
export type IssueStatementRequest = z.input<typeof IssueStatementRequest>;

export const StatementParams = OperatorParams.extend({ statementId: WireId });

export const Statement = z.object({
  StatementId: z.number().int(),
  Period: SettlementPeriod,
  /** The period's first day, YYYY-MM-DD (the operator's time zone). */
  Start: z.string(),
  /** Money moved before this moment, and in no earlier statement, is in it. */
  CutOff: z.string(),
  Gross: z.number(),
  Refunds: z.number(),
  /** The platform's convenience fees, kept. */
  Fees: z.number(),
  /** Gross less refunds and fees: what the operator is paid. */
  Net: z.number(),
  LineCount: z.number().int(),
  IssuedBy: z.string(),
  IssuedAt: z.string(),
});
export type Statement = z.infer<typeof Statement>;
export const StatementList = z.array(Statement);

export const StatementLine = z.object({
  /** 'ledger' (a wallet payment or refund: a ledger entry), 'card-payment' or 'card-refund' (Quick Park). */
  Source: z.enum(['ledger', 'card-payment', 'card-refund']),
  SourceId: z.number().int(),
  SessionId: z.number().int(),
  /** From the operator's side: a payment positive, a refund negative. */
  Amount: z.number(),
  Fee: z.number(),
  At: z.string(),
});
export type StatementLine = z.infer<typeof StatementLine>;

export const StatementDetail = Statement.extend({ Lines: z.array(StatementLine) });
export type StatementDetail = z.infer<typeof StatementDetail>;
