import { z } from 'zod';
import { pageLimit, text } from './common.ts';
import { OperatorParams } from './operator.ts';
import { WireId } from './vehicle.ts';
import { ZoneKind } from './zone.ts';

/** The console's zones: list, create, edit and retire an operator's zones (/api/Operator/{operatorId}/Zones). */
export const OPERATOR_ZONE_MESSAGES = {
  zoneNotFound: 'Zone not found',
  numberTaken: 'Another zone of this operator has this number',
  numberFormat: 'A zone number has 1 to 20 letters, digits or dashes',
  nameRequired: 'Name is required',
  addressRequired: 'Address is required',
  latitudeRange: 'Latitude must be a number from -90 to 90',
  longitudeRange: 'Longitude must be a number from -180 to 180',
  capacityRange: 'Capacity must be a whole number from 0 to 100000',
  rateRange: 'The hourly rate must be from 0 to 1000 with at most 2 decimals',
  maxStayRange: 'The maximum stay must be a whole number of minutes from 1 to 10080',
  paidDaysInvalid: 'Paid days are weekdays 1 (Monday) to 7 (Sunday), each once',
  paidHoursInvalid: 'Paid hours are HH:MM from and until (24:00 for midnight), not equal',
  curbInvalid: 'The curb must be a GeoJSON LineString or Polygon',
  curbPoints: 'A curb line has 2 to 500 points and each polygon ring 4 to 500',
  curbRings: 'A polygon has 1 to 10 rings',
  curbRingOpen: 'Each polygon ring ends at its first point',
  curbCoordinates: 'Each curb point is [longitude, latitude] within range',
  curbTooFar: 'The curb lies within 2 km of the zone’s point',
  alreadyRetired: 'This zone is retired already',
  retiredNoEdit: 'A retired zone cannot be changed',
} as const;
const M = OPERATOR_ZONE_MESSAGES;

/** A curb's points at most this far (metres) from the zone's point. */
export const CURB_MAX_DISTANCE_M = 2000;
const MAX_POINTS = 500;

const lngLat = z
  .array(z.number({ error: M.curbCoordinates }), { error: M.curbCoordinates })
  .length(2, M.curbCoordinates)
  .refine(([lng, lat]) => Math.abs(lng!) <= 180 && Math.abs(lat!) <= 90, M.curbCoordinates);
const ring = z
  .array(lngLat, { error: M.curbInvalid })
  .min(4, M.curbPoints)
  .max(MAX_POINTS, M.curbPoints)
  .refine((r) => r[0]![0] === r.at(-1)![0] && r[0]![1] === r.at(-1)![1], M.curbRingOpen);

/** The curb's exact shapes, checked by ZoneCurb. */
const CurbShape = z.discriminatedUnion(
  'type',
  [
    z.strictObject({
      type: z.literal('LineString'),
      coordinates: z.array(lngLat, { error: M.curbInvalid }).min(2, M.curbPoints).max(MAX_POINTS, M.curbPoints),
    }),
    z.strictObject({
      type: z.literal('Polygon'),
      coordinates: z.array(ring, { error: M.curbInvalid }).min(1, M.curbRings).max(10, M.curbRings),
    }),
  ],
  { error: M.curbInvalid },
);
export type ZoneCurb = z.infer<typeof CurbShape>;

/**
 * A curb line (GeoJSON LineString) or area (Polygon, closed rings), [longitude, latitude] in
 * degrees. Documented as one object (OpenAPI 3.0 cannot say "one of these, or null" without a
 * type), checked against CurbShape's exact shapes.
 */
export const ZoneCurb = z
  .strictObject({
    type: z.enum(['LineString', 'Polygon'], { error: M.curbInvalid }),
    coordinates: z.array(z.unknown(), { error: M.curbInvalid }),
  })
  .superRefine((v, ctx) => {
    const checked = CurbShape.safeParse(v);
    if (!checked.success)
      for (const issue of checked.error.issues)
        ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
  }) as unknown as z.ZodType<ZoneCurb>;

/** Metres between two points (haversine; enough for the curb's distance check). */
function metres(lat1: number, lng1: number, lat2: number, lng2: number) {
  const r = Math.PI / 180;
  const a =
    Math.sin(((lat2 - lat1) * r) / 2) ** 2 +
    Math.cos(lat1 * r) * Math.cos(lat2 * r) * Math.sin(((lng2 - lng1) * r) / 2) ** 2;
  return 2 * 6_371_008.8 * Math.asin(Math.min(1, Math.sqrt(a)));
}

export const curbPoints = (c: ZoneCurb): number[][] => (c.type === 'LineString' ? c.coordinates : c.coordinates.flat());

const clock = (allow24: boolean) =>
  z
    .string({ error: M.paidHoursInvalid })
    .regex(allow24 ? /^(([01]\d|2[0-3]):[0-5]\d|24:00)$/ : /^([01]\d|2[0-3]):[0-5]\d$/, M.paidHoursInvalid);

/** POST /Zones and PUT /Zones/{zoneId}: a zone, its place and today's price (a rate per hour in its paid hours). */
export const ZoneInput = z
  .object({
    ZoneNumber: z
      .string({ error: M.numberFormat })
      .trim()
      .toUpperCase()
      .regex(/^[A-Z0-9][A-Z0-9-]{0,19}$/, M.numberFormat),
    Name: text(120, M.nameRequired),
    Address: text(200, M.addressRequired),
    City: z.string().trim().max(80, 'At most 80 characters').default(''),
    State: z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^([A-Z]{2})?$/, 'State is a 2-letter code')
      .default(''),
    Zip: z
      .string()
      .trim()
      .regex(/^(\d{5}(-\d{4})?)?$/, 'Enter a 5-digit ZIP code (or ZIP+4)')
      .default(''),
    Latitude: z.number({ error: M.latitudeRange }).min(-90, M.latitudeRange).max(90, M.latitudeRange),
    Longitude: z.number({ error: M.longitudeRange }).min(-180, M.longitudeRange).max(180, M.longitudeRange),
    Kind: ZoneKind.default('street'),
    Capacity: z
      .number({ error: M.capacityRange })
      .int(M.capacityRange)
      .min(0, M.capacityRange)
      .max(100_000, M.capacityRange),
    RatePerHour: z
      .number({ error: M.rateRange })
      .min(0, M.rateRange)
      .max(1000, M.rateRange)
      .refine((v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6, M.rateRange),
    MaxStayMinutes: z
      .number({ error: M.maxStayRange })
      .int(M.maxStayRange)
      .min(1, M.maxStayRange)
      .max(10_080, M.maxStayRange),
    PaidDays: z
      .array(z.number().int().min(1).max(7), { error: M.paidDaysInvalid })
      .max(7, M.paidDaysInvalid)
      .refine((d) => new Set(d).size === d.length, M.paidDaysInvalid),
    PaidFrom: clock(false),
    PaidUntil: clock(true),
    Curb: ZoneCurb.nullable().default(null),
  })
  .superRefine((v, ctx) => {
    if (v.PaidFrom === v.PaidUntil) ctx.addIssue({ code: 'custom', path: ['PaidUntil'], message: M.paidHoursInvalid });
    if (
      v.Curb &&
      curbPoints(v.Curb).some(([lng, lat]) => metres(v.Latitude, v.Longitude, lat!, lng!) > CURB_MAX_DISTANCE_M)
    )
      ctx.addIssue({ code: 'custom', path: ['Curb'], message: M.curbTooFar });
  });
export type ZoneInput = z.input<typeof ZoneInput>;

/** A zone as the console shows it (all of it, retired ones too). */
export const OperatorZone = z.object({
  ZoneId: z.number().int(),
  ZoneNumber: z.string(),
  Name: z.string(),
  Address: z.string(),
  City: z.string(),
  State: z.string(),
  Zip: z.string(),
  Latitude: z.number(),
  Longitude: z.number(),
  Kind: ZoneKind,
  Capacity: z.number().int(),
  RatePerHour: z.number(),
  MaxStayMinutes: z.number().int(),
  PaidDays: z.array(z.number().int()),
  PaidFrom: z.string(),
  PaidUntil: z.string(),
  Curb: ZoneCurb.nullable(),
  /** When the zone was retired (ISO), or null: in use. */
  RetiredAt: z.string().nullable(),
});
export type OperatorZone = z.infer<typeof OperatorZone>;

export const OperatorZoneParams = OperatorParams.extend({ zoneId: WireId });

/** GET /Zones: search by number, name or address; retired zones only when asked. */
export const OperatorZoneQuery = z.object({
  q: z.string().trim().max(100, 'At most 100 characters').default(''),
  retired: z.enum(['include', 'exclude', 'only']).default('include'),
  offset: z.coerce
    .number({ error: 'offset must be a number' })
    .int('offset must be a whole number')
    .min(0, 'offset must be at least 0')
    .max(1_000_000, 'offset must be at most 1000000')
    .default(0),
  limit: pageLimit(200),
});
export const OperatorZonePage = z.object({
  Zones: z.array(OperatorZone),
  /** How many zones match in all. */
  Total: z.number().int(),
});
export type OperatorZonePage = z.infer<typeof OperatorZonePage>;

/** A zone file's size the console takes at once (characters); the CLI reads any size. */
export const ZONE_FILE_MAX_CHARS = 2_000_000;
export const ZONE_IMPORT_MESSAGES = {
  fileRequired: 'Choose a GeoJSON or CSV file',
  fileTooLarge: 'The file is larger than 2 MB: split it, or use npm run zones:import',
  fileNameFormat: 'The file name has at most 200 characters',
  fileUnreadable: 'This is not a zone file',
  cdsUnreadable: 'This is not a CDS Curbs feed: choose the JSON of a city’s /curbs/zones and /curbs/policies',
  formatInvalid: 'Choose zones (GeoJSON or CSV) or cds (a CDS Curbs feed)',
  numbersTaken: 'A zone number of the file was taken meanwhile: nothing was imported. Check the file again',
} as const;

/**
 * POST /api/Operator/{operatorId}/Zones/Import: a zone file (GeoJSON FeatureCollection of Points
 * or CSV with a header row, the columns of `npm run zones:import`), or with Format `cds` a city's
 * CDS Curbs feed (JSON: one answer of /curbs/zones or /curbs/policies, or a list of them; the
 * zones with their policies), checked row by row. DryRun checks and writes nothing; otherwise all
 * rows go in when none is refused, or, with SkipRefused, the rows that pass.
 */
export const ZoneImportRequest = z.object({
  File: z
    .string({ error: ZONE_IMPORT_MESSAGES.fileRequired })
    .min(1, ZONE_IMPORT_MESSAGES.fileRequired)
    .max(ZONE_FILE_MAX_CHARS, ZONE_IMPORT_MESSAGES.fileTooLarge),
  /** Tells CSV from GeoJSON by its extension (.csv, .json, .geojson); else by the content. */
  FileName: z.string().max(200, ZONE_IMPORT_MESSAGES.fileNameFormat).default(''),
  Format: z.enum(['zones', 'cds'], { error: ZONE_IMPORT_MESSAGES.formatInvalid }).default('zones'),
  DryRun: z.boolean().default(true),
  SkipRefused: z.boolean().default(false),
});
export type ZoneImportRequest = z.input<typeof ZoneImportRequest>;

export const ZoneImportRefusedRow = z.object({
  /** CSV: the line the record starts on (the header is 1); GeoJSON: the feature's place, from 1. */
  Row: z.number().int(),
  ZoneNumber: z.string().nullable(),
  Reason: z.string(),
});
export type ZoneImportRefusedRow = z.infer<typeof ZoneImportRefusedRow>;

export const ZoneImportReport = z.object({
  Format: z.enum(['geojson', 'csv', 'cds']),
  /** The rows (features) of the file. */
  Rows: z.number().int(),
  /** Rows that pass every check (and, unless DryRun, were written when Imported > 0). */
  Valid: z.number().int(),
  /** Zones written by this request: 0 for a dry run, or when a row was refused without SkipRefused. */
  Imported: z.number().int(),
  Refused: z.array(ZoneImportRefusedRow),
  /** Columns or properties the import does not know (ignored). */
  IgnoredColumns: z.array(z.string()),
  /** A CDS feed's: the price policies written (one per distinct set of a zone's curb_policy_ids). */
  Policies: z.number().int().optional(),
  DryRun: z.boolean(),
});
export type ZoneImportReport = z.infer<typeof ZoneImportReport>;

/** GET /api/Operator/{operatorId}/Zones/Export: the zones as the import reads them. */
export const ZoneExportQuery = z.object({
  format: z.enum(['geojson', 'csv'], { error: 'format is geojson or csv' }).default('geojson'),
  retired: z.enum(['include', 'exclude', 'only'], { error: 'retired is include, exclude or only' }).default('exclude'),
});
