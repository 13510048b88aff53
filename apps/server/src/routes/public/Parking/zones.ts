import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorResponse, Id, NearbyZonesQuery, SearchZonesQuery, Zone, ZoneList } from '@parkit/contract';
import { notFound } from '../../../lib/http-error.ts';
import { ratesNow } from '../../../pricing/index.ts';
import { operatorForRequest } from './operator-for-request.ts';
import * as zones from '../../../zones/index.ts';
import { type ZoneHit, search, toZoneView } from '../../../zones/index.ts';

const errors = { 400: ErrorResponse, 404: ErrorResponse };

/**
 * GET /api/Parking/Zones/{Nearby,Search,:id}: every answer says whether payment is required right
 * now and the rate, both by the zone's price policy as the quote engine prices a stay starting now. Public reads (guests browse zones): a member sees the member's operator, a guest
 * the default one. Zones and prices are read on the replicas when there are some
 * (docs/data-access.md#reads-on-replicas).
 */
const zoneRoutes: FastifyPluginAsyncZod = async (app) => {
  /** Nearby and Search: the operator's zones a query finds, each with its payment status now. */
  function zoneList<Q extends z.ZodType>(
    path: string,
    summary: string,
    querystring: Q,
    find: (operatorId: number, query: z.infer<Q>) => Promise<ZoneHit[]>,
  ) {
    app.get(
      path,
      { schema: { tags: ['Parking'], summary, querystring, response: { 200: ZoneList, ...errors } } },
      async (req) => {
        const operator = await operatorForRequest(app, req);
        const hits = await find(operator.id, req.query as z.infer<Q>);
        const now = new Date();
        const prices = await ratesNow(
          app.reads,
          hits.map((h) => h.zone),
          operator.timezone,
          now,
        );
        return hits.map((h) => toZoneView(h.zone, operator, now, h.distanceM, prices.get(h.zone.id) ?? null));
      },
    );
  }

  zoneList(
    '/Nearby',
    'Zones within radius metres of a position (default 2 km, at most 10 km), nearest first',
    NearbyZonesQuery,
    (operatorId, { lat, lng, radius, limit }) =>
      zones.nearby(app.reads, app.zoneRows, { operatorId, lat, lng, radiusM: radius, limit }),
  );
  zoneList(
    '/Search',
    'A zone number (exact first) or an address or name (prefix and typo-tolerant); nearest first with lat and lng',
    SearchZonesQuery,
    (operatorId, query) => search(app.reads, { operatorId, ...query }),
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
      const zone = await zones.byId(app.reads, operator.id, req.params.id);
      if (!zone) throw notFound();
      const now = new Date();
      const prices = await ratesNow(app.reads, [zone], operator.timezone, now);
      return toZoneView(zone, operator, now, null, prices.get(zone.id) ?? null);
    },
  );
};

export default zoneRoutes;
