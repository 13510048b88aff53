import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorResponse } from '@parkit/contract';
import { HttpError } from '../../../lib/http-error.ts';
import {
  AGGREGATE_COLUMNS,
  aggregateRows,
  CDS_CSV_MEDIA_TYPE,
  loadFeedOperator,
  METRIC_TYPES,
  SESSION_COLUMNS,
  sessionRows,
  toCsv,
} from '../../../opendata/index.ts';
import { acceptable, cdsTimestamp, cdsUuid, checkWindow, notAcceptable } from '../../common/cds.ts';
import { mediaAnswer } from '../../common/media-types.ts';
import { zoneFilter } from './events.ts';

/**
 * The Curb Data Specification's Metrics API for a city (docs/open-data.md#metrics): behind the
 * operator's CDS key (metrics.md, Authorization), CSV under the spec's media type, only that
 * operator's zones. A window is at most MAX_WINDOW_DAYS long; without start_time it is the
 * DEFAULT_WINDOW_DAYS before end_time (default now).
 */

export const DEFAULT_WINDOW_DAYS = 31;
export const MAX_WINDOW_DAYS = 366;
const DAY_MS = 86_400_000;

export const CDS_METRIC_MESSAGES = {
  notAcceptable: `This server speaks ${CDS_CSV_MEDIA_TYPE}; send that (or */*) in Accept`,
  placeTogether: 'curb_place_type and curb_place_id go together: give both or neither',
  windowTooLong: `The window (start_time to end_time) is at most ${MAX_WINDOW_DAYS} days`,
} as const;

const Common = {
  curb_place_type: z
    .enum(['area', 'zone', 'space'], { error: 'curb_place_type must be area, zone or space' })
    .optional()
    .describe('The type of curb place (metrics.md); with curb_place_id'),
  curb_place_id: cdsUuid.optional().describe('One curb place (another operator’s zone: 404); with curb_place_type'),
  start_time: cdsTimestamp('start_time').describe('Start of the period, inclusive (a CDS Timestamp)'),
  end_time: cdsTimestamp('end_time').describe('End of the period, exclusive (a CDS Timestamp; default now)'),
};

function checkQuery(
  q: { curb_place_type?: string; curb_place_id?: string; start_time?: number; end_time?: number },
  ctx: z.RefinementCtx,
) {
  checkWindow(q, ctx);
  if ((q.curb_place_type === undefined) !== (q.curb_place_id === undefined))
    ctx.addIssue({ code: 'custom', path: ['curb_place_id'], message: CDS_METRIC_MESSAGES.placeTogether });
  if (q.start_time !== undefined && q.end_time !== undefined && q.end_time - q.start_time > MAX_WINDOW_DAYS * DAY_MS)
    ctx.addIssue({ code: 'custom', path: ['start_time'], message: CDS_METRIC_MESSAGES.windowTooLong });
}

const SessionsQuery = z.object(Common).strict().superRefine(checkQuery);
const AggregatesQuery = z
  .object({
    ...Common,
    metric_type: z
      .enum(METRIC_TYPES, { error: `metric_type must be one of ${METRIC_TYPES.join(', ')}` })
      .optional()
      .describe('Only this metric (metrics.md, Methodology)'),
  })
  .strict()
  .superRefine(checkQuery);

const csv = (description: string) => ({
  200: mediaAnswer(description, [CDS_CSV_MEDIA_TYPE], 'text'),
  404: ErrorResponse,
  ...notAcceptable,
});

const metricRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', async (req) => {
    if (!acceptable(req.headers.accept, 'csv')) throw new HttpError(406, CDS_METRIC_MESSAGES.notAcceptable);
  });

  async function scope(
    operatorId: number,
    q: {
      curb_place_type?: string | undefined;
      curb_place_id?: string | undefined;
      start_time?: number | undefined;
      end_time?: number | undefined;
    },
  ) {
    const op = await loadFeedOperator(app.db, operatorId);
    const endMs = q.end_time ?? Date.now();
    const startMs = q.start_time ?? endMs - DEFAULT_WINDOW_DAYS * DAY_MS;
    if (endMs - startMs > MAX_WINDOW_DAYS * DAY_MS || startMs >= endMs)
      throw new HttpError(400, CDS_METRIC_MESSAGES.windowTooLong, [
        { field: 'start_time', message: CDS_METRIC_MESSAGES.windowTooLong },
      ]);
    const zones =
      q.curb_place_type === undefined
        ? undefined
        : q.curb_place_type === 'zone'
          ? zoneFilter(op, { curb_zone_id: q.curb_place_id })
          : [];
    return { op, startMs, endMs, ...(zones !== undefined ? { zoneIds: zones } : {}) };
  }

  const send = (reply: FastifyReply, body: string) =>
    reply.header('cache-control', 'no-store').type(CDS_CSV_MEDIA_TYPE).send(Buffer.from(body));

  app.get(
    '/sessions',
    {
      schema: {
        tags: ['Open data'],
        summary: 'CDS Query Session: the key’s operator’s sessions that started in the window, as CSV',
        querystring: SessionsQuery,
        response: csv('CSV, one Session a row (metrics.md, Session); the columns are SESSION_COLUMNS'),
      },
    },
    async (req, reply) => {
      const { op, ...q } = await scope(req.cdsOperatorId, req.query);
      return send(reply, toCsv(SESSION_COLUMNS, await sessionRows(app.db, op, q)));
    },
  );

  app.get(
    '/aggregates',
    {
      schema: {
        tags: ['Open data'],
        summary: 'CDS Query Aggregate: turnover, dwell and occupancy per zone and hour of the operator’s day, as CSV',
        querystring: AggregatesQuery,
        response: csv('CSV, one Aggregate a row (metrics.md, Aggregate)'),
      },
    },
    async (req, reply) => {
      const { op, ...q } = await scope(req.cdsOperatorId, req.query);
      const rows = await aggregateRows(app.db, op, {
        ...q,
        ...(req.query.metric_type !== undefined ? { metric: req.query.metric_type } : {}),
      });
      return send(reply, toCsv(AGGREGATE_COLUMNS, rows));
    },
  );
};

export default metricRoutes;
