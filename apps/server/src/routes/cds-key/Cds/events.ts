import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorResponse } from '@parkit/contract';
import { HttpError } from '../../../lib/http-error.ts';
import {
  CDS_MEDIA_TYPE,
  CDS_VERSION,
  loadFeedOperator,
  operatorStatus,
  queryEvents,
  type CdsEnvelope,
  type FeedOperator,
} from '../../../opendata/index.ts';
import {
  acceptable,
  CDS_COMMON_MESSAGES,
  cdsTimestamp,
  cdsUuid,
  checkWindow,
  DEFAULT_PAGE_SIZE,
  notAcceptable,
  pageLinks,
  PageParams,
} from '../../common/cds.ts';

/**
 * The Curb Data Specification's Events API for a city (docs/open-data.md#events): behind the
 * operator's CDS key (cdsKeyOnly scope; events.md, Authorization), only that operator's sessions,
 * as Curb Events in the spec's envelope and media type. Not cached: the answer changes as cars park.
 */

export const CDS_EVENT_MESSAGES = {
  notAcceptable: `This server speaks ${CDS_MEDIA_TYPE}; send that (or */*) in Accept`,
} as const;

const Place = {
  curb_zone_id: cdsUuid
    .optional()
    .describe('Only events in this Curb Zone (events.md, Query Event); another operator’s: 404'),
  curb_area_id: cdsUuid.optional().describe('Only events in this Curb Area (ParkIt keeps no areas: an empty list)'),
  curb_space_id: cdsUuid.optional().describe('Only events in this Curb Space (ParkIt keeps no spaces: an empty list)'),
};

const EventsQuery = z
  .object({
    ...Place,
    start_time: cdsTimestamp('start_time').describe('ParkIt: events at or after this time (a CDS Timestamp)'),
    end_time: cdsTimestamp('end_time').describe('ParkIt: events before this time (a CDS Timestamp)'),
    ...PageParams,
  })
  .strict()
  .superRefine(checkWindow);
const StatusQuery = z.object(Place).strict();

const Envelope = z
  .looseObject({
    version: z.string(),
    time_zone: z.string(),
    last_updated: z.number().int(),
    currency: z.string(),
    author: z.string().optional(),
    data: z.looseObject({}),
    links: z
      .object({ first: z.string(), last: z.string(), prev: z.string().nullable(), next: z.string().nullable() })
      .optional(),
  })
  .describe('A CDS answer; the JSON Schema of each object is apps/server/src/opendata/schema/cds-events.schema.json');
const cdsAnswer = (description: string) => ({ description, content: { [CDS_MEDIA_TYPE]: { schema: Envelope } } });

/** The ParkIt zone ids a place filter keeps: undefined for all; 404 for a zone that is not the operator's. */
export function zoneFilter(
  op: FeedOperator,
  q: { curb_zone_id?: string | undefined; curb_area_id?: string | undefined; curb_space_id?: string | undefined },
): number[] | undefined {
  // No zone is in an area and no zone has spaces, so either filter keeps nothing.
  if (q.curb_area_id !== undefined || q.curb_space_id !== undefined) return [];
  if (q.curb_zone_id === undefined) return undefined;
  const wanted = q.curb_zone_id.toLowerCase();
  const zone = op.zones.find((z) => z.curbZoneId.toLowerCase() === wanted);
  if (!zone) throw new HttpError(404, CDS_COMMON_MESSAGES.zoneNotFound);
  return [zone.id];
}

const eventRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', async (req) => {
    if (!acceptable(req.headers.accept)) throw new HttpError(406, CDS_EVENT_MESSAGES.notAcceptable);
  });

  /** The envelope (general-information.md, REST Endpoints), not cached: it changes as cars park. */
  function send<D>(reply: FastifyReply, op: FeedOperator, data: D, links?: CdsEnvelope<D>['links']) {
    const body: CdsEnvelope<D> = {
      version: CDS_VERSION,
      time_zone: op.timeZone,
      last_updated: Date.now(),
      currency: 'USD',
      author: 'ParkIt',
      data,
      ...(links ? { links } : {}),
    };
    // As bytes, so that Fastify sends the media type exactly as the spec writes it (no charset added).
    return reply
      .header('cache-control', 'no-store')
      .type(CDS_MEDIA_TYPE)
      .send(Buffer.from(JSON.stringify(body)));
  }

  app.get(
    '/events',
    {
      schema: {
        tags: ['Open data'],
        summary:
          'CDS Query Event: the key’s operator’s sessions as park_start and park_end events, newest first, paged',
        querystring: EventsQuery,
        response: { 200: cdsAnswer('{ data: { events: [Curb Event] } }, paged'), 404: ErrorResponse, ...notAcceptable },
      },
    },
    async (req, reply) => {
      const q = req.query;
      const op = await loadFeedOperator(app.db, req.cdsOperatorId);
      const size = q['page[size]'] ?? DEFAULT_PAGE_SIZE;
      const number = q['page[number]'] ?? 1;
      const zones = zoneFilter(op, q);
      const { events, total } = await queryEvents(app.db, op, {
        ...(q.start_time !== undefined ? { startMs: q.start_time } : {}),
        ...(q.end_time !== undefined ? { endMs: q.end_time } : {}),
        ...(zones !== undefined ? { zoneIds: zones } : {}),
        offset: (number - 1) * size,
        limit: size,
      });
      return send(reply, op, { events }, pageLinks(req, total, number, size));
    },
  );

  app.get(
    '/status',
    {
      schema: {
        tags: ['Open data'],
        summary: 'CDS Query Status: the key’s operator’s one data source, its payments',
        querystring: StatusQuery,
        response: { 200: cdsAnswer('{ data: { status: [Status] } }'), 404: ErrorResponse, ...notAcceptable },
      },
    },
    async (req, reply) => {
      const op = await loadFeedOperator(app.db, req.cdsOperatorId);
      const zones = zoneFilter(op, req.query);
      const status = zones === undefined || zones.length > 0 ? operatorStatus(op) : [];
      return send(reply, op, { status });
    },
  );
};

export default eventRoutes;
