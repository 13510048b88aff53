import { z } from 'zod';
import { pageLimit, queryText } from './common.ts';

/** Find Parking. Amounts are decimal dollars on the wire, cents in the database. */
export const ZoneKind = z.enum(['street', 'lot', 'garage']);
export type ZoneKind = z.infer<typeof ZoneKind>;

/**
 * Query strings are text: '' must not coerce to 0 (the equator) but be refused like 'abc'.
 * z.number() refuses Infinity and NaN itself, with the same message.
 */
const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

const latitude = z.preprocess(
  blankToUndefined,
  z.coerce
    .number({ error: 'lat must be a number' })
    .refine((v) => v >= -90 && v <= 90, 'lat must be between -90 and 90'),
);
const longitude = z.preprocess(
  blankToUndefined,
  z.coerce
    .number({ error: 'lng must be a number' })
    .refine((v) => v >= -180 && v <= 180, 'lng must be between -180 and 180'),
);

export const Zone = z.object({
  ZoneId: z.number().int(),
  ClientId: z.number().int(),
  OperatorName: z.string(),
  /** The short code on the street sign. */
  ZoneNumber: z.string(),
  Name: z.string(),
  Address: z.string(),
  City: z.string(),
  State: z.string(),
  Zip: z.string(),
  Latitude: z.number(),
  Longitude: z.number(),
  Kind: ZoneKind,
  /** Dollars per hour, two decimals. */
  RatePerHour: z.number(),
  MaxStayMinutes: z.number().int(),
  Capacity: z.number().int(),
  /** ISO weekdays (1 = Monday) when payment is required, from PaidFrom to PaidUntil local time. */
  PaidDays: z.array(z.number().int().min(1).max(7)),
  PaidFrom: z.string(),
  PaidUntil: z.string(),
  Timezone: z.string(),
  /** Whether payment is required at the time of the request. */
  PaymentRequiredNow: z.boolean(),
  /**
   * 'HH:MM' local time when the current paid period ends ('00:00' = midnight), when paid now; null
   * when free now, or when the paid period lasts 24 hours or more from now (e.g. a garage paid
   * around the clock).
   */
  PaidUntilNow: z.string().nullable(),
  /** Metres from the position asked about; null when no position was given. */
  DistanceMeters: z.number().nullable(),
});
export type Zone = z.infer<typeof Zone>;

/**
 * The widest nearby search: 10 km, what a driver looking for a place to park needs (the
 * app widens 2, 5, then 10 km); farther, a driver searches by zone number or address. A wider
 * radius only made one request read a whole region (0.3-0.6 s at the old 50 km).
 */
export const MAX_NEARBY_RADIUS_M = 10_000;

export const NearbyZonesQuery = z.object({
  lat: latitude,
  lng: longitude,
  radius: z.coerce
    .number({ error: 'radius must be a number' })
    .int('radius must be whole metres')
    .min(1, 'radius must be at least 1 m')
    .max(MAX_NEARBY_RADIUS_M, 'radius must be at most 10 km')
    .default(2000)
    .describe(
      'Metres around lat/lng, 1 to 10,000 (10 km: what a driver needs; farther, search by zone number or address). Default 2,000.',
    ),
  limit: pageLimit(100),
});
export type NearbyZonesQuery = z.infer<typeof NearbyZonesQuery>;

export const SearchZonesQuery = z
  .object({
    q: queryText('q', 100)
      // eslint-disable-next-line no-control-regex
      .regex(/^[^\u0000-\u001f\u007f]*$/, 'q contains characters that are not allowed'),
    lat: latitude.optional(),
    lng: longitude.optional(),
    limit: pageLimit(100),
  })
  // A position is both coordinates or none: half of one is a client bug, not "no position".
  .refine((v) => (v.lat === undefined) === (v.lng === undefined), {
    path: ['lng'],
    message: 'lat and lng go together',
  });
export type SearchZonesQuery = z.infer<typeof SearchZonesQuery>;

export const ZoneList = z.array(Zone);

/** The operator of the signed-in member (client_id): where Find Parking starts without a position. */
export const Operator = z.object({
  ClientId: z.number().int(),
  Name: z.string(),
  City: z.string(),
  State: z.string(),
  Latitude: z.number(),
  Longitude: z.number(),
  Timezone: z.string(),
});
export type Operator = z.infer<typeof Operator>;
