import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorResponse } from '@parkit/contract';
import { HttpError } from '../../../lib/http-error.ts';
import { acceptable, DEFAULT_PAGE_SIZE, PageParams } from '../../common/cds.ts';
import {
  CDS_CACHE_CONTROL,
  CDS_MEDIA_TYPE,
  CDS_VERSION,
  findZone,
  isUuid,
  loadCurbData,
  queryPolicies,
  queryZones,
  type CdsEnvelope,
} from '../../../opendata/index.ts';

/**
 * The Curb Data Specification's Curbs API (docs/open-data.md): public, no authorization
 * (curbs.md, Authorization), every answer in the spec's envelope under its media type, cacheable
 * (ETag, Last-Modified; 304 on If-None-Match or If-Modified-Since).
 */

export const CDS_MESSAGES = {
  bbox: 'min_lat, min_lng, max_lat and max_lng go together: give all four or none',
  near: 'lat, lng and radius go together: give all three or none',
  boxOrder: 'min_lat must not be above max_lat, nor min_lng above max_lng',
  timeZones:
    'The operators of this server are in more than one time zone; name one with operator= (a CDS feed has one time zone)',
  notAcceptable: `This server speaks ${CDS_MEDIA_TYPE}; send that (or */*) in Accept`,
  zoneNotFound: 'Curb Zone not found',
  policyNotFound: 'Curb Policy not found',
  uuid: 'Must be a UUID',
} as const;

const num = (name: string, min: number, max: number) =>
  z.coerce
    .number({ error: `${name} must be a number` })
    .refine(Number.isFinite, `${name} must be a number`)
    .refine((n) => n >= min && n <= max, `${name} must be between ${min} and ${max}`)
    .optional();
const bool = (name: string) => z.enum(['true', 'false'], { error: `${name} must be true or false` }).optional();
const timestamp = z.coerce
  .number({ error: 'time must be milliseconds since 1970 (a CDS Timestamp)' })
  .int('time must be milliseconds since 1970 (a CDS Timestamp)')
  .min(0, 'time must be milliseconds since 1970 (a CDS Timestamp)')
  .max(8.64e15, 'time must be milliseconds since 1970 (a CDS Timestamp)')
  .optional();
const uuid = z.string().refine(isUuid, CDS_MESSAGES.uuid);

const Paging = {
  operator: z.coerce
    .number({ error: 'operator must be a number' })
    .int('operator must be a whole number')
    .positive('operator must be positive')
    .max(2_147_483_647, 'operator is too large')
    .optional()
    .describe('ParkIt: only this operator’s zones and policies (needed when operators are in several time zones)'),
  ...PageParams,
};

const Box = {
  min_lat: num('min_lat', -90, 90),
  min_lng: num('min_lng', -180, 180),
  max_lat: num('max_lat', -90, 90),
  max_lng: num('max_lng', -180, 180),
  lat: num('lat', -90, 90),
  lng: num('lng', -180, 180),
  radius: num('radius', 0, 4_000_000_000).describe('Centimeters (curbs.md)'),
};

function checkGroups(q: Record<string, unknown>, ctx: z.RefinementCtx) {
  const box = ['min_lat', 'min_lng', 'max_lat', 'max_lng'].filter((k) => q[k] !== undefined);
  if (box.length > 0 && box.length < 4) ctx.addIssue({ code: 'custom', path: ['min_lat'], message: CDS_MESSAGES.bbox });
  if (
    box.length === 4 &&
    ((q.min_lat as number) > (q.max_lat as number) || (q.min_lng as number) > (q.max_lng as number))
  )
    ctx.addIssue({ code: 'custom', path: ['min_lat'], message: CDS_MESSAGES.boxOrder });
  const near = ['lat', 'lng', 'radius'].filter((k) => q[k] !== undefined);
  if (near.length > 0 && near.length < 3) ctx.addIssue({ code: 'custom', path: ['lat'], message: CDS_MESSAGES.near });
}

const ZonesQuery = z
  .object({
    area: uuid.optional().describe('A Curb Area id (ParkIt publishes no areas: no zone is in one)'),
    ...Box,
    include_geometry: bool('include_geometry'),
    time: timestamp,
    ...Paging,
  })
  .strict()
  .superRefine(checkGroups);
const ZoneQuery = z
  .object({ time: timestamp, show_historic: bool('show_historic'), operator: Paging.operator })
  .strict();
const AreasQuery = z
  .object({ ...Box, ...Paging })
  .strict()
  .superRefine(checkGroups);
const SpacesQuery = z
  .object({ zone: uuid.optional(), ...Box, time: timestamp, ...Paging })
  .strict()
  .superRefine(checkGroups);
const PoliciesQuery = z
  .object({
    ids: z
      .string()
      .max(37 * 1000, 'ids: at most 1000 UUIDs')
      .refine((s) => s.split(',').every(isUuid), 'ids must be UUIDs separated by commas')
      .optional(),
    ...Paging,
  })
  .strict();

/** The envelope of every answer (general-information.md, REST Endpoints), as the OpenAPI document shows it. */
const Envelope = z
  .looseObject({
    version: z.string(),
    time_zone: z.string(),
    last_updated: z.number().int(),
    currency: z.string(),
    author: z.string().optional(),
    license_url: z.string().optional(),
    data: z.looseObject({}),
    links: z
      .object({ first: z.string(), last: z.string(), prev: z.string().nullable(), next: z.string().nullable() })
      .optional(),
  })
  .describe('A CDS answer; the JSON Schema of each object is apps/server/src/opendata/schema/cds-curbs.schema.json');
const cdsAnswer = (description: string) => ({
  description,
  content: { [CDS_MEDIA_TYPE]: { schema: Envelope } },
});
const notModified = z
  .null()
  .describe('Not Modified: the copy the client holds (If-None-Match, If-Modified-Since) is current; no body');
const notAcceptable = { 406: ErrorResponse };

const curbRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', async (req) => {
    if (!acceptable(req.headers.accept)) throw new HttpError(406, CDS_MESSAGES.notAcceptable);
  });

  async function feed(operatorId: number | undefined, atMs: number) {
    const data = await loadCurbData(app.db, operatorId, atMs);
    if (data.timeZones.length > 1)
      throw new HttpError(400, CDS_MESSAGES.timeZones, [{ field: 'operator', message: CDS_MESSAGES.timeZones }]);
    return data;
  }

  /** The envelope, sent with its validators; 304 when the client's copy is current. */
  function send<D>(
    req: FastifyRequest,
    reply: FastifyReply,
    timeZone: string | undefined,
    lastUpdated: number,
    data: D,
    links?: CdsEnvelope<D>['links'],
  ) {
    const envelope: CdsEnvelope<D> = {
      version: CDS_VERSION,
      time_zone: timeZone ?? 'UTC',
      last_updated: lastUpdated,
      currency: 'USD',
      author: 'ParkIt',
      data,
      ...(links ? { links } : {}),
    };
    const body = JSON.stringify(envelope);
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
    const modified = new Date(Math.floor(lastUpdated / 1000) * 1000);
    void reply
      .header('etag', etag)
      .header('last-modified', modified.toUTCString())
      .header('cache-control', CDS_CACHE_CONTROL);
    void reply.header('vary', 'Accept');
    const match = req.headers['if-none-match'];
    const since = req.headers['if-modified-since'];
    const fresh =
      match !== undefined
        ? match.split(',').some((t) => t.trim().replace(/^W\//, '') === etag || t.trim() === '*')
        : since !== undefined && !Number.isNaN(Date.parse(since)) && modified.getTime() <= Date.parse(since);
    if (fresh) return reply.code(304).send();
    // As bytes, so that Fastify sends the media type exactly as the spec writes it (no charset added).
    return reply.type(CDS_MEDIA_TYPE).send(Buffer.from(body));
  }

  /** One page of a list and its links (general-information.md, Pagination). */
  function page<T>(req: FastifyRequest, list: T[], q: { 'page[number]'?: number; 'page[size]'?: number }) {
    const size = q['page[size]'] ?? DEFAULT_PAGE_SIZE;
    const last = Math.max(1, Math.ceil(list.length / size));
    const number = q['page[number]'] ?? 1;
    const url = new URL(req.url, `${req.protocol}://${req.host}`);
    const link = (n: number) => {
      url.searchParams.set('page[number]', String(n));
      url.searchParams.set('page[size]', String(size));
      return url.toString();
    };
    return {
      items: list.slice((number - 1) * size, number * size),
      links: {
        first: link(1),
        last: link(last),
        prev: number > 1 ? link(Math.min(number - 1, last)) : null,
        next: number < last ? link(number + 1) : null,
      },
    };
  }

  app.get(
    '/zones',
    {
      schema: {
        tags: ['Open data'],
        summary: 'CDS Query Curb Zones: every operator’s zones as Curb Zones (bbox, point and radius, time, paging)',
        querystring: ZonesQuery,
        response: { 200: cdsAnswer('{ data: { zones: [Curb Zone] } }, paged'), 304: notModified, ...notAcceptable },
      },
    },
    async (req, reply) => {
      const q = req.query;
      const now = Date.now();
      const atMs = q.time ?? now;
      const data = await feed(q.operator, atMs);
      const zones = queryZones(data, {
        atMs,
        includeGeometry: q.include_geometry !== 'false',
        ...(q.area !== undefined ? { area: q.area } : {}),
        ...(q.min_lat !== undefined
          ? { box: { minLat: q.min_lat, minLng: q.min_lng!, maxLat: q.max_lat!, maxLng: q.max_lng! } }
          : {}),
        ...(q.lat !== undefined ? { near: { lat: q.lat, lng: q.lng!, radiusCm: q.radius! } } : {}),
      });
      const p = page(req, zones, q);
      return send(req, reply, data.timeZones[0], data.lastUpdatedMs, { zones: p.items }, p.links);
    },
  );

  app.get(
    '/zones/:curb_zone_id',
    {
      schema: {
        tags: ['Open data'],
        summary: 'CDS Fetch a Curb Zone',
        params: z.object({ curb_zone_id: uuid }),
        querystring: ZoneQuery,
        response: { 200: cdsAnswer('The Curb Zone'), 304: notModified, 404: ErrorResponse, ...notAcceptable },
      },
    },
    async (req, reply) => {
      const data = await feed(req.query.operator, req.query.time ?? Date.now());
      const zone = findZone(data, req.params.curb_zone_id, req.query.time, req.query.show_historic === 'true');
      if (!zone) throw new HttpError(404, CDS_MESSAGES.zoneNotFound);
      return send(req, reply, data.timeZones[0], data.lastUpdatedMs, zone);
    },
  );

  app.get(
    '/policies',
    {
      schema: {
        tags: ['Open data'],
        summary: 'CDS Query Curb Policies: every price policy as CDS Policies with Rules and Rates',
        querystring: PoliciesQuery,
        response: { 200: cdsAnswer('{ data: { policies: [Policy] } }, paged'), 304: notModified, ...notAcceptable },
      },
    },
    async (req, reply) => {
      const now = Date.now();
      const data = await feed(req.query.operator, now);
      const ids = req.query.ids?.split(',');
      const p = page(req, queryPolicies(data, ids, now), req.query);
      return send(req, reply, data.timeZones[0], data.lastUpdatedMs, { policies: p.items }, p.links);
    },
  );

  app.get(
    '/policies/:curb_policy_id',
    {
      schema: {
        tags: ['Open data'],
        summary: 'CDS Fetch a Curb Policy',
        params: z.object({ curb_policy_id: uuid }),
        querystring: z.object({ operator: Paging.operator }).strict(),
        response: { 200: cdsAnswer('The Policy'), 304: notModified, 404: ErrorResponse, ...notAcceptable },
      },
    },
    async (req, reply) => {
      const now = Date.now();
      const data = await feed(req.query.operator, now);
      const [policy] = queryPolicies(data, [req.params.curb_policy_id], now);
      if (!policy) throw new HttpError(404, CDS_MESSAGES.policyNotFound);
      return send(req, reply, data.timeZones[0], data.lastUpdatedMs, policy);
    },
  );

  // Curb Areas and Curb Spaces are optional (curbs.md); ParkIt keeps neither, so both lists are empty.
  app.get(
    '/areas',
    {
      schema: {
        tags: ['Open data'],
        summary: 'CDS Query Curb Areas: ParkIt keeps no curb areas, so the list is empty',
        querystring: AreasQuery,
        response: { 200: cdsAnswer('{ data: { areas: [] } }'), 304: notModified, ...notAcceptable },
      },
    },
    async (req, reply) => {
      const data = await feed(req.query.operator, Date.now());
      const p = page(req, [], req.query);
      return send(req, reply, data.timeZones[0], data.lastUpdatedMs, { areas: p.items }, p.links);
    },
  );

  app.get(
    '/spaces',
    {
      schema: {
        tags: ['Open data'],
        summary: 'CDS Query Curb Spaces: ParkIt keeps no demarcated spaces, so the list is empty',
        querystring: SpacesQuery,
        response: { 200: cdsAnswer('{ data: { spaces: [] } }'), 304: notModified, ...notAcceptable },
      },
    },
    async (req, reply) => {
      const data = await feed(req.query.operator, Date.now());
      const p = page(req, [], req.query);
      return send(req, reply, data.timeZones[0], data.lastUpdatedMs, { spaces: p.items }, p.links);
    },
  );
};

export default curbRoutes;
