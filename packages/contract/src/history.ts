import { z } from 'zod';
import { Id, pageLimit, queryText } from './common.ts';
import { ParkingSession } from './parking.ts';

/** Past parking: GET /api/Parking/Sessions, Sessions.csv and the officers' plate check. */
export const SESSION_SORTS = ['newest', 'oldest', 'near', 'far'] as const;
export const SessionSort = z.enum(SESSION_SORTS, { error: 'sort must be one of newest, oldest, near, far' });
export type SessionSort = z.infer<typeof SessionSort>;

export const MAX_SESSIONS_PAGE = 50;

/** Query strings are text: '' is "not given", never 0 (the equator). z.number() refuses Infinity itself. */
const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const coord = (name: string, max: number) =>
  z.preprocess(
    blankToUndefined,
    z.coerce
      .number({ error: `${name} must be a number` })
      .refine((v) => v >= -max && v <= max, `${name} must be between -${max} and ${max}`)
      .optional(),
  );

/** A calendar day, YYYY-MM-DD, that exists. */
const day = (name: string) =>
  z.preprocess(
    blankToUndefined,
    z
      .string({ error: `${name} must be a date (YYYY-MM-DD)` })
      .regex(/^\d{4}-\d{2}-\d{2}$/, `${name} must be a date (YYYY-MM-DD)`)
      .refine((s) => {
        const d = new Date(`${s}T00:00:00Z`);
        return (
          !Number.isNaN(d.getTime()) &&
          d.toISOString().startsWith(s) &&
          d.getUTCFullYear() >= 2000 &&
          d.getUTCFullYear() <= 2100
        );
      }, `${name} must be a real date between 2000 and 2100`)
      .optional(),
  );

/** The filters the list, the CSV and the map share. */
export const SessionFilters = z.object({
  sort: z.preprocess(blankToUndefined, SessionSort.default('newest')),
  lat: coord('lat', 90),
  lng: coord('lng', 180),
  from: day('from'),
  to: day('to'),
  vehicle: z.preprocess(blankToUndefined, Id.optional()),
});
export type SessionFilters = z.infer<typeof SessionFilters>;

export const SessionsQuery = SessionFilters.extend({
  cursor: z.preprocess(
    blankToUndefined,
    z
      .string()
      .max(200, 'cursor is not valid')
      .regex(/^[A-Za-z0-9_-]+$/, 'cursor is not valid')
      .optional(),
  ),
  limit: z.preprocess(blankToUndefined, pageLimit(MAX_SESSIONS_PAGE)),
});
export type SessionsQuery = z.infer<typeof SessionsQuery>;

/** One row of the history: the parking session's own fields, and the distance. */
export const PastSession = ParkingSession.pick({
  SessionId: true,
  ZoneId: true,
  ZoneNumber: true,
  Address: true,
  City: true,
  State: true,
  Latitude: true,
  Longitude: true,
  VehicleId: true,
  VehicleMake: true,
  VehicleModel: true,
  PlateNumber: true,
  PlateState: true,
  StartedAt: true,
  EndsAt: true,
  EndedAt: true,
  DurationMinutes: true,
  AmountPaid: true,
  PaidVia: true,
  Status: true,
}).extend({
  /** Metres from the point the near/far sort measured from; null for the date sorts. */
  DistanceMeters: z.number().nullable(),
});
export type PastSession = z.infer<typeof PastSession>;

export const SessionsPage = z.object({
  Sessions: z.array(PastSession),
  /** Pass as `cursor` for the next page; null on the last page. */
  NextCursor: z.string().nullable(),
  /** Where distances are measured from: the driver's position, or the operator's city centre. */
  DistanceFrom: z.enum(['position', 'cityCentre']).nullable(),
});
export type SessionsPage = z.infer<typeof SessionsPage>;

export const ReceiptQuery = z.object({
  lang: z.preprocess(blankToUndefined, z.enum(['en', 'hi', 'es'], { error: 'lang must be en, hi or es' }).optional()),
});

// Officers' plate check.
export const EnforcementQuery = z.object({
  zone: queryText('zone', 20).regex(/^[A-Za-z0-9-]+$/, 'zone must be letters, digits or dashes'),
  plate: queryText('plate', 20)
    .regex(/^[A-Za-z0-9 .\-·]+$/, 'plate must be letters, digits, spaces or dashes')
    .refine((p) => /[A-Za-z0-9]/.test(p), 'plate is required'),
  state: z
    .string({ error: 'state is required' })
    .trim()
    .regex(/^[A-Za-z]{2}$/, 'state must be a two-letter code')
    .transform((s) => s.toUpperCase()),
});
export type EnforcementQuery = z.infer<typeof EnforcementQuery>;

export const EnforcementAnswer = z.object({
  Paid: z.boolean(),
  /** When the paid time ends (ISO 8601); null when not paid. */
  EndsAt: z.string().nullable(),
  ZoneNumber: z.string(),
  /** The plate as compared: upper case, no spaces or dashes. */
  PlateNumber: z.string(),
  PlateState: z.string(),
  /**
   * The right that covers the plate (docs/permits.md#rights): a paid session, a permit, a
   * visitor day or an APDS assigned right, its id and its end (grace minutes included); null when
   * none does.
   */
  Right: z
    .object({
      Kind: z.enum(['session', 'permit', 'visitor-day', 'assigned-right']),
      Id: z.string(),
      EndsAt: z.string().nullable(),
    })
    .nullable(),
});
export type EnforcementAnswer = z.infer<typeof EnforcementAnswer>;

export const ENFORCEMENT_KEY_HEADER = 'x-operator-key';

export const HISTORY_MESSAGES = {
  cursorInvalid: 'cursor is not valid',
  cursorSort: 'cursor belongs to another sort order',
  latLngPair: 'lat and lng go together',
  fromAfterTo: 'from must not be after to',
  sessionNotFound: 'Session not found',
  zoneNotFound: 'Zone not found',
  tooManyChecks: 'Too many checks. Please wait a minute.',
} as const;
