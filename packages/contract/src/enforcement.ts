import { z } from 'zod';
import { AddVehicleRequest, WireId } from './vehicle.ts';
import { IssueCitationRequest } from './citations.ts';
import { EnforcementQuery } from './history.ts';
import { OperatorParams } from './operator.ts';

/**
 * The officer's side of enforcement (docs/enforcement.md): the rights of some zones downloaded for
 * offline checks, and digital chalking of free, time-limited zones.
 */
export const ENFORCEMENT_MESSAGES = {
  zonesFormat: 'zones must be zone ids separated by commas, at most 100',
  zoneNotFound: 'Zone not found',
  observedInFuture: 'The moment seen is in the future: check the device’s clock',
  observedTooOld: 'The moment seen is more than 24 hours ago: this citation can no longer be issued',
  chalkTooOld: 'The moment seen is more than 24 hours ago: this chalk can no longer be recorded',
} as const;
const M = ENFORCEMENT_MESSAGES;

/** At most this many zones in one download. */
export const MAX_RIGHTS_ZONES = 100;

/** GET /api/Operator/{operatorId}/Rights?zones=1,2: absent, every zone of the operator still in use. */
export const RightsQuery = z.object({
  zones: z
    .string({ error: M.zonesFormat })
    .trim()
    .regex(/^\d{1,10}(,\d{1,10}){0,99}$/, M.zonesFormat)
    .transform((s) => [...new Set(s.split(',').map(Number))])
    .optional(),
});

export const RightKind = z.enum(['session', 'permit', 'visitor-day', 'assigned-right']);
export type RightKind = z.infer<typeof RightKind>;

/** A right to park in a zone: the plate normalised (upper case, no spaces, dashes or dots). */
export const ZoneRight = z.object({
  ZoneId: z.number().int(),
  Kind: RightKind,
  Id: z.string(),
  PlateNumber: z.string(),
  /** A session's plate state; null for a permit or a visitor day (any state). */
  PlateState: z.string().nullable(),
  StartsAt: z.string(),
  /** The right's end, grace minutes included; null when it is not known to end. */
  EndsAt: z.string().nullable(),
});
export type ZoneRight = z.infer<typeof ZoneRight>;

export const RightsZone = z.object({
  ZoneId: z.number().int(),
  ZoneNumber: z.string(),
  Name: z.string(),
  /** The maximum stay now, by the zone's price policy (what chalking compares with). */
  MaxStayMinutes: z.number().int(),
  /** Whether parking is paid now, by the zone's price policy. */
  PaidNow: z.boolean(),
});
export type RightsZone = z.infer<typeof RightsZone>;

export const RightsDownload = z.object({
  /** The moment the rights were read (the server's clock). */
  GeneratedAt: z.string(),
  OperatorId: z.number().int(),
  Zones: z.array(RightsZone),
  Rights: z.array(ZoneRight),
  /** The zones' chalks of the last 24 hours, for an offline check to say how long a plate has stood. */
  Chalks: z.array(
    z.object({ ZoneId: z.number().int(), PlateNumber: z.string(), PlateState: z.string(), FirstSeenAt: z.string() }),
  ),
});
export type RightsDownload = z.infer<typeof RightsDownload>;

/** POST /api/Operator/{operatorId}/Chalks: the first sighting of a plate in a zone. */
export const ChalkRequest = z.object({
  ZoneId: WireId,
  PlateNumber: AddVehicleRequest.shape.PlateNumber,
  PlateState: AddVehicleRequest.shape.PlateState,
  /** When the officer saw the plate (a chalk recorded offline); absent: now. */
  ObservedAt: IssueCitationRequest.shape.ObservedAt,
});
export type ChalkRequest = z.input<typeof ChalkRequest>;

export const ChalkQuery = z.object({
  zoneId: WireId,
  plate: AddVehicleRequest.shape.PlateNumber,
});
export const ChalkParams = OperatorParams;

/**
 * GET /api/Operator/{operatorId}/Check: the officer's online check of one plate in one of the
 * operator's zones (by id, as the officer's page knows it), answered as the key's check answers
 * (EnforcementAnswer), with the key's check's plate and state rules.
 */
export const OfficerCheckQuery = z.object({
  zoneId: WireId,
  plate: EnforcementQuery.shape.plate,
  state: EnforcementQuery.shape.state,
});
export type OfficerCheckQuery = z.input<typeof OfficerCheckQuery>;

/** A plate's first sighting in a zone and how long it has stood there against the zone's maximum stay. */
export const Chalk = z.object({
  ChalkId: z.number().int(),
  ZoneId: z.number().int(),
  PlateNumber: z.string(),
  PlateState: z.string(),
  FirstSeenAt: z.string(),
  Officer: z.string(),
  MinutesParked: z.number().int(),
  MaxStayMinutes: z.number().int(),
  /** True once the minutes parked pass the maximum stay. */
  Overstayed: z.boolean(),
});
export type Chalk = z.infer<typeof Chalk>;
export const ChalkAnswer = z.object({ Chalk: Chalk.nullable() });
