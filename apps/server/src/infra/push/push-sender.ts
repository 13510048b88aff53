import { Agent } from 'node:https';
import { rootCertificates } from 'node:tls';
import type { FastifyBaseLogger } from 'fastify';
import webpush, { WebPushError } from 'web-push';
import type { Db } from '../../db/client.ts';
import { claimDue, removeExpired, removeMessage, removeSubscription, type ClaimedPush } from './push-repository.ts';
import type { VapidKeys } from './vapid.ts';

/** Messages claimed per send; a tick sends them at once. */
const BATCH = 20;
/** Tries before a message is given up (the backoff then stands at 8 minutes). */
export const MAX_ATTEMPTS = 6;
/** A push service that has not answered in this time is tried again later. */
const TIMEOUT_MS = 10_000;

export interface PushSenderOptions {
  vapid: VapidKeys;
  subject: string;
  /** A certificate authority trusted besides the system's (tests' stand-in push service). */
  ca?: string | undefined;
  log: Pick<FastifyBaseLogger, 'warn' | 'info'>;
}

type Outcome = 'sent' | 'gone' | 'retry' | 'dropped';

/**
 * The push job (infra/push/README.md): claims due messages (a committed claim, no lock held), sends
 * each with `web-push` (RFC 8030 delivery, RFC 8291 encryption, RFC 8292 VAPID), then deletes a
 * delivered one, deletes the subscription the push service says is gone (404, 410), and leaves
 * any other failure for its next attempt, up to MAX_ATTEMPTS or its expiry. Logs name the message,
 * the subscription and the push service's host: never the endpoint's path (a secret of the
 * browser) nor what the message says (a plate).
 */
export function pushSender(opts: PushSenderOptions) {
  const agent = opts.ca ? new Agent({ ca: [...rootCertificates, opts.ca], keepAlive: true }) : undefined;
  const vapidDetails = { subject: opts.subject, publicKey: opts.vapid.publicKey, privateKey: opts.vapid.privateKey };

  async function sendOne(db: Db, m: ClaimedPush, now: Date): Promise<Outcome> {
    const ttl = Math.max(60, Math.floor((new Date(m.expires_at).getTime() - now.getTime()) / 1000));
    const where = { pushMessage: m.id, subscription: m.subscription_id, host: new URL(m.endpoint).host };
    try {
      await webpush.sendNotification({ endpoint: m.endpoint, keys: { p256dh: m.p256dh, auth: m.auth } }, m.payload, {
        vapidDetails,
        TTL: ttl,
        urgency: 'high',
        contentEncoding: 'aes128gcm',
        timeout: TIMEOUT_MS,
        ...(agent ? { agent } : {}),
      });
    } catch (err) {
      const status = err instanceof WebPushError ? err.statusCode : null;
      if (status === 404 || status === 410) {
        await removeSubscription(db, m.subscription_id);
        opts.log.info({ ...where, status }, 'push subscription gone: removed');
        return 'gone';
      }
      if (m.attempts >= MAX_ATTEMPTS) {
        await removeMessage(db, m.id);
        opts.log.warn({ ...where, status, attempts: m.attempts }, 'push message given up');
        return 'dropped';
      }
      // Never the error itself: web-push's carries the endpoint.
      opts.log.warn(
        { ...where, status, attempts: m.attempts, reason: status ? undefined : errorCode(err) },
        'push failed: will retry',
      );
      return 'retry';
    }
    await removeMessage(db, m.id);
    return 'sent';
  }

  /** The job: answers how many messages were delivered. */
  return async function sendDue(db: Db, now: Date): Promise<number> {
    await removeExpired(db, now);
    const claimed = await claimDue(db, now, BATCH);
    const outcomes = await Promise.all(claimed.map((m) => sendOne(db, m, now)));
    return outcomes.filter((o) => o === 'sent').length;
  };
}

/** A network error's code (ECONNREFUSED, ETIMEDOUT…), nothing that could carry the URL. */
function errorCode(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'error';
}
