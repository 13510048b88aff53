import { z } from 'zod';
import { Id, pageLimit, text } from './common.ts';
import { amountToCents } from './money.ts';
import { OperatorParams } from './operator.ts';
import { WireId } from './vehicle.ts';

/**
 * The console's sessions and refunds (docs/product.md#the-operators-console): find a session of the
 * operator's zones, see what was paid and refunded, and refund it wholly or partly with a reason
 * (/api/Operator/{operatorId}/Sessions).
 */
export const OPERATOR_SESSION_MESSAGES = {
  sessionNotFound: 'Session not found',
  sessionRunning: 'A running session is refunded by stopping it',
  nothingLeft: 'Nothing is left to refund on this session',
  overRefund: 'This is more than is left to refund on this session',
  amountOrWhole: 'Enter an amount or choose the whole amount',
  amountFormat: 'Enter an amount such as 2.50, more than 0',
  reasonRequired: 'Enter the reason for the refund',
  dateFormat: 'Dates are written YYYY-MM-DD',
  refunded: 'Refunded',
} as const;
const M = OPERATOR_SESSION_MESSAGES;

export const OperatorSessionParams = OperatorParams.extend({ sessionId: WireId });

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, M.dateFormat)
  .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)), M.dateFormat);

/** GET /api/Operator/{operatorId}/Sessions: newest first, by zone, started on or between days (the operator's time), plate. */
export const OperatorSessionQuery = z.object({
  zoneId: Id.optional(),
  from: day.optional(),
  to: day.optional(),
  plate: z.string().trim().max(20, 'At most 20 characters').default(''),
  /** Pass a page's Next to read older sessions. */
  before: Id.optional(),
  limit: pageLimit(100),
});
export type OperatorSessionQuery = z.input<typeof OperatorSessionQuery>;

export const OperatorSession = z.object({
  SessionId: z.number().int(),
  ZoneId: z.number().int(),
  ZoneNumber: z.string(),
  /** The plate in full when the operator opted in to seeing plates, else masked but its last two characters. */
  PlateNumber: z.string(),
  PlateState: z.string(),
  StartedAt: z.string(),
  EndsAt: z.string(),
  EndedAt: z.string().nullable(),
  Status: z.enum(['active', 'ended']),
  /** 'Wallet' or 'Card' (Quick Park). */
  PaidVia: z.string(),
  ParkingAmount: z.number(),
  FeeAmount: z.number(),
  /** Everything refunded: unused time at Stop and the console's refunds. */
  RefundedAmount: z.number(),
  /** What the driver paid, less refunds. */
  AmountPaid: z.number(),
  /** What a refund may still give back (0 while the session runs). */
  Refundable: z.number(),
});
export type OperatorSession = z.infer<typeof OperatorSession>;

export const OperatorSessionPage = z.object({
  Sessions: z.array(OperatorSession),
  Next: z.number().int().nullable(),
});
export type OperatorSessionPage = z.infer<typeof OperatorSessionPage>;

export const SessionRefund = z.object({
  RefundId: z.number().int(),
  Amount: z.number(),
  Reason: z.string(),
  By: z.string(),
  At: z.string(),
});
export type SessionRefund = z.infer<typeof SessionRefund>;

export const OperatorSessionDetail = OperatorSession.extend({ Refunds: z.array(SessionRefund) });
export type OperatorSessionDetail = z.infer<typeof OperatorSessionDetail>;

const RefundAmount = z
  .union([z.number(), z.string().max(20, M.amountFormat)], { error: M.amountFormat })
  .transform((v, ctx) => {
    const cents = amountToCents(v);
    if (cents === null || cents <= 0 || cents > 10_000_000) {
      ctx.addIssue(M.amountFormat);
      return z.NEVER;
    }
    return cents;
  });

/**
 * POST /api/Operator/{operatorId}/Sessions/{sessionId}/Refund (with an Idempotency-Key): an Amount
 * (decimal, parsed to cents) or Whole: true for all that is left, and the Reason.
 */
export const RefundRequest = z
  .object({
    Amount: RefundAmount.optional(),
    Whole: z.boolean({ error: M.amountOrWhole }).optional(),
    Reason: text(500, M.reasonRequired),
  })
  .superRefine((r, ctx) => {
    if ((r.Amount === undefined) === (r.Whole !== true))
      ctx.addIssue({ code: 'custom', path: ['Amount'], message: M.amountOrWhole });
  });
export type RefundRequest = z.input<typeof RefundRequest>;

export const RefundResponse = z.object({
  RefundId: z.number().int(),
  SessionId: z.number().int(),
  Amount: z.number(),
  RefundedAmount: z.number(),
  Refundable: z.number(),
  PaidVia: z.string(),
  message: z.string(),
});
export type RefundResponse = z.infer<typeof RefundResponse>;
