import { z } from 'zod';

/**
 * The APDS API (Alliance for Parking Data Standards, ISO/TS 5206-1) as ParkIt serves it under
 * /apds/ (docs/apds.md). Field names, nesting and enumerations are the APDS document's
 * (docs/standards/apds/APDS_API_bundled.json), not this contract's PascalCase: a city's APDS
 * client reads them as the standard writes them. Only the parts ParkIt fills are declared; the
 * server's test validates every answer against the APDS document itself.
 */

export const APDS_MESSAGES = {
  notFound: 'Not found',
  listFormat: 'Use a comma-separated list',
  periodEnd: 'periodEnd must be after periodStart',
  periodTooLong: 'A quote covers at most 7 days',
  noSpecification: 'Name at least one right specification in referencedRightSpecifications',
  created: 'Created',
  assignedId: 'Use 1 to 100 letters, digits or . _ : ~ - for the id',
  unknownSpecification: 'No right specification of this operator has this id (zone-<id>)',
  noPlate: 'Name at least one licence plate (type licensePlate) in rightHolder.credentials',
  badPlate: 'A licence plate has 1 to 15 letters and digits',
  noExpiry: 'Give expiry (or plannedUses[0].endTime): a right without an end is not kept',
  rightEndsBeforeStart: 'The right must end after it starts',
  rightTooLong: 'An assigned right lasts at most 400 days',
  idConflict: 'An assigned right with this id exists with other content',
  keyConflict: 'This Idempotency-Key was used for another assigned right',
  unknownAssignedRight: 'No assigned right of this operator has this id',
  sessionIdConflict: 'A Session with this id exists with other content',
  sessionIdReserved: 'A Session id of the form session-<number> is ParkIt’s own: use another id',
  ownSessionKept: 'ParkIt’s own sessions end with Stop and are not deleted: only a Session a partner registered is',
  ownSessionNotUpdated:
    'ParkIt’s own sessions change in the app (Extend, Stop) and are not updated here: only a Session a partner registered is',
  deleted: 'Deleted',
  updated: 'Updated',
  idNotPath: 'The id in the body must be the id in the path',
  outdatedVersion: 'Outdated version number provided',
  registered: 'OK',
} as const;

const M = APDS_MESSAGES;

/** Unix epoch seconds, as the APDS document's time filters take them. */
const EpochSeconds = z.coerce.number().int().min(0).max(253_402_300_799);

/** An APDS list parameter: repeated (`type=a&type=b`) or comma separated (`type=a,b`). */
const List = z.union([z.string().max(5000), z.array(z.string().max(200)).max(500)], { error: M.listFormat }).optional();
export const apdsList = (v: string | string[] | undefined): string[] =>
  v === undefined
    ? []
    : [v]
        .flat()
        .flatMap((s) => s.split(','))
        .map((s) => s.trim())
        .filter((s) => s !== '');

const Geo = {
  latitude: z.coerce.number().min(-90).max(90).optional(),
  longitude: z.coerce.number().min(-180).max(180).optional(),
  /** Metres. */
  radius: z.coerce.number().int().min(0).max(1_000_000).optional(),
};
const Paging = {
  /** ParkIt's paging (the APDS document's meta has offset and pageSize but no parameter for them). */
  offset: z.coerce.number().int().min(0).max(1_000_000).optional(),
  modified_since: EpochSeconds.optional(),
  expand: List,
};

export const ApdsPlacesQuery = z.object({
  ...Geo,
  ...Paging,
  layer: z.coerce.number().int().min(0).max(10).optional(),
  type: List,
  right_type: List,
  structure_type: List,
  structure_grade: List,
  name: z.string().max(200).optional(),
});
export type ApdsPlacesQuery = z.infer<typeof ApdsPlacesQuery>;

export const ApdsRatesQuery = z.object({ ...Paging });
export type ApdsRatesQuery = z.infer<typeof ApdsRatesQuery>;

export const ApdsSpecsQuery = z.object({ ...Geo, ...Paging, credential_type: List, place: List });
export type ApdsSpecsQuery = z.infer<typeof ApdsSpecsQuery>;

export const ApdsSessionsQuery = z.object({
  ...Geo,
  ...Paging,
  right_spec: List,
  credential_type: List,
  credential_class: List,
  credential_id: List,
  place: List,
  start_before: EpochSeconds.optional(),
  end_before: EpochSeconds.optional(),
  start_after: EpochSeconds.optional(),
  end_after: EpochSeconds.optional(),
});
export type ApdsSessionsQuery = z.infer<typeof ApdsSessionsQuery>;

export const ApdsIdParams = z.object({ id: z.string().min(1).max(100) });

// --- shapes (the APDS document's names) ---

export const ApdsMultilingualString = z.array(z.object({ language: z.string(), string: z.string() }));
export const ApdsVersionedReference = z.object({
  id: z.string(),
  version: z.number().int(),
  className: z.string().optional(),
});
export const ApdsReference = z.object({ className: z.string(), id: z.string() });
const Amount = z.object({ currencyType: z.string(), currencyValue: z.number() });

export const ApdsListMetaSchema = z.object({
  referenceInstant: z.number().int(),
  offset: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
});

/** A Place hierarchy element: an operator is a campus (layer 0), each zone a parkingPlace (layer 1). */
export const ApdsPlace = z.object({
  id: z.string(),
  version: z.number().int(),
  name: ApdsMultilingualString,
  layer: z.number().int(),
  type: z.enum(['campus', 'parkingPlace']),
  parentId: ApdsVersionedReference.optional(),
  childIds: z.array(ApdsVersionedReference).optional(),
  operatorDefinedReference: ApdsMultilingualString.optional(),
  hierarchyElementRecord: z.object({ creationTime: z.string() }),
  rightSpecifications: z.array(ApdsVersionedReference).optional(),
  timeZone: z.string().optional(),
  placeStreetAddress: z
    .array(
      z.object({
        addressLines: z.array(z.object({ order: z.number().int(), text: ApdsMultilingualString, type: z.string() })),
        city: ApdsMultilingualString,
        countryCode: z.string(),
        postCode: z.string(),
      }),
    )
    .optional(),
  placeBoundedZone: z
    .array(
      z.object({
        type: z.literal('MultiPolygon'),
        coordinates: z.array(z.array(z.array(z.array(z.number())))),
      }),
    )
    .optional(),
  indicativePlacePointLocation: z
    .array(z.object({ type: z.literal('Point'), coordinates: z.array(z.number()) }))
    .optional(),
  characteristics: z
    .array(
      z.object({
        openToPublic: z.boolean(),
        operatingModes: z.array(z.string()),
        spacesTotal: z.number().int(),
        structureType: z.enum(['offStreetStructure', 'offStreetSurface', 'onStreet']),
      }),
    )
    .optional(),
});
export type ApdsPlace = z.infer<typeof ApdsPlace>;

const RateLine = z.object({
  rateLineType: z.enum(['flatRate', 'flatRateTier', 'incrementingRate']),
  sequence: z.number().int(),
  value: z.number(),
  description: z.string().optional(),
  durationStart: z.string().optional(),
  durationEnd: z.string().optional(),
  incrementPeriod: z.string().optional(),
  usageCondition: z.string().optional(),
});
const RateLineCollection = z.object({
  applicableCurrency: z.string(),
  collectionSequence: z.number().int(),
  minTime: z.string(),
  maxTime: z.string(),
  minValueCollection: z.number().optional(),
  maxValueCollection: z.number().optional(),
  relativeTimes: z.boolean(),
  resetTime: z.string(),
  taxIncluded: z.boolean(),
  validStart: z.string(),
  rateLines: z.array(RateLine),
});

/** A RateTable: one price policy's version in force now (or a zone's preset rate). */
export const ApdsRate = z.object({
  id: z.string(),
  version: z.number().int(),
  rateTableName: ApdsMultilingualString,
  validityStart: z.string(),
  rateType: z.enum(['contract', 'daily', 'event', 'hourly']),
  activeTimes: z.array(z.string()),
  availability: z.enum(['private', 'public', 'restricted']),
  rateResponsibleParty: ApdsVersionedReference,
  rateLineCollections: z.array(RateLineCollection),
});
export type ApdsRate = z.infer<typeof ApdsRate>;

/** A RightSpecification: what a paid session in a zone grants (park there, by plate, at the zone's rate). */
export const ApdsRightSpecification = z.object({
  id: z.string(),
  version: z.number().int(),
  description: ApdsMultilingualString,
  issuer: ApdsVersionedReference,
  transferable: z.boolean(),
  type: z.enum(['oneTimeUseParking']),
  hierarchyElements: z.array(ApdsVersionedReference),
  credentials: z.array(z.object({ type: z.string() })),
  rateEligibility: z.array(
    z.object({
      id: z.string(),
      version: z.number().int(),
      priority: z.number().int(),
      eligibility: z.object({ id: z.string(), version: z.number().int(), eligibilityName: ApdsMultilingualString }),
      rateTable: ApdsVersionedReference,
    }),
  ),
  validity: z.object({
    validityStatus: z.enum(['active', 'suspended']),
    validityTimeSpecification: z.object({ overallStartTime: z.string() }),
  }),
});
export type ApdsRightSpecification = z.infer<typeof ApdsRightSpecification>;

const Credential = z.object({ identifier: ApdsReference, issuer: ApdsMultilingualString, type: z.string() });

/** A Session: one ParkIt parking session, one segment (its assigned right: the bought time). */
export const ApdsSession = z.object({
  id: z.string(),
  version: z.number().int(),
  actualStart: z.string(),
  actualEnd: z.string().optional(),
  initiator: ApdsVersionedReference,
  identifiedCredentials: z.array(Credential),
  segments: z.array(
    z.object({
      id: z.string(),
      version: z.number().int(),
      actualStart: z.string(),
      actualEnd: z.string().optional(),
      assignedRight: z.object({
        id: z.string(),
        version: z.number().int(),
        rightHolder: z.object({}),
        rightSpecification: ApdsVersionedReference,
        issuanceTime: z.string(),
        expiry: z.string(),
        totalMinutes: z.number(),
        totalRightValue: Amount,
        issueMethod: z.literal('electronic'),
      }),
      validationType: z.array(z.string()),
    }),
  ),
  hierachyElement: ApdsVersionedReference,
  identifiedVehicle: z.object({
    country: z.string(),
    stateProvince: z.string(),
    make: z.string(),
    model: z.string(),
  }),
});
export type ApdsSession = z.infer<typeof ApdsSession>;

/** POST /apds/quotes: a QuoteRightRequest (the parts ParkIt reads; the rest is accepted and ignored). */
export const ApdsQuoteRequest = z.looseObject({
  id: z.string().min(1).max(200),
  version: z.number().int().min(1).max(2_147_483_647),
  periodStart: z.iso.datetime({ offset: true }),
  periodEnd: z.iso.datetime({ offset: true }),
  requestTime: z.iso.datetime({ offset: true }),
  referencedRightSpecifications: z
    .array(
      z.looseObject({
        rightSpecificationId: z.looseObject({ id: z.string().min(1).max(100), version: z.number().int().min(1) }),
      }),
    )
    .min(1, M.noSpecification)
    .max(50),
});
export type ApdsQuoteRequest = z.infer<typeof ApdsQuoteRequest>;

export const ApdsQuoteResponse = z.object({
  id: z.string(),
  version: z.number().int(),
  start: z.string(),
  end: z.string(),
  requestTime: z.string(),
  responseTime: z.string(),
  quoteRequestId: ApdsVersionedReference,
  reason: z
    .enum([
      'eligibilityRequirementNotMet',
      'noAvailability',
      'noMatchingSpecification',
      'other',
      'rightSpecificationNotAvailableAtRequestedTimes',
    ])
    .optional(),
  options: z.array(
    z.object({
      id: z.string(),
      version: z.number().int(),
      elementId: ApdsVersionedReference,
      quoteExpiration: z.object({ expiresDateTime: z.string(), firstComeFirstServed: z.boolean() }),
      identifiers: z.array(
        z.object({ rateTableId: ApdsVersionedReference, rightSpecificationId: ApdsVersionedReference }),
      ),
      financialQuote: z.object({ taxIncluded: z.boolean(), value: Amount }),
    }),
  ),
});
export type ApdsQuoteResponse = z.infer<typeof ApdsQuoteResponse>;

/** An APDS list: the document's meta and one page of items. */
export const apdsPage = <T extends z.ZodType>(item: T) => z.object({ meta: ApdsListMetaSchema, data: z.array(item) });
export const ApdsPlaceList = apdsPage(ApdsPlace);
export const ApdsRateList = apdsPage(ApdsRate);
export const ApdsSpecList = apdsPage(ApdsRightSpecification);
export const ApdsSessionList = apdsPage(ApdsSession);
export const ApdsQuoteList = apdsPage(ApdsQuoteResponse);
export type ApdsListMeta = z.infer<typeof ApdsListMetaSchema>;

/** An APDS ResponseStatus: the document's shape of an error (404 of a read). */
export const ApdsStatus = z.object({ status: z.enum(['ok', 'error']), code: z.number().int(), message: z.string() });
