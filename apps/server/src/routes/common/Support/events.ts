import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ServerResponse } from 'node:http';
import { MESSAGES } from '@parkit/contract';
import { tooManyRequests } from '../../../lib/http-error.ts';
import { ACCESS_TOKEN_SECONDS } from '../../../auth/index.ts';
import type { BusEvent } from '../../../support/index.ts';

/** What one live stream sends for a bus event (null: nothing for this client). */
export type EventMapper = (event: BusEvent) => Promise<unknown>;

export interface EventStreams {
  /** Turns the request into a server-sent-events stream; `first` is written before live events. */
  open(req: FastifyRequest, reply: FastifyReply, map: EventMapper, first?: unknown[]): void;
}

const PING_MS = 20_000;
/** Streams one member may hold open on one process (tabs, devices); more is refused with 429. */
export const MAX_STREAMS_PER_MEMBER = 5;
/**
 * A stream lives no longer than an access token: a member who signed out, or an agent whose role
 * was removed, stops hearing events; the client reconnects with a fresh token and catches up.
 */
export const STREAM_MAX_MS = ACCESS_TOKEN_SECONDS * 1000;

/**
 * Server-sent events (issue 13's live channel). The browser reads them with fetch, so the bearer
 * token goes in the Authorization header as on every other call (EventSource cannot send it).
 * Every stream starts with {type:'ready'}: the client then catches up on what it missed.
 */
export function eventStreams(app: FastifyInstance): EventStreams {
  const open = new Set<ServerResponse>();
  const perMember = new Map<number, number>();
  // An open stream would hold server.close() forever: end them all first.
  app.addHook('preClose', async () => {
    for (const res of open) res.end();
    open.clear();
  });
  return {
    open(req, reply, map, first = []) {
      const memberId = req.member.memberId;
      const held = perMember.get(memberId) ?? 0;
      if (held >= MAX_STREAMS_PER_MEMBER) throw tooManyRequests(MESSAGES.tooManyAttempts, 5);
      perMember.set(memberId, held + 1);
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
        'x-content-type-options': 'nosniff',
      });
      open.add(res);
      let chain = Promise.resolve();
      const write = (data: unknown) => {
        if (!res.writableEnded) res.write(`data: ${JSON.stringify(data)}\n\n`);
      };
      write({ type: 'ready' });
      for (const data of first) write(data);
      // Events are mapped one after another so that they reach the client in the order sent.
      const unsubscribe = app.supportBus.subscribe((event) => {
        chain = chain
          .then(async () => {
            if (event.k === 'resync') return write({ type: 'ready' });
            const data = await map(event);
            if (data !== null && data !== undefined) write(data);
          })
          .catch((err: unknown) => req.log.warn({ err }, 'support event not delivered'));
      });
      const ping = setInterval(() => {
        if (!res.writableEnded) res.write(': ping\n\n');
      }, PING_MS);
      const expire = setTimeout(() => res.end(), STREAM_MAX_MS);
      res.on('close', () => {
        unsubscribe();
        clearInterval(ping);
        clearTimeout(expire);
        open.delete(res);
        const left = (perMember.get(memberId) ?? 1) - 1;
        if (left > 0) perMember.set(memberId, left);
        else perMember.delete(memberId);
      });
    },
  };
}
