import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorResponse, Id, NearbyZonesQuery, SearchZonesQuery, Zone, ZoneList } from '@parkit/contract';
import { notFound } from '../../../lib/http-error.ts';
import { operatorForRequest } from './operator-for-request.ts';
import * as zones from '../../../plugins/app/zones/zone-repository.ts';
import { search } from '../../../plugins/app/zones/zone-search.ts';
import { toZoneView } from '../../../plugins/app/zones/zone-view.ts';

const errors = { 400: ErrorResponse, 404: ErrorResponse };

/**
 * GET /api/Parking/Zones/{Nearby,Search,:id}: every answer says whether payment is required right
 * now. Public reads (issue 11: guests browse zones): a member sees the member's operator, a guest
 * the default one.
 */
const zoneRoutes: FastifyPluginAsyncZod = async (app) => {

  app.get(
    '/Nearby',
    {
      schema: {
        tags: ['Parking'],
        summary: 'Zones within radius metres of a position (default 2 km, at most 10 km), nearest first',
        querystring: NearbyZonesQuery,
        response: { 200: ZoneList, ...errors },
      },
    },
    async (req) => {
      const operator = await operatorForRequest(app, req);
      const { lat, lng, radius, limit } = req.query;
      const hits = await zones.nearby(app.db, { operatorId: operator.id, lat, lng, radiusM: radius, limit });
      const now = new Date();
      return hits.map((h) => toZoneView(h, operator, now, h.distanceM));
    },
  );

  app.get(
    '/Search',
    {
      schema: {
        tags: ['Parking'],
        summary: 'A zone number (exact first) or an address or name (prefix and typo-tolerant); nearest first with lat and lng',
        querystring: SearchZonesQuery,
        response: { 200: ZoneList, ...errors },
      },
    },
    async (req) => {
      const operator = await operatorForRequest(app, req);
      const hits = await search(app.db, { operatorId: operator.id, ...req.query });
      const now = new Date();
      return hits.map((h) => toZoneView(h, operator, now, h.distanceM));
    },
  );

  app.get(
    '/:id',
    {
      schema: {
        tags: ['Parking'],
        summary: 'One zone of the operator (the member’s, or the default one for a guest)',
        params: z.object({ id: Id }),
        response: { 200: Zone, ...errors },
      },
    },
    async (req) => {
      const operator = await operatorForRequest(app, req);
      const zone = await zones.byId(app.db, operator.id, req.params.id);
      if (!zone) throw notFound();
      return toZoneView(zone, operator, new Date());
    },
  );
};

export default zoneRoutes;
