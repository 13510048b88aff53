import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { localServer } from './local-server.ts';

/** One request a receiver got: its path, headers, exact body, and the status it answered. */
export interface Hit {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  status: number;
}

/**
 * A subscriber's endpoint on this machine (an ephemeral port): `answer` decides each request's
 * status from its path and how many times this path has seen this event id before (0 the first
 * time), after `delayMs`. Every request is kept in `hits`.
 */
export async function webhookReceiver(
  answer: (path: string, triesBefore: number) => number,
  delayMs = 0,
): Promise<{ url: string; hits: Hit[]; close: () => Promise<void> }> {
  const hits: Hit[] = [];
  const server = await localServer((req, body) => {
    const path = req.url ?? '/';
    const id = req.headers['x-parkit-event-id'];
    const triesBefore = hits.filter((h) => h.path === path && h.headers['x-parkit-event-id'] === id).length;
    const status = answer(path, triesBefore);
    hits.push({ path, headers: req.headers, body, status });
    return { status };
  }, delayMs);
  return { ...server, hits };
}

/** What a subscriber does with the signature header (docs/apds.md#webhooks): HMAC-SHA256 of the raw body. */
export function verifySignature(secret: string, body: string, header: string | string[] | undefined): boolean {
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(body).digest('hex')}`);
  const got = Buffer.from(String(header ?? ''));
  return got.length === expected.length && timingSafeEqual(got, expected);
}

/** The event ids a path accepted (2xx), in the order first accepted: what a deduping receiver keeps. */
export function accepted(hits: Hit[], path: string): { eventId: string; topic: string; objectId: string }[] {
  const seen = new Set<string>();
  const out: { eventId: string; topic: string; objectId: string }[] = [];
  for (const h of hits) {
    if (h.path !== path || h.status >= 300) continue;
    const e = JSON.parse(h.body) as { eventId: string; topic: string; data: { id: string }[] };
    if (seen.has(e.eventId)) continue;
    seen.add(e.eventId);
    out.push({ eventId: e.eventId, topic: e.topic, objectId: e.data[0]!.id });
  }
  return out;
}
