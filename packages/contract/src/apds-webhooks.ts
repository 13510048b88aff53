import { z } from 'zod';
import { apdsPage } from './apds.ts';

/**
 * APDS event subscriptions, /apds/webhooks (docs/apds.md#webhooks): the APDS document's
 * EventSubscription and EventData, and ParkIt's additions (a list of the operator's subscriptions,
 * each subscription's dead letters and their replay). Field names are the document's.
 */

/** The document's EventTypeEnum, in its order. */
export const APDS_TOPICS = [
  'PlaceCreated',
  'PlaceUpdated',
  'PlaceDeleted',
  'AssignedRightCreated',
  'AssignedRightUpdated',
  'AssignedRightDeleted',
  'SessionCreated',
  'SessionUpdated',
  'SessionDeleted',
  'ObservationCreated',
  'ObservationUpdated',
  'ObservationDeleted',
  'RightSpecificationCreated',
  'RightSpecificationUpdated',
  'RightSpecificationDeleted',
  'RateTableUpdated',
  'RateTableDeleted',
] as const;
export type ApdsTopic = (typeof APDS_TOPICS)[number];

/**
 * The topics ParkIt publishes (docs/apds.md#subscribing). A subscription to any other topic of the
 * document is refused with a 400 rather than accepted and never sent.
 */
export const APDS_SENT_TOPICS = [
  'PlaceCreated',
  'PlaceUpdated',
  'PlaceDeleted',
  'AssignedRightCreated',
  'AssignedRightUpdated',
  'AssignedRightDeleted',
  'SessionCreated',
  'SessionUpdated',
  'SessionDeleted',
  'RightSpecificationCreated',
  'RightSpecificationUpdated',
  'RightSpecificationDeleted',
  'RateTableUpdated',
  'RateTableDeleted',
] as const satisfies ApdsTopic[];
const sent = new Set<string>(APDS_SENT_TOPICS);

export const APDS_WEBHOOK_MESSAGES = {
  endpoint: 'endpoint must be an http or https URL',
  publicEndpoint: 'endpoint must be an https URL on a public address',
  uniqueTopics: 'Name each topic once',
  notSent: `ParkIt does not send this topic; it sends ${APDS_SENT_TOPICS.join(', ')}`,
  uniquePlaces: 'Name each hierarchy element once',
  notOurPlace: 'Not a place of this operator',
  noZone: 'hierarchyElements names no zone (an operator counts with includeChildrenEvents: true)',
  tooMany: 'An operator has at most 20 subscriptions',
  subscribed: 'Subscribed',
  updated: 'Updated',
  deleted: 'Deleted',
  replayed: 'Queued again',
} as const;
const M = APDS_WEBHOOK_MESSAGES;

const unique = (items: unknown[]) => new Set(items.map((i) => JSON.stringify(i))).size === items.length;

const Reference = z.object({ className: z.string().min(1).max(100), id: z.string().min(1).max(100) });

/** The document's EventSubscription (POST /webhooks and PUT /webhooks/{id}). */
export const ApdsEventSubscription = z.object({
  endpoint: z.string().min(1).max(2000),
  topics: z
    .array(z.enum(APDS_TOPICS).refine((t) => sent.has(t), M.notSent))
    .min(1)
    .max(APDS_TOPICS.length)
    .refine(unique, M.uniqueTopics),
  hierarchyElements: z.array(Reference).min(1).max(500).refine(unique, M.uniquePlaces).optional(),
  includeChildrenEvents: z.boolean().optional(),
});
export type ApdsEventSubscription = z.infer<typeof ApdsEventSubscription>;

const Status = { status: z.enum(['ok', 'error']), code: z.number().int(), message: z.string() };

/** POST /webhooks' answer: its id and a ResponseStatus, and (ParkIt's) the signing secret, shown this once. */
export const ApdsWebhookCreated = z.object({ id: z.string(), ...Status, secret: z.string() });
export type ApdsWebhookCreated = z.infer<typeof ApdsWebhookCreated>;

/** GET /webhooks/{id}: the subscription as it stands (never its secret). */
export const ApdsWebhook = z.object({
  id: z.string(),
  lastModified: z.string(),
  endpoint: z.string(),
  topics: z.array(z.enum(APDS_TOPICS)),
  hierarchyElements: z.array(Reference).optional(),
  includeChildrenEvents: z.boolean(),
});
export type ApdsWebhook = z.infer<typeof ApdsWebhook>;
export const ApdsWebhookList = apdsPage(ApdsWebhook);

/** An event every attempt failed to deliver, kept until it is replayed or the subscription goes. */
export const ApdsDeadLetter = z.object({
  eventId: z.uuid(),
  topic: z.enum(APDS_TOPICS),
  eventTime: z.string(),
  /** The APDS id of the object the event is about (session-<id>, zone-<id>, policy-<id>, a partner's id…). */
  objectId: z.string(),
  attempts: z.number().int(),
  /** The last failure: `http 500`, or a network error's code (ECONNREFUSED, timeout, private-address). */
  lastError: z.string().nullable(),
});
export type ApdsDeadLetter = z.infer<typeof ApdsDeadLetter>;
export const ApdsDeadLetterList = apdsPage(ApdsDeadLetter);

export const ApdsDeadLetterParams = z.object({ id: z.string().min(1).max(100), eventId: z.uuid() });

/** What a subscriber's endpoint receives: the document's EventData, with ParkIt's `eventId`. */
export const ApdsEventData = z.object({
  /** The same for every delivery of one event (retries, replays): a receiver dedupes by it. */
  eventId: z.uuid(),
  eventSubscriptionId: z.string(),
  eventTime: z.string(),
  topic: z.enum(APDS_TOPICS),
  data: z.array(z.record(z.string(), z.unknown())).min(1),
});
export type ApdsEventData = z.infer<typeof ApdsEventData>;
