import { z } from 'zod';
import { Id, text } from './common.ts';
import { amountToCents } from './money.ts';
import { OperatorParams } from './operator.ts';
import { AddVehicleRequest, WireId } from './vehicle.ts';

/**
 * Citations (docs/citations.md): an operator's violations, an officer's citation of a
 * plate (refused when a right to park covers it), a manager's decision on a contest, and the
 * driver's side: see, pay from the wallet, contest.
 */
export const CITATION_MESSAGES = {
  violationNotFound: 'Violation not found',
  citationNotFound: 'Citation not found',
  zoneNotFound: 'Zone not found',
  fileNotFound: 'File not found',
  codeTaken: 'This code is already in the list',
  codeRequired: 'Enter a code',
  descriptionRequired: 'Enter a description',
  amountFormat: 'Enter an amount such as 25.00, more than 0',
  lateFeeFormat: 'Enter an amount such as 10.00, or 0',
  dueDaysRange: 'Enter a number of days from 1 to 365',
  photoRequired: 'Add at least one photo',
  photoNotFound: 'A photo was not found, or is already used',
  rightCovers: 'This plate has a right to park here now: it cannot be cited',
  notPayable: 'This citation has nothing to pay',
  notContestable: 'This citation can no longer be contested',
  alreadyContested: 'This citation is already contested',
  reasonRequired: 'Enter the reason',
  noContest: 'This citation has no contest waiting for a decision',
  decisionInvalid: 'Choose upheld, cancelled or reduced',
  reducedFineRequired: 'Enter the new fine, less than the fine',
  paid: 'Paid',
} as const;
const M = CITATION_MESSAGES;

const money = (message: string, min: number) =>
  z.union([z.number(), z.string().max(20, message)], { error: message }).transform((v, ctx) => {
    const cents = amountToCents(v);
    if (cents === null || cents < min || cents > 10_000_000) {
      ctx.addIssue(message);
      return z.NEVER;
    }
    return cents;
  });

export const ViolationParams = OperatorParams.extend({ violationId: WireId });
export const OperatorCitationParams = OperatorParams.extend({ citationId: WireId });
export const OperatorCitationFileParams = OperatorCitationParams.extend({
  fileId: z.string().uuid(M.fileNotFound),
});
export const CitationParams = z.object({ citationId: WireId });
export const CitationFileParams = CitationParams.extend({ fileId: z.string().uuid(M.fileNotFound) });

/** POST /api/Operator/{operatorId}/Violations and .../Violations/{violationId} (a change). */
export const ViolationRequest = z.object({
  Code: text(20, M.codeRequired),
  Description: text(200, M.descriptionRequired),
  Fine: money(M.amountFormat, 1),
  DueDays: z.coerce
    .number({ error: M.dueDaysRange })
    .int(M.dueDaysRange)
    .min(1, M.dueDaysRange)
    .max(365, M.dueDaysRange),
  LateFee: money(M.lateFeeFormat, 0).default(0),
});
export type ViolationRequest = z.input<typeof ViolationRequest>;

export const Violation = z.object({
  ViolationId: z.number().int(),
  Code: z.string(),
  Description: z.string(),
  Fine: z.number(),
  DueDays: z.number().int(),
  LateFee: z.number(),
  Retired: z.boolean(),
});
export type Violation = z.infer<typeof Violation>;
export const ViolationList = z.array(Violation);

export const CitationFile = z.object({
  FileId: z.string(),
  Kind: z.enum(['photo', 'contest']),
  FileName: z.string(),
  ContentType: z.string(),
  Size: z.number().int(),
});
export type CitationFile = z.infer<typeof CitationFile>;

export const CITATION_STATUSES = ['issued', 'paid', 'contested', 'upheld', 'cancelled', 'reduced'] as const;
export const CitationStatus = z.enum(CITATION_STATUSES);
export type CitationStatus = z.infer<typeof CitationStatus>;

export const Contest = z.object({
  Reason: z.string(),
  CreatedAt: z.string(),
  Decision: z.enum(['upheld', 'cancelled', 'reduced']).nullable(),
  DecisionNote: z.string(),
  DecidedBy: z.string().nullable(),
  DecidedAt: z.string().nullable(),
});
export type Contest = z.infer<typeof Contest>;

/** A citation as the console and the driver see it. Amounts in the currency (2 decimals). */
export const Citation = z.object({
  CitationId: z.number().int(),
  ZoneId: z.number().int(),
  ZoneNumber: z.string(),
  PlateNumber: z.string(),
  PlateState: z.string(),
  ViolationCode: z.string(),
  ViolationDescription: z.string(),
  Fine: z.number(),
  /** Added once after the due date (0 until then). */
  LateFee: z.number(),
  /** What is to pay now: the fine, plus the late fee once applied; 0 once paid or cancelled. */
  AmountDue: z.number(),
  AmountPaid: z.number(),
  Refunded: z.number(),
  Officer: z.string(),
  IssuedAt: z.string(),
  Location: z.string(),
  Status: CitationStatus,
  DueAt: z.string(),
  Files: z.array(CitationFile),
  Contest: Contest.nullable(),
});
export type Citation = z.infer<typeof Citation>;
export const CitationList = z.array(Citation);

/** POST /api/Operator/{operatorId}/Citations: PhotoIds from .../Citations/Photos (at least one). */
export const IssueCitationRequest = z.object({
  ZoneId: Id,
  PlateNumber: AddVehicleRequest.shape.PlateNumber,
  PlateState: AddVehicleRequest.shape.PlateState,
  ViolationId: Id,
  Location: z.string().trim().max(200, 'At most 200 characters').default(''),
  PhotoIds: z
    .array(z.string().uuid(M.photoNotFound), { error: M.photoRequired })
    .min(1, M.photoRequired)
    .max(10, 'At most 10 photos'),
  /**
   * When the officer saw the vehicle, for a citation written offline and sent later (ISO 8601);
   * absent: now. Refused when in the future or more than 24 hours ago.
   */
  ObservedAt: z.iso.datetime({ offset: true, error: 'ObservedAt must be a date and time (ISO 8601)' }).optional(),
});
export type IssueCitationRequest = z.input<typeof IssueCitationRequest>;

export const OperatorCitationQuery = z.object({
  status: CitationStatus.optional(),
});

/** POST /api/Operator/{operatorId}/Citations/{citationId}/Decide */
export const DecideContestRequest = z
  .object({
    Decision: z.enum(['upheld', 'cancelled', 'reduced'], { error: M.decisionInvalid }),
    /** The new fine of a reduced citation. */
    NewFine: money(M.reducedFineRequired, 0).optional(),
    Note: z.string().trim().max(500, 'At most 500 characters').default(''),
  })
  .superRefine((r, ctx) => {
    if ((r.Decision === 'reduced') !== (r.NewFine !== undefined))
      ctx.addIssue({ code: 'custom', path: ['NewFine'], message: M.reducedFineRequired });
  });
export type DecideContestRequest = z.input<typeof DecideContestRequest>;

/** POST /api/Citations/{citationId}/Contest: AttachmentIds from /api/Citations/Attachment. */
export const ContestRequest = z.object({
  Reason: text(1000, M.reasonRequired),
  AttachmentIds: z.array(z.string().uuid(M.fileNotFound)).max(5, 'At most 5 attachments').default([]),
});
export type ContestRequest = z.input<typeof ContestRequest>;

export const PayCitationResponse = z.object({
  CitationId: z.number().int(),
  Amount: z.number(),
  Balance: z.number(),
  message: z.string(),
});
export type PayCitationResponse = z.infer<typeof PayCitationResponse>;
