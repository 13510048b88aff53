import { z } from 'zod';
import {
  APDS_MESSAGES as M,
  apdsPage,
  ApdsMultilingualString,
  ApdsReference,
  ApdsSession,
  ApdsSessionsQuery,
  ApdsVersionedReference,
} from './apds.ts';
import { ErrorResponse } from './common.ts';

/**
 * APDS assigned rights (docs/apds.md#assigned-rights): a third party holding an operator's API
 * key assigns a right to park (plates, one of the operator's zones, a window) in ParkIt's
 * register, and the plate check honours it. Field names are the APDS document's.
 */

const Instant = z.iso.datetime({ offset: true });
const Int32 = z.number().int().min(1).max(2_147_483_647);

/** The credential types that name a licence plate (the document's CredentialTypeEnum has both). */
export const APDS_PLATE_TYPES = ['licensePlate', 'vehicleplate'] as const;

const CredentialIn = z.looseObject({
  identifier: z.looseObject({ className: z.string().min(1).max(100), id: z.string().min(1).max(100) }),
  issuer: z
    .array(z.looseObject({ language: z.string().regex(/^[a-z]{2}$/), string: z.string().max(200) }))
    .min(1)
    .max(10),
  type: z
    .enum([
      'barcode',
      'bluetooth',
      'eticket',
      'hangtag',
      'licensePlate',
      'permit',
      'qrCode',
      'rfid',
      'ticket',
      'electronicID',
      'ticketcoupon',
      'vehicleplate',
    ])
    .optional(),
});

/**
 * POST /apds/rights/assigned, and PUT /apds/rights/assigned/{id} (the right's next version, whole):
 * an AssignedRight (the parts ParkIt keeps; the rest is accepted and not kept). The document's other
 * form, a reference to a stored quote, names nothing here: ParkIt stores no quotes.
 */
export const ApdsAssignedRightRequest = z.looseObject({
  id: z.string().regex(/^[A-Za-z0-9._:~-]{1,100}$/, M.assignedId),
  version: Int32,
  rightHolder: z.looseObject({ credentials: z.array(CredentialIn).min(1, M.noPlate).max(10) }),
  rightSpecification: z.looseObject({ id: z.string().min(1).max(100), version: Int32 }),
  issuanceTime: Instant.optional(),
  expiry: Instant.optional(),
  issueMethod: z.enum(['electronic', 'ticket', 'permit']).optional(),
  plannedUses: z
    .array(z.looseObject({ startTime: Instant, endTime: Instant.optional(), expiryTime: Instant.optional() }))
    .max(10)
    .optional(),
});
export type ApdsAssignedRightRequest = z.infer<typeof ApdsAssignedRightRequest>;

/** An AssignedRight as ParkIt answers it: the window is `plannedUses[0]`, its end also `expiry`. */
export const ApdsAssignedRight = z.object({
  id: z.string(),
  version: z.number().int(),
  rightHolder: z.object({
    credentials: z.array(
      z.object({ identifier: ApdsReference, issuer: ApdsMultilingualString, type: z.string().optional() }),
    ),
  }),
  rightSpecification: ApdsVersionedReference,
  issuanceTime: z.string(),
  expiry: z.string(),
  issueMethod: z.enum(['electronic', 'ticket', 'permit']).optional(),
  plannedUses: z.array(z.object({ startTime: z.string(), endTime: z.string() })),
});
export type ApdsAssignedRight = z.infer<typeof ApdsAssignedRight>;

/**
 * The document's ResponseStatus of a create (the right created, or found again) or of an update
 * (the right's new version), with the right beside it.
 */
export const ApdsAssignedRightCreated = z.object({
  status: z.literal('ok'),
  code: z.number().int(),
  message: z.string(),
  assignedRight: ApdsAssignedRight,
});

/** A refused APDS write: ParkIt's error shape with the document's ResponseStatus fields beside it. */
export const ApdsErrorResponse = ErrorResponse.extend({ status: z.literal('error'), code: z.number().int() });

/** The document gives the assigned rights' list the sessions' filters. */
export const ApdsAssignedRightsQuery = ApdsSessionsQuery;
export type ApdsAssignedRightsQuery = z.infer<typeof ApdsAssignedRightsQuery>;

export const ApdsAssignedRightList = apdsPage(ApdsAssignedRight);

/**
 * POST /apds/sessions, and PUT /apds/sessions/{id} (the Session's next version, whole): a Session
 * whose segments carry their AssignedRight inline (the document's short-stay flow) or name one
 * already assigned. ParkIt keeps the rights, which the plate check reads, and the Session, which
 * GET /apds/sessions lists (docs/apds.md#partner-sessions).
 */
export const ApdsSessionRequest = z.looseObject({
  id: z.string().min(1).max(100),
  version: Int32,
  actualStart: Instant,
  actualEnd: Instant.optional(),
  initiator: z.looseObject({ id: z.string().min(1).max(100), version: Int32 }),
  identifiedCredentials: z.array(CredentialIn).min(1).max(10),
  segments: z
    .array(
      z.looseObject({
        id: z.string().min(1).max(100),
        version: Int32,
        actualStart: Instant,
        actualEnd: Instant.optional(),
        assignedRight: z.union([
          ApdsAssignedRightRequest.extend({ expiry: Instant.optional() }),
          z.strictObject({ id: z.string().min(1).max(100), version: Int32, className: z.string().max(100).optional() }),
        ]),
        validationType: z.array(z.string().max(50)).min(1).max(10),
      }),
    )
    .min(1)
    .max(10),
});
export type ApdsSessionRequest = z.infer<typeof ApdsSessionRequest>;

/** The document's ResponseStatus of POST /sessions, with the rights its segments hold. */
export const ApdsSessionCreated = z.object({
  status: z.literal('ok'),
  code: z.number().int(),
  message: z.string(),
  assignedRights: z.array(ApdsAssignedRight),
});

/**
 * A Session a third party registered (POST /apds/sessions), as kept and answered: what it sent,
 * each segment's right as it was created or found (docs/apds.md#partner-sessions).
 */
export const ApdsPartnerSession = z.looseObject({
  id: z.string(),
  version: z.number().int(),
  actualStart: z.string(),
  actualEnd: z.string().optional(),
  initiator: z.looseObject({ id: z.string(), version: z.number().int() }),
  identifiedCredentials: z.array(
    z.looseObject({ identifier: z.looseObject({ className: z.string(), id: z.string() }) }),
  ),
  segments: z.array(
    z.looseObject({
      id: z.string(),
      version: z.number().int(),
      actualStart: z.string(),
      actualEnd: z.string().optional(),
      // The right as created or found (an ApdsAssignedRight), kept loose as the rest: a union's
      // branch is chosen by validating it, and the Session is answered as it was kept.
      assignedRight: z.looseObject({
        id: z.string(),
        version: z.number().int(),
        rightSpecification: z.looseObject({ id: z.string(), version: z.number().int() }),
      }),
      validationType: z.array(z.string()),
    }),
  ),
});
export type ApdsPartnerSession = z.infer<typeof ApdsPartnerSession>;

/**
 * The document's ResponseStatus of PUT /sessions/{id}, with the Session's new version as kept and
 * the rights its segments hold.
 */
export const ApdsSessionUpdated = z.object({
  status: z.literal('ok'),
  code: z.number().int(),
  message: z.string(),
  session: ApdsPartnerSession,
  assignedRights: z.array(ApdsAssignedRight),
});

/** GET /apds/sessions answers both: the operator's parking sessions, then the Sessions third parties registered. */
// The partner's branch first: it is all loose objects, so a serializer that picks a branch by
// validating tries it and passes the Session through as kept; a parking session matches it too and
// is sent as toSession built it.
export const ApdsAnySession = z.union([ApdsPartnerSession, ApdsSession]);
export type ApdsAnySession = z.infer<typeof ApdsAnySession>;
export const ApdsAnySessionList = apdsPage(ApdsAnySession);
