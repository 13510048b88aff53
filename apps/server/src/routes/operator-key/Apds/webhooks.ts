import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  APDS_WEBHOOK_MESSAGES as M,
  ApdsDeadLetterList,
  ApdsDeadLetterParams,
  ApdsEventSubscription,
  ApdsIdParams,
  ApdsStatus,
  ApdsWebhook,
  ApdsWebhookCreated,
  ApdsWebhookList,
} from '@parkit/contract';
import * as apds from '../../../apds/index.ts';
import { apdsNotFound } from '../../public/Apds/index.ts';

const tags = ['APDS'];

export interface ApdsWebhookRouteOptions {
  /** Endpoints on loopback and private addresses are taken (tests, development): APDS_WEBHOOK_PRIVATE_URLS. */
  privateOk: boolean;
}

const ok = (message: string) => ({ status: 'ok' as const, code: 200, message });
const Offset = z.object({ offset: z.coerce.number().int().min(0).max(1_000_000).optional() });

/**
 * /apds/webhooks (docs/apds.md#webhooks): the APDS document's event subscriptions, behind the
 * operator's API key, each reached only with its operator's key (another's id is a 404); and
 * ParkIt's additions: the list of the operator's subscriptions, a subscription's dead letters and
 * their replay. What is sent, and how, is apds/apds-webhook-sender.ts.
 */
const apdsWebhookRoutes: FastifyPluginAsyncZod<ApdsWebhookRouteOptions> = async (app, opts) => {
  const operatorOf = (req: { operatorKey: { row?: { operatorId: number } | null } }) => req.operatorKey.row!.operatorId;

  app.post(
    '/webhooks',
    {
      schema: {
        tags,
        summary: 'APDS: subscribe an endpoint to event topics of the key’s operator’s zones (the secret is shown once)',
        body: ApdsEventSubscription,
        response: { 200: ApdsWebhookCreated },
      },
    },
    async (req) => {
      const made = await apds.subscribe(app.db, operatorOf(req), req.body, opts.privateOk);
      return { ...made, ...ok(M.subscribed) };
    },
  );
  app.get(
    '/webhooks',
    {
      schema: {
        tags,
        summary: 'APDS (ParkIt’s addition): the key’s operator’s event subscriptions',
        querystring: Offset,
        response: { 200: ApdsWebhookList },
      },
    },
    async (req) => apds.listWebhooks(app.db, operatorOf(req), req.query.offset ?? 0, new Date()),
  );
  app.get(
    '/webhooks/:id',
    {
      schema: {
        tags,
        summary: 'APDS: one event subscription of the key’s operator (webhook-<id>)',
        params: ApdsIdParams,
        response: { 200: ApdsWebhook, 404: ApdsStatus },
      },
    },
    async (req, reply) => (await apds.getWebhook(app.db, operatorOf(req), req.params.id)) ?? apdsNotFound(reply),
  );
  app.put(
    '/webhooks/:id',
    {
      schema: {
        tags,
        summary: 'APDS: new settings for an event subscription (its secret stays)',
        params: ApdsIdParams,
        body: ApdsEventSubscription,
        response: { 200: ApdsStatus, 404: ApdsStatus },
      },
    },
    async (req, reply) =>
      (await apds.updateWebhook(app.db, operatorOf(req), req.params.id, req.body, opts.privateOk))
        ? ok(M.updated)
        : apdsNotFound(reply),
  );
  app.delete(
    '/webhooks/:id',
    {
      schema: {
        tags,
        summary: 'APDS: delete an event subscription, with its events waiting or dead',
        params: ApdsIdParams,
        response: { 200: ApdsStatus, 404: ApdsStatus },
      },
    },
    async (req, reply) =>
      (await apds.deleteWebhook(app.db, operatorOf(req), req.params.id)) ? ok(M.deleted) : apdsNotFound(reply),
  );
  app.get(
    '/webhooks/:id/dead-letters',
    {
      schema: {
        tags,
        summary: 'APDS (ParkIt’s addition): the events of a subscription that every attempt failed to deliver',
        params: ApdsIdParams,
        querystring: Offset,
        response: { 200: ApdsDeadLetterList, 404: ApdsStatus },
      },
    },
    async (req, reply) => {
      const id = await apds.ownWebhook(app.db, operatorOf(req), req.params.id);
      if (id === null) return apdsNotFound(reply);
      return apds.deadLetters(app.db, id, req.query.offset ?? 0, new Date());
    },
  );
  app.post(
    '/webhooks/:id/dead-letters/:eventId/replay',
    {
      schema: {
        tags,
        summary: 'APDS (ParkIt’s addition): send a dead event again, before the subscription’s waiting ones',
        params: ApdsDeadLetterParams,
        response: { 200: ApdsStatus, 404: ApdsStatus },
      },
    },
    async (req, reply) => {
      const id = await apds.ownWebhook(app.db, operatorOf(req), req.params.id);
      if (id === null || !(await apds.replay(app.db, id, req.params.eventId, new Date()))) return apdsNotFound(reply);
      return ok(M.replayed);
    },
  );
};

export default apdsWebhookRoutes;
