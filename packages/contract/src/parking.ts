import { z } from 'zod';
import { Vehicle, WireId } from './vehicle.ts';
import { Zone } from './zone.ts';
import { PriceSpan } from './price-policy.ts';

/** Park and pay. Amounts are decimal dollars on the wire, cents in the database. */

/** The duration picker's step; the last step may be the zone's maximum stay itself. */
export const DURATION_STEP_MINUTES = 15;
/** The longest single purchase the API accepts (a zone's maximum stay caps it further). */
export const MAX_DURATION_MINUTES = 24 * 60;
/** How long a quote's price is held. */
export const QUOTE_HOLD_MINUTES = 5;
/** How long after the start a wrong plate or zone can be fixed without paying again. */
export const AMEND_WINDOW_MINUTES = 5;
/** The reminder goes this long before the end. */
export const REMINDER_LEAD_MINUTES = 10;

export const PARKING_MESSAGES = {
  durationRequired: 'DurationMinutes is required',
  durationRange: `DurationMinutes must be a whole number from 1 to ${MAX_DURATION_MINUTES}`,
  quoteTarget: 'Send ZoneId and VehicleId for a new session, or SessionId for an extension',
  quoteRequired: 'QuoteId is required',
  quoteInvalid: 'QuoteId is not valid',
  quoteExpired: 'This price has expired. Please check the new price.',
  quoteUsed: 'This price has already been used',
  quoteStale: 'The session changed since this price was given. Please check the new price.',
  maxStay: 'That is longer than the maximum stay in this zone',
  maxStayReached: 'The maximum stay in this zone has been reached',
  zoneRetired: 'This zone is no longer in use: choose another zone',
  zoneFree: 'Parking is free here for the whole time you chose: no payment is needed',
  permitFree: 'Your permit lets this vehicle park here free: no payment is needed',
  vehicleBusy: 'This vehicle is already parked',
  sessionEnded: 'This parking session has ended',
  amendTooLate: 'A session can be corrected only within 5 minutes of its start',
  amendNothing: 'Send VehicleId or ZoneId to correct',
  overMaxPayment: 'This is more than your Max Payment Amount. Please confirm the payment.',
} as const;

/** A database id in a JSON body: a positive whole number (text is refused, unlike form values). */
const BodyId = z
  .number({ error: 'Must be a number' })
  .int('Must be a whole number')
  .positive('Must be a positive number')
  .max(2_147_483_647, 'Too large');

const Duration = z
  .number({ error: PARKING_MESSAGES.durationRequired })
  .int(PARKING_MESSAGES.durationRange)
  .min(1, PARKING_MESSAGES.durationRange)
  .max(MAX_DURATION_MINUTES, PARKING_MESSAGES.durationRange);

/** POST /api/Parking/Quote: {ZoneId, VehicleId, DurationMinutes} or {SessionId, DurationMinutes}. */
export const QuoteRequest = z
  .object({
    ZoneId: BodyId.optional(),
    VehicleId: BodyId.optional(),
    SessionId: BodyId.optional(),
    DurationMinutes: Duration,
  })
  .strict()
  .refine(
    (v) =>
      v.SessionId !== undefined
        ? v.ZoneId === undefined && v.VehicleId === undefined
        : v.ZoneId !== undefined && v.VehicleId !== undefined,
    {
      path: ['SessionId'],
      message: PARKING_MESSAGES.quoteTarget,
    },
  );
export type QuoteRequest = z.input<typeof QuoteRequest>;

/**
 * The wallet balance now, and whether it covers the amount to pay; when it does not, whether the
 * member's auto-reload would (a Quote's total, an AmendQuote's difference).
 */
const walletCover = {
  Balance: z.number(),
  BalanceCovers: z.boolean(),
  AutoReloadCovers: z.boolean(),
};

export const Quote = z.object({
  QuoteId: z.string(),
  StartsAt: z.string(),
  EndsAt: z.string(),
  DurationMinutes: z.number().int(),
  /** Dollars per hour. */
  RatePerHour: z.number(),
  PaidMinutes: z.number().int(),
  /** After the plan's zone discount (DiscountPercent, Deluxe 10); DiscountAmount is what it took off. */
  ParkingAmount: z.number(),
  DiscountPercent: z.number().int(),
  DiscountAmount: z.number(),
  FeeAmount: z.number(),
  TotalAmount: z.number(),
  ExpiresAt: z.string(),
  ...walletCover,
  /** What auto-reload adds from the default card, at Start or Extend. */
  AutoReloadAmount: z.number(),
  /** The member's Max Payment Amount when it is on and the total is above it: Start asks to confirm. */
  OverMaxPayment: z.boolean(),
  /** Minutes still allowed in this zone (maximum stay minus minutes already bought). */
  MaxMoreMinutes: z.number().int(),
  /** The stretches of the priced time in each of the zone's time spans, in order (docs/pricing.md). */
  Spans: z.array(PriceSpan),
  /** The permit whose own rate priced the stay (docs/pricing.md#permit-holders); absent: the zone's rate. */
  PermitRate: z.object({ PermitId: z.number().int(), PermitType: z.string() }).optional(),
});
export type Quote = z.infer<typeof Quote>;

const QuoteId = z.string({ error: PARKING_MESSAGES.quoteRequired }).trim().uuid(PARKING_MESSAGES.quoteInvalid);

/** POST /api/Parking/Start and /Extend. ConfirmOverMax: the driver confirmed a total above Max Payment Amount. */
export const StartRequest = z.object({ QuoteId, ConfirmOverMax: z.boolean().optional() }).strict();
export type StartRequest = z.input<typeof StartRequest>;
export const ExtendRequest = StartRequest;
export type ExtendRequest = StartRequest;

export const StopRequest = z.object({ SessionId: BodyId }).strict();
export type StopRequest = z.input<typeof StopRequest>;

export const AmendRequest = z
  .object({ SessionId: BodyId, VehicleId: BodyId.optional(), ZoneId: BodyId.optional() })
  .strict()
  .refine((v) => v.VehicleId !== undefined || v.ZoneId !== undefined, {
    path: ['VehicleId'],
    message: PARKING_MESSAGES.amendNothing,
  });
export type AmendRequest = z.input<typeof AmendRequest>;

/** POST /api/Parking/AmendQuote: what moving a session to another zone would charge or refund. */
export const AmendQuoteRequest = z.object({ SessionId: BodyId, ZoneId: BodyId }).strict();
export type AmendQuoteRequest = z.input<typeof AmendQuoteRequest>;

export const SessionStatus = z.enum(['Active', 'Ended']);
export type SessionStatus = z.infer<typeof SessionStatus>;

/** A parking session as every endpoint shows it (issue 11's field list, plus what the screens need). */
export const ParkingSession = z.object({
  SessionId: z.number().int(),
  // Its zone and vehicle, as Zone and Vehicle have them (the server copies them at the start, so
  // a receipt stays true; VehicleId is null once the vehicle is deleted).
  ...Zone.pick({
    ZoneId: true,
    ZoneNumber: true,
    Address: true,
    City: true,
    State: true,
    Latitude: true,
    Longitude: true,
  }).shape,
  VehicleId: z.number().int().nullable(),
  ...Vehicle.pick({ VehicleMake: true, VehicleModel: true, PlateNumber: true, PlateState: true }).shape,
  StartedAt: z.string(),
  EndsAt: z.string(),
  EndedAt: z.string().nullable(),
  DurationMinutes: z.number().int(),
  MaxStayMinutes: z.number().int(),
  AmountPaid: z.number(),
  ParkingAmount: z.number(),
  FeeAmount: z.number(),
  RefundedAmount: z.number(),
  PaidVia: z.string(),
  PaymentStatus: z.string(),
  AutoSessionUsed: z.boolean(),
  AutoExtendedUsed: z.boolean(),
  Status: SessionStatus,
  /** Whether Amend is still allowed (5 minutes from the start). */
  AmendableUntil: z.string(),
  /** The server's clock when this was sent: countdowns run from it, not from the phone's clock. */
  ServerTime: z.string(),
});
export type ParkingSession = z.infer<typeof ParkingSession>;

/** The session and its zone as ParkingSession names them, and what the move would cost. */
export const AmendQuote = ParkingSession.pick({ SessionId: true, ZoneId: true, ZoneNumber: true }).extend({
  /** The whole session's parking amount in the new zone. */
  ParkingAmount: z.number(),
  /** Charged when positive, refunded to the wallet when negative. */
  Difference: z.number(),
  ...walletCover,
  AmendableUntil: z.string(),
});
export type AmendQuote = z.infer<typeof AmendQuote>;

/**
 * One payment of a session, oldest first: the start (InitialMinutes, the fee included), each
 * extension, a zone change within 5 minutes (negative when money went back).
 */
export const SessionPayment = z.object({
  Kind: z.enum(['Start', 'Extension', 'ZoneChange']),
  Amount: z.number(),
  PaidAt: z.string(),
});
export type SessionPayment = z.infer<typeof SessionPayment>;

/** GET /api/Parking/Session/{id} (member and Quick Park): the session and what was paid along the way (the receipt). */
export const SessionReceipt = ParkingSession.extend({
  /** Minutes bought at the start, before any extension. */
  InitialMinutes: z.number().int(),
  Payments: z.array(SessionPayment),
});
export type SessionReceipt = z.infer<typeof SessionReceipt>;

export const StopResponse = ParkingSession.extend({ RefundAmount: z.number(), UnusedMinutes: z.number().int() });
export type StopResponse = z.infer<typeof StopResponse>;

export const ActiveSessions = z.object({ ServerTime: z.string(), Sessions: z.array(ParkingSession) });
export type ActiveSessions = z.infer<typeof ActiveSessions>;

export const SessionParams = z.object({ id: WireId });

/**
 * GET /api/Parking/Session/{id}/Proof: the proof of payment an officer verifies offline
 * (docs/proof-of-payment.md): an EdDSA-signed JWT of the plate, zone and paid end time.
 */
export const ParkingProof = z.object({
  SessionId: z.number().int(),
  /** The signed token (compact JWS), also shown as a QR code. */
  Token: z.string(),
  /** The id of the key that signed it, in GET /api/Parking/ProofKeys. */
  KeyId: z.string(),
  PlateNumber: z.string(),
  PlateState: z.string(),
  ZoneNumber: z.string(),
  /** The paid end time: the token expires then. */
  EndsAt: z.string(),
});
export type ParkingProof = z.infer<typeof ParkingProof>;

/** One public key of the proof of payment, as a JWK (RFC 8037: OKP, Ed25519). */
export const ProofPublicKey = z.object({
  kty: z.literal('OKP'),
  crv: z.literal('Ed25519'),
  x: z.string(),
  kid: z.string(),
  alg: z.literal('EdDSA'),
  use: z.literal('sig'),
});
/** GET /api/Parking/ProofKeys: the keys an officer's device keeps to verify proofs offline (a JWK Set). */
export const ProofKeySet = z.object({ keys: z.array(ProofPublicKey) });
export type ProofKeySet = z.infer<typeof ProofKeySet>;

/** POST /api/Parking/AutoStartQuote: Auto Start's quote for a zone (the default vehicle and duration). */
export const AutoStartQuoteRequest = z.object({ ZoneId: BodyId }).strict();
export type AutoStartQuoteRequest = z.input<typeof AutoStartQuoteRequest>;

/** Why Auto Start does not apply: the option is off, no vehicle, the vehicle is parked, over Max Payment Amount, or free parking. */
export const AutoStartReason = z.enum(['Off', 'NoVehicle', 'VehicleParked', 'OverMaxPayment', 'Free']);
export type AutoStartReason = z.infer<typeof AutoStartReason>;

export const AutoStartQuote = z.object({
  Enabled: z.boolean(),
  Reason: AutoStartReason.nullable(),
  Quote: Quote.nullable(),
  VehicleId: z.number().int().nullable(),
  PlateNumber: z.string().nullable(),
});
export type AutoStartQuote = z.infer<typeof AutoStartQuote>;

/** Auto Start's duration when the member has not parked before (later: the first duration of the last session). */
export const DEFAULT_DURATION_MINUTES = 60;
