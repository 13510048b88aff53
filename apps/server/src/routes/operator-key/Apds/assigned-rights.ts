import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  APDS_MESSAGES as M,
  ApdsAssignedRight,
  ApdsAssignedRightCreated,
  ApdsAssignedRightList,
  ApdsAssignedRightRequest,
  ApdsAssignedRightsQuery,
  ApdsErrorResponse,
  ApdsIdParams,
  ApdsStatus,
  IdempotencyHeaders,
} from '@parkit/contract';
import type { Executor } from '../../../db/client.ts';
import * as apds from '../../../apds/index.ts';
import { notFound } from '../../../lib/http-error.ts';
import { IDEMPOTENCY_HEADER, idempotencyKeyOf } from '../../../wallet/index.ts';
import { apdsNotFound } from '../../public/Apds/index.ts';
import { withOptionalKey } from './optional-key.ts';

const tags = ['APDS'];

/**
 * /apds/rights/assigned (docs/apds.md#assigned-rights): a third party with the operator's API key
 * assigns rights to park in the operator's zones, which the plate check honours, reads them back,
 * replaces them with a next version and deletes them. Another operator's right is not found. The
 * create's idempotency handle is the right's id, and the Idempotency-Key when one is sent; an
 * update's, the Idempotency-Key when one is sent (the operator's keys, wallet/idempotency.ts).
 */
const apdsAssignedRightRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/rights/assigned',
    {
      schema: {
        tags,
        summary:
          'APDS: assign a right to park (plates, a zone-<id> right specification, a window) in the key’s operator’s register; the plate check honours it. A repeat of the id or Idempotency-Key with the same content answers the same right, with other content 409',
        headers: IdempotencyHeaders,
        body: ApdsAssignedRightRequest,
        response: { 201: ApdsAssignedRightCreated, 400: ApdsErrorResponse, 409: ApdsErrorResponse },
      },
    },
    async (req, reply) => {
      const key = req.headers[IDEMPOTENCY_HEADER] === undefined ? null : idempotencyKeyOf(req);
      const out = await apds.createAssignedRight(app.db, req.operatorKey.row!.operatorId, req.body, key, new Date());
      if (!out.created) void reply.header('idempotent-replayed', 'true');
      void reply.header('location', `/apds/rights/assigned/${encodeURIComponent(out.right.id)}`);
      return reply.code(201).send({ status: 'ok' as const, code: 201, message: M.created, assignedRight: out.right });
    },
  );
  app.get(
    '/rights/assigned',
    {
      schema: {
        tags,
        summary: 'APDS: list and search the assigned rights in the key’s operator’s register',
        querystring: ApdsAssignedRightsQuery,
        response: { 200: ApdsAssignedRightList },
      },
    },
    async (req) => apds.listAssignedRights(app.db, req.operatorKey.row!.operatorId, req.query, new Date()),
  );
  app.get(
    '/rights/assigned/:id',
    {
      schema: {
        tags,
        summary: 'APDS: one assigned right of the key’s operator, by the id it was created with',
        params: ApdsIdParams,
        response: { 200: ApdsAssignedRight, 404: ApdsStatus },
      },
    },
    async (req, reply) =>
      (await apds.getAssignedRight(app.db, req.operatorKey.row!.operatorId, req.params.id)) ?? apdsNotFound(reply),
  );
  app.put(
    '/rights/assigned/:id',
    {
      schema: {
        tags,
        summary:
          'APDS: replace an assigned right of the key’s operator with its next version (the whole right, checked as a create is; version the stored one plus one, else 409 and nothing changes). An Idempotency-Key header makes a retry answer the first answer (the same key with another body: 422)',
        params: ApdsIdParams,
        headers: IdempotencyHeaders,
        body: ApdsAssignedRightRequest,
        response: {
          200: ApdsAssignedRightCreated,
          400: ApdsErrorResponse,
          404: ApdsStatus,
          409: ApdsErrorResponse,
          422: ApdsErrorResponse,
        },
      },
    },
    async (req, reply) => {
      const operatorId = req.operatorKey.row!.operatorId;
      const update = async (db: Executor) => {
        const right = await apds.updateAssignedRight(db, operatorId, req.params.id, req.body, new Date());
        if (!right) throw notFound(M.notFound);
        return { status: 'ok' as const, code: 200, message: M.updated, assignedRight: right };
      };
      return withOptionalKey(
        app.db,
        req,
        reply,
        { operatorId, scope: `APDS/Rights/Assigned/${req.params.id}` },
        update,
      );
    },
  );
  app.delete(
    '/rights/assigned/:id',
    {
      schema: {
        tags,
        summary: 'APDS: delete an assigned right of the key’s operator; the plate check stops honouring it at once',
        params: ApdsIdParams,
        response: { 200: ApdsStatus, 404: ApdsStatus },
      },
    },
    async (req, reply) =>
      (await apds.deleteAssignedRight(app.db, req.operatorKey.row!.operatorId, req.params.id))
        ? { status: 'ok' as const, code: 200, message: M.deleted }
        : apdsNotFound(reply),
  );
};

export default apdsAssignedRightRoutes;
