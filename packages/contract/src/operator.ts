import { z } from 'zod';
import { pageLimit } from './common.ts';
import { EmailAddress, PhoneNumber } from './auth.ts';
import { WireId } from './vehicle.ts';

/**
 * The operator's console (docs/product.md#the-operators-console): the people of an operator, their
 * roles, invitations and the audit log. Every console path carries the operator's id:
 * /api/Operator/{operatorId}/...
 */
export const OPERATOR_MESSAGES = {
  staffOnly: 'This page is for an operator’s staff',
  operatorNotFound: 'Operator not found',
  roleNotAllowed: 'Your role does not allow this',
  roleInvalid: 'Choose owner, manager, officer or analyst',
  contactRequired: 'Enter a phone number or an e-mail address',
  contactInvalid: 'Enter a phone number of 10 to 15 digits or an e-mail address',
  personNotFound: 'Person not found',
  lastOwner: 'An operator keeps at least one owner',
  alreadyStaff: 'This person is already on the team',
  inviteCodeRequired: 'Enter the invitation code',
  inviteCodeFormat: 'The invitation code has 8 digits',
  inviteInvalid: 'This invitation code is not valid or has expired',
  inviteNotFound: 'Invitation not found',
  tooManyAttempts: 'Too many codes were tried. Try again later',
  tooManyInvites: 'Too many invitations were sent. Try again later',
  showPlatesRequired: 'ShowPlates must be true or false',
  retentionWeeksRange: 'Keep plates for 1 to 520 weeks',
} as const;
const M = OPERATOR_MESSAGES;

/** What a person may do for an operator: owner (everything, people), manager (zones, prices, permits), officer (enforcement), analyst (read only). */
export const OPERATOR_ROLES = ['owner', 'manager', 'officer', 'analyst'] as const;
export const OperatorRole = z.enum(OPERATOR_ROLES, { error: M.roleInvalid });
export type OperatorRole = z.infer<typeof OperatorRole>;

/**
 * Who may do what, one table for the server's routes (config.operatorRoles) and the console's
 * buttons: `read` every console page, `people` invite, change roles and remove, `zones` create,
 * edit and retire zones (and later permits), `prices` write price policies, their versions,
 * assignments and events, `refunds` refund a session from the console, `settle` issue a
 * settlement statement, `settings` change the operator's settings (whether plates show in full).
 */
export const OPERATOR_CAN = {
  read: OPERATOR_ROLES,
  people: ['owner'],
  zones: ['owner', 'manager'],
  prices: ['owner', 'manager'],
  refunds: ['owner', 'manager'],
  settle: ['owner', 'manager'],
  /** Issue citations (officers, and owners and managers). */
  cite: ['owner', 'manager', 'officer'],
  /** The officer's page: the rights of zones downloaded for offline checks, and chalking. */
  enforce: ['owner', 'manager', 'officer'],
  /** The violations list and contests' decisions. */
  citations: ['owner', 'manager'],
  settings: ['owner'],
  /** API keys for officers' devices and the city's CDS feed: made, listed and revoked by owners. */
  keys: ['owner'],
  /** Permit types and applications: officers see none of it, analysts read. */
  permits: ['owner', 'manager'],
  readPermits: ['owner', 'manager', 'analyst'],
} as const satisfies Record<string, readonly OperatorRole[]>;
export type OperatorPermission = keyof typeof OPERATOR_CAN;
export const operatorCan = (role: OperatorRole, what: OperatorPermission) =>
  (OPERATOR_CAN[what] as readonly OperatorRole[]).includes(role);

/** Every console path: /api/Operator/{operatorId}/... */
export const OperatorParams = z.object({ operatorId: WireId });
export const OperatorMemberParams = OperatorParams.extend({ memberId: WireId });
export const OperatorInviteParams = OperatorParams.extend({ inviteId: WireId });

/** One operator the signed-in person works for, and their role there. */
export const OperatorMembership = z.object({
  OperatorId: z.number().int(),
  Name: z.string(),
  Role: OperatorRole,
});
export type OperatorMembership = z.infer<typeof OperatorMembership>;
/** GET /api/Operator/Mine: the operators of the signed-in person (403 for someone who works for none). */
export const OperatorMembershipList = z.array(OperatorMembership);

export const StaffMember = z.object({
  MemberId: z.number().int(),
  UserName: z.string(),
  Name: z.string(),
  Role: OperatorRole,
  Since: z.string(),
});
export type StaffMember = z.infer<typeof StaffMember>;
export const StaffList = z.array(StaffMember);

export const PendingInvite = z.object({
  InviteId: z.number().int(),
  /** The phone or e-mail the code went to. */
  Contact: z.string(),
  Role: OperatorRole,
  ExpiresAt: z.string(),
  CreatedAt: z.string(),
});
export type PendingInvite = z.infer<typeof PendingInvite>;
export const PendingInviteList = z.array(PendingInvite);

/** A phone (digits) or an e-mail address, told apart by the @. */
export const InviteContact = z
  .string({ error: M.contactRequired })
  .trim()
  .min(1, M.contactRequired)
  .max(254, M.contactInvalid)
  .refine((v) => (v.includes('@') ? EmailAddress.safeParse(v).success : PhoneNumber.safeParse(v).success), {
    error: M.contactInvalid,
  })
  .transform((v) => (v.includes('@') ? v.toLowerCase() : v));

/** POST /api/Operator/{operatorId}/Invites: the code goes to the contact, through the outbox. */
export const InviteRequest = z.object({ Contact: InviteContact, Role: OperatorRole });
export type InviteRequest = z.input<typeof InviteRequest>;

/** POST /api/Operator/{operatorId}/Staff/{memberId}/Role */
export const ChangeRoleRequest = z.object({ Role: OperatorRole });
export type ChangeRoleRequest = z.infer<typeof ChangeRoleRequest>;

/** Weeks after which plates in plate checks and expired permits are anonymised (the retention job). */
export const DEFAULT_RETENTION_WEEKS = 13;
export const RetentionWeeks = z
  .number({ error: M.retentionWeeksRange })
  .int(M.retentionWeeksRange)
  .min(1, M.retentionWeeksRange)
  .max(520, M.retentionWeeksRange);

/**
 * GET/PUT /api/Operator/{operatorId}/Settings: the operator's settings. ShowPlates: the console
 * shows drivers' plates in full (the operator opted in); otherwise all but the last two
 * characters are hidden. RetentionWeeks: plates in plate checks and expired permits are
 * anonymised after this many weeks (1 to 520, 13 unless changed). Every role reads; the owner
 * changes (audited).
 */
export const OperatorSettings = z.object({
  ShowPlates: z.boolean({ error: M.showPlatesRequired }),
  RetentionWeeks,
});
export type OperatorSettings = z.infer<typeof OperatorSettings>;

/** PUT .../Settings: RetentionWeeks left out keeps the operator's. */
export const ChangeOperatorSettingsRequest = OperatorSettings.extend({ RetentionWeeks: RetentionWeeks.optional() });
export type ChangeOperatorSettingsRequest = z.infer<typeof ChangeOperatorSettingsRequest>;

export const InviteCode = z
  .string({ error: M.inviteCodeRequired })
  .trim()
  .min(1, M.inviteCodeRequired)
  .regex(/^\d{8}$/, M.inviteCodeFormat);

/** POST /api/Account/OperatorInvite: a signed-in person whose phone or e-mail was invited joins. */
export const AcceptInviteRequest = z.object({ Code: InviteCode });
export type AcceptInviteRequest = z.infer<typeof AcceptInviteRequest>;

/**
 * Every action the audit log records, `<entity>.<verb>`: the server writes only these (its
 * audit() takes an AuditAction), and the console names each one (a Record over them).
 */
export const AUDIT_ACTIONS = [
  'invite.create',
  'invite.revoke',
  'staff.join',
  'staff.role',
  'staff.remove',
  'operator.update',
  'key.create',
  'key.revoke',
  'zone.create',
  'zone.update',
  'zone.retire',
  'zone.import',
  'policy.create',
  'policy.version',
  'policy.assign',
  'event.create',
  'event.cancel',
  'session.refund',
  'session.refund-failed',
  'statement.issue',
  'violation.create',
  'violation.update',
  'violation.retire',
  'citation.issue',
  'citation.decide',
  'citation.auto-cancel',
  'citation.card-refund-refused',
  'permit-type.create',
  'permit-type.update',
  'permit-type.retire',
  'permit.approve',
  'permit.refuse',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** One change an operator made: who, when, what, before and after (JSON, null when there was none). */
export const AuditEntry = z.object({
  Id: z.number().int(),
  At: z.string(),
  ActorId: z.number().int().nullable(),
  ActorName: z.string(),
  Action: z.string(),
  Entity: z.string(),
  EntityId: z.string(),
  Before: z.unknown(),
  After: z.unknown(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;
export const AuditPage = z.object({
  Entries: z.array(AuditEntry),
  /** Pass as `before` to read older entries; null at the end. */
  Next: z.number().int().nullable(),
});
export type AuditPage = z.infer<typeof AuditPage>;
export const AuditQuery = z.object({
  before: WireId.optional(),
  limit: pageLimit(100),
});
