import { z } from 'zod';
import { OperatorParams } from './operator.ts';
import { WireId } from './vehicle.ts';

/** Permits (docs/permits.md): the messages a driver or a manager may read. */
export const PERMIT_MESSAGES = {
  typeNotFound: 'Permit type not found',
  permitNotFound: 'Permit not found',
  zoneNotFound: 'Zone not found',
  zonesOfOperator: 'Choose zones of this operator',
  zonesOfType: 'Choose zones this permit type covers',
  tooManyPlates: 'This permit takes fewer plates',
  plateRequired: 'Enter a plate',
  plateFormat: 'A plate has 1 to 15 letters or digits',
  proofRequired: 'Attach a proof of address (PDF, PNG or JPEG)',
  proofType: 'A proof is a PDF, PNG or JPEG',
  proofNotFound: 'Proof not found',
  visitorDaysOnlyResident: 'Only a resident type gives visitor days',
  notPending: 'Only a pending application can be decided',
  notApproved: 'Only an approved permit can be paid',
  notActive: 'Only an active permit gives visitor days',
  noVisitorDays: 'This permit gives no visitor days',
  visitorDaysUsed: 'All visitor days of that month are given',
  visitorDayTaken: 'That plate already has a visitor day on that date',
  dateFormat: 'Enter a date as YYYY-MM-DD',
  dateOutOfWindow: 'The date is outside the permit’s validity',
  reasonRequired: 'Say why the application is refused',
  typeRetired: 'This permit type takes no new applications',
} as const;

const M = PERMIT_MESSAGES;

export const PERMIT_KIND_VALUES = ['resident', 'visitor', 'business', 'disabled', 'ev'] as const;
export const PermitKind = z.enum(PERMIT_KIND_VALUES);
export const PERMIT_STATUS_VALUES = ['pending', 'approved', 'refused', 'active', 'expired'] as const;
export const PermitStatus = z.enum(PERMIT_STATUS_VALUES);

/** A permit type as a manager writes it. */
export const PermitTypeInput = z
  .object({
    Kind: PermitKind,
    Name: z.string().trim().min(1, 'Enter a name').max(80, 'At most 80 characters'),
    ZoneIds: z.array(WireId).min(1, M.zonesOfOperator).max(500, 'At most 500 zones'),
    ValidMonths: z.number().int('Must be a whole number').min(1, 'At least 1 month').max(36, 'At most 36 months'),
    /** Integer cents. */
    PriceCents: z.number().int('Must be a whole number').min(0, 'Must not be negative').max(10_000_000, 'Too large'),
    ProofRequired: z.boolean(),
    MaxPlates: z.number().int('Must be a whole number').min(1, 'At least 1').max(10, 'At most 10'),
    VisitorDaysPerMonth: z.number().int('Must be a whole number').min(0, 'Must not be negative').max(31, 'At most 31'),
  })
  .refine((t) => t.Kind === 'resident' || t.VisitorDaysPerMonth === 0, {
    message: M.visitorDaysOnlyResident,
    path: ['VisitorDaysPerMonth'],
  });
export type PermitTypeInput = z.infer<typeof PermitTypeInput>;

export const PermitType = z.object({
  Id: z.number().int(),
  OperatorId: z.number().int(),
  Kind: PermitKind,
  Name: z.string(),
  ZoneIds: z.array(z.number().int()),
  ValidMonths: z.number().int(),
  PriceCents: z.number().int(),
  ProofRequired: z.boolean(),
  MaxPlates: z.number().int(),
  VisitorDaysPerMonth: z.number().int(),
  Retired: z.boolean(),
});
export type PermitType = z.infer<typeof PermitType>;
export const PermitTypeList = z.array(PermitType);

export const Permit = z.object({
  Id: z.number().int(),
  OperatorId: z.number().int(),
  TypeId: z.number().int(),
  TypeName: z.string(),
  Kind: PermitKind,
  MemberId: z.number().int(),
  Plates: z.array(z.string()),
  ZoneIds: z.array(z.number().int()),
  Status: PermitStatus,
  RefusalReason: z.string().nullable(),
  ProofAttachmentId: z.string().nullable(),
  PriceCents: z.number().int(),
  ValidFrom: z.string().nullable(),
  ValidUntil: z.string().nullable(),
  VisitorDaysPerMonth: z.number().int(),
  CreatedAt: z.string(),
});
export type Permit = z.infer<typeof Permit>;
export const PermitList = z.array(Permit);

const Plate = z
  .string(M.plateRequired)
  .trim()
  .min(1, M.plateRequired)
  .max(20, M.plateFormat)
  .refine((p) => /^[A-Za-z0-9]{1,15}$/.test(p.replace(/[\s\-.·]/g, '')), M.plateFormat);

/** A driver's application. */
export const ApplyPermitRequest = z.object({
  TypeId: WireId,
  Plates: z.array(Plate).min(1, M.plateRequired).max(10, M.tooManyPlates),
  /** Some of the type's zones; all of them when left out. */
  ZoneIds: z.array(WireId).min(1, M.zonesOfType).max(500).optional(),
  ProofAttachmentId: z.string().uuid(M.proofNotFound).optional(),
});
export type ApplyPermitRequest = z.infer<typeof ApplyPermitRequest>;

/** An id in a query string: digits only. */
const QueryId = z
  .string()
  .regex(/^\d{1,9}$/, 'Must be a number')
  .transform(Number);

export const PermitTypesQuery = z
  .object({ zoneId: QueryId.optional(), operatorId: QueryId.optional() })
  .refine((q) => q.zoneId !== undefined || q.operatorId !== undefined, {
    message: 'Give zoneId or operatorId',
    path: ['zoneId'],
  });

export const PermitParams = z.object({ permitId: WireId });
export const OperatorPermitTypeParams = OperatorParams.extend({ typeId: WireId });
export const OperatorPermitParams = OperatorParams.extend({ permitId: WireId });
export const OperatorPermitsQuery = z.object({ status: PermitStatus.optional() });

export const RefusePermitRequest = z.object({
  Reason: z.string(M.reasonRequired).trim().min(1, M.reasonRequired).max(500, 'At most 500 characters'),
});

export const VisitorDayRequest = z.object({
  Plate,
  Date: z.string(M.dateFormat).regex(/^\d{4}-\d{2}-\d{2}$/, M.dateFormat),
});
export type VisitorDayRequest = z.infer<typeof VisitorDayRequest>;

export const VisitorDay = z.object({
  Id: z.number().int(),
  PermitId: z.number().int(),
  Plate: z.string(),
  Date: z.string(),
});
export const VisitorDayList = z.array(VisitorDay);
