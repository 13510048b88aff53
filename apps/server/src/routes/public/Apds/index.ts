import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  APDS_MESSAGES as M,
  ApdsIdParams,
  ApdsPlace,
  ApdsPlaceList,
  ApdsPlacesQuery,
  ApdsQuoteList,
  ApdsQuoteRequest,
  ApdsRate,
  ApdsRateList,
  ApdsRatesQuery,
  ApdsRightSpecification,
  ApdsSpecList,
  ApdsSpecsQuery,
  ApdsStatus,
} from '@parkit/contract';
import { badRequest } from '../../../lib/http-error.ts';
import * as apds from '../../../apds/index.ts';

/** An APDS read of an id we do not have: the APDS document's ResponseStatus, 404. */
export const apdsNotFound = (reply: FastifyReply) =>
  reply.code(404).send({ status: 'error' as const, code: 404, message: M.notFound });

const tags = ['APDS'];

/**
 * The APDS API's public reads (docs/apds.md): Places, RateTables and RightSpecifications of every
 * operator's live zones, and quotes. Paths, parameters and field names are the APDS document's
 * (docs/standards/apds/APDS_API_bundled.json).
 */
const apdsPublicRoutes: FastifyPluginAsyncZod = async (app) => {
  const currency = () => app.wallet.currency.toUpperCase();

  app.get(
    '/places',
    {
      schema: {
        tags,
        summary: 'APDS: list and search the Place hierarchy (operators as campuses, their zones as parking places)',
        querystring: ApdsPlacesQuery,
        response: { 200: ApdsPlaceList },
      },
    },
    async (req) => apds.listPlaces(app.db, req.query, new Date()),
  );
  app.get(
    '/places/:id',
    {
      schema: {
        tags,
        summary: 'APDS: one element of the Place hierarchy (operator-<id> or zone-<id>)',
        params: ApdsIdParams,
        response: { 200: ApdsPlace, 404: ApdsStatus },
      },
    },
    async (req, reply) => (await apds.getPlace(app.db, req.params.id, new Date())) ?? apdsNotFound(reply),
  );
  app.get(
    '/rates',
    {
      schema: {
        tags,
        summary: 'APDS: the RateTables (each price policy’s version in force now; a zone without one, its preset)',
        querystring: ApdsRatesQuery,
        response: { 200: ApdsRateList },
      },
    },
    async (req) => apds.listRates(app.db, req.query, currency(), new Date()),
  );
  app.get(
    '/rates/:id',
    {
      schema: {
        tags,
        summary: 'APDS: one RateTable (policy-<id> or preset-zone-<id>)',
        params: ApdsIdParams,
        response: { 200: ApdsRate, 404: ApdsStatus },
      },
    },
    async (req, reply) => (await apds.getRate(app.db, req.params.id, currency(), new Date())) ?? apdsNotFound(reply),
  );
  app.get(
    '/rights/specs',
    {
      schema: {
        tags,
        summary: 'APDS: the RightSpecifications (what a paid session in each zone grants)',
        querystring: ApdsSpecsQuery,
        response: { 200: ApdsSpecList },
      },
    },
    async (req) => apds.listSpecs(app.db, req.query, new Date()),
  );
  app.get(
    '/rights/specs/:id',
    {
      schema: {
        tags,
        summary: 'APDS: one RightSpecification (zone-<id>)',
        params: ApdsIdParams,
        response: { 200: ApdsRightSpecification, 404: ApdsStatus },
      },
    },
    async (req, reply) => (await apds.getSpec(app.db, req.params.id, new Date())) ?? apdsNotFound(reply),
  );
  app.post(
    '/quotes',
    {
      schema: {
        tags,
        summary: 'APDS: price a stay in one or more zones (a QuoteRightRequest); nothing is stored',
        body: ApdsQuoteRequest,
        response: { 200: ApdsQuoteList },
      },
    },
    async (req) => {
      const start = Date.parse(req.body.periodStart);
      const end = Date.parse(req.body.periodEnd);
      if (end <= start) throw badRequest('periodEnd', M.periodEnd);
      if (end - start > 7 * 24 * 3_600_000) throw badRequest('periodEnd', M.periodTooLong);
      const now = new Date();
      const data = await apds.quoteRights(app.db, req.body, currency(), now);
      return {
        meta: {
          referenceInstant: Math.floor(now.getTime() / 1000),
          offset: 0,
          pageSize: data.length,
          total: data.length,
        },
        data,
      };
    },
  );
};

export default apdsPublicRoutes;
