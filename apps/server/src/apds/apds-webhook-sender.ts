import { createHmac } from 'node:crypto';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import type { ApdsEventData } from '@parkit/contract';
import type { Db } from '../db/client.ts';
import { isPublicAddress } from '../lib/public-address.ts';
import { claimDue, delivered, failed, type ClaimedDelivery } from './apds-webhook-outbox.ts';
import { assignedRightOfEvent } from './apds-assigned.ts';
import { placeOfEvent } from './apds-places.ts';
import { rateOfEvent } from './apds-rates.ts';
import { specOfEvent } from './apds-rights.ts';
import { toSession } from './apds-sessions.ts';
import { webhookId } from './apds-webhooks.ts';

/** The headers of a delivery (docs/apds.md#webhooks). */
export const SIGNATURE_HEADER = 'x-parkit-signature';
export const EVENT_ID_HEADER = 'x-parkit-event-id';
export const ATTEMPT_HEADER = 'x-parkit-delivery-attempt';

export interface WebhookSenderOptions {
  currency: string;
  /** Outside production's rules: endpoints on loopback and private addresses are called too. */
  privateOk: boolean;
  log: Pick<FastifyBaseLogger, 'warn' | 'info'>;
  /** Attempts before an event is dead (the dead-letter list). */
  maxAttempts?: number;
  /** The wait after the first failure; it doubles after each, up to maxRetryMs. */
  retryMs?: number;
  maxRetryMs?: number;
  /** An endpoint that has not answered in this time has failed this attempt. */
  timeoutMs?: number;
  /** How long a claimed event waits before it is due again, should this process die mid-call. */
  leaseMs?: number;
  /** Heads claimed at once (one per subscription). */
  batch?: number;
  /** A tick goes on claiming while events are due, for at most this long. */
  tickBudgetMs?: number;
}

export const WEBHOOK_DEFAULTS = {
  maxAttempts: 8,
  retryMs: 30_000,
  maxRetryMs: 3_600_000,
  timeoutMs: 10_000,
  leaseMs: 60_000,
  batch: 50,
  tickBudgetMs: 10_000,
};

/** `sha256=` and the hex HMAC-SHA256 of the exact body with the subscription's secret. */
export const signature = (secret: string, body: string) =>
  `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

/** The body an endpoint receives: the document's EventData (and our eventId), the object as it was. */
export function eventBody(d: ClaimedDelivery, currency: string): string {
  const r = d.data;
  const body = (object: ApdsEventData['data'][number]): string =>
    JSON.stringify({
      eventId: d.event_id,
      eventSubscriptionId: webhookId(d.subscription_id),
      eventTime: new Date(d.event_time).toISOString(),
      topic: d.topic,
      data: [object],
    } satisfies ApdsEventData);
  if (d.topic.startsWith('AssignedRight')) return body(assignedRightOfEvent(r));
  // Zones and price policies (migration 0052): the object as it was at the change.
  if (d.topic.startsWith('Place')) return body(placeOfEvent(r.zone as Record<string, unknown>));
  if (d.topic.startsWith('RightSpecification')) return body(specOfEvent(r.zone as Record<string, unknown>));
  if (d.topic.startsWith('RateTable')) return body(rateOfEvent(r, currency));
  // A Session a partner registered: as it was answered (migration 0050).
  if (r.partner_session) return body(r.partner_session as ApdsEventData['data'][number]);
  const at = (k: string) => new Date(r[k] as string);
  const session = toSession(
    {
      id: Number(r.id),
      zoneId: Number(r.zone_id),
      plate: String(r.plate),
      plateState: String(r.plate_state),
      vehicleMake: String(r.vehicle_make),
      vehicleModel: String(r.vehicle_model),
      startedAt: at('started_at'),
      endsAt: at('ends_at'),
      endedAt: r.ended_at ? at('ended_at') : null,
      durationMinutes: Number(r.duration_minutes),
      parkingCents: Number(r.parking_cents),
      refundedCents: Number(r.refunded_cents),
      updatedAt: at('updated_at'),
      // The operator's choice now, not when the event was written: one who stops showing plates
      // sends none in events still waiting.
      showPlates: d.show_plates,
    },
    currency,
  );
  return body(session);
}

/**
 * A DNS lookup that answers only public addresses (the endpoint's name is resolved at each call,
 * and the connection goes to the address checked: no second lookup can point it elsewhere).
 */
const publicLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
    if (err) return callback(err, '', 0);
    const ok = addresses.filter((a) => isPublicAddress(a.address));
    if (!ok.length) return callback(Object.assign(new Error('private address'), { code: 'private-address' }), '', 0);
    if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, ok);
    callback(null, ok[0]!.address, ok[0]!.family);
  });
};

/** POSTs the body; answers null when the endpoint took it (2xx), else what went wrong. */
function post(
  d: ClaimedDelivery,
  body: string,
  opts: Required<Omit<WebhookSenderOptions, 'log'>>,
): Promise<string | null> {
  const url = new URL(d.endpoint);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!opts.privateOk && (url.protocol !== 'https:' || (isIP(host) !== 0 && !isPublicAddress(host))))
    return Promise.resolve('private-address');
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    const req = send(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': 'ParkIt-APDS-Webhooks',
          [EVENT_ID_HEADER]: d.event_id,
          [SIGNATURE_HEADER]: signature(d.secret, body),
          [ATTEMPT_HEADER]: String(d.attempts),
        },
        timeout: opts.timeoutMs,
        ...(opts.privateOk ? {} : { lookup: publicLookup }),
      },
      (res) => {
        // The answer's body is not ours to read or keep: drained, and only the status is recorded.
        res.resume();
        const status = res.statusCode ?? 0;
        resolve(status >= 200 && status < 300 ? null : `http ${status}`);
      },
    );
    req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'timeout' })));
    req.on('error', (err) => resolve(String((err as { code?: unknown }).code ?? 'error')));
    req.end(body);
  });
}

/**
 * The job `apds.webhooks` (docs/apds.md#webhooks): claims the due heads (one event per
 * subscription), POSTs each, signed, then deletes a delivered one, or sets the next attempt after
 * a back-off (retryMs, doubling, at most maxRetryMs), or after the last attempt sets it dead.
 * While events are due it claims again, within tickBudgetMs. Answers how many were delivered.
 */
export function webhookSender(options: WebhookSenderOptions) {
  const { log, ...rest } = options;
  const opts = { ...WEBHOOK_DEFAULTS, ...rest } as Required<Omit<WebhookSenderOptions, 'log'>>;

  async function sendOne(db: Db, d: ClaimedDelivery, at: () => Date): Promise<boolean> {
    const error = await post(d, eventBody(d, opts.currency), opts);
    if (error === null) {
      await delivered(db, d.id);
      return true;
    }
    const last = d.attempts >= opts.maxAttempts;
    const wait = Math.min(opts.maxRetryMs, opts.retryMs * 2 ** (d.attempts - 1));
    await failed(db, d.id, error, last ? null : new Date(at().getTime() + wait));
    // The host only: a path or query may hold the subscriber's own token.
    const where = { delivery: d.id, subscription: d.subscription_id, host: new URL(d.endpoint).host, error };
    if (last) log.warn({ ...where, attempts: d.attempts }, 'webhook event dead: every attempt failed');
    else log.info({ ...where, attempts: d.attempts }, 'webhook delivery failed: will retry');
    return false;
  }

  return async function deliverDue(db: Db, now: Date): Promise<number> {
    const started = Date.now();
    // The tick's `now`, moved on by the time the tick has taken (tests pass a `now` of their own).
    const at = () => new Date(now.getTime() + (Date.now() - started));
    let sent = 0;
    for (;;) {
      const claimed = await claimDue(db, at(), opts.batch, opts.leaseMs);
      if (!claimed.length) return sent;
      const outcomes = await Promise.all(claimed.map((d) => sendOne(db, d, at)));
      sent += outcomes.filter(Boolean).length;
      if (Date.now() - started >= opts.tickBudgetMs) return sent;
    }
  };
}
