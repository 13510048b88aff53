import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import { claimDueTexts, markFailed, markSent, type ClaimedText } from './sms-repository.ts';

/** Messages claimed per send; a tick sends them at once. */
const BATCH = 20;
/** Tries before a message is given up (the back-off then stands at 16 minutes). */
export const MAX_SMS_ATTEMPTS = 6;
/** A gateway that has not answered in this time is tried again later. */
const TIMEOUT_MS = 10_000;

export interface SmsSenderOptions {
  /** The gateway's base URL: Twilio's (https://api.twilio.com), or a stand-in speaking its API. */
  apiUrl: string;
  accountSid: string;
  authToken: string;
  /** The sender: a phone number in E.164 (+15125550100) or a Messaging Service's SID (MG…). */
  from: string;
  log: Pick<FastifyBaseLogger, 'warn' | 'info'>;
  timeoutMs?: number;
}

type Outcome = 'sent' | 'failed' | 'retry';

/**
 * A stored phone number as E.164: ten digits are a North American number (+1, the demo city's);
 * more are taken to start with their country code.
 */
export const e164 = (phone: string) => {
  const digits = phone.replace(/\D/g, '');
  return digits.length === 10 ? `+1${digits}` : `+${digits}`;
};

/**
 * The SMS job (docs/operations.md#the-outbox): claims due text messages of the outbox (a committed
 * claim, no lock held) and sends each through Twilio's Messages API (POST
 * /2010-04-01/Accounts/{AccountSid}/Messages.json, form-encoded To, From and Body, HTTP Basic with
 * the account SID and auth token). 2xx: sent. 400 or 404 (a number the gateway will never take):
 * given up at once. Anything else (429, 5xx, no answer): tried again after the claim's back-off, up
 * to MAX_SMS_ATTEMPTS. At least once: a process killed after the gateway took a message and before
 * it was marked sends it again. Logs name the outbox row and the status: never the number nor the
 * text (codes are in it). One POST with fetch, not Twilio's SDK:
 * docs/decisions/017-sms-without-the-twilio-sdk.md.
 */
export function smsSender(opts: SmsSenderOptions) {
  const url = `${opts.apiUrl.replace(/\/+$/, '')}/2010-04-01/Accounts/${encodeURIComponent(opts.accountSid)}/Messages.json`;
  const authorization = `Basic ${Buffer.from(`${opts.accountSid}:${opts.authToken}`).toString('base64')}`;
  const sender = opts.from.startsWith('MG') ? 'MessagingServiceSid' : 'From';

  async function sendOne(db: Db, m: ClaimedText, now: Date): Promise<Outcome> {
    let status: number | null = null;
    let reason: string | undefined;
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({ To: e164(m.recipient), [sender]: opts.from, Body: m.body }),
        signal: AbortSignal.timeout(opts.timeoutMs ?? TIMEOUT_MS),
      });
      status = res.status;
      await res.arrayBuffer();
    } catch (err) {
      reason = (err as { name?: string }).name === 'TimeoutError' ? 'timeout' : errorCode(err);
    }
    const where = { outbox: m.id, status, attempts: m.attempts, ...(reason ? { reason } : {}) };
    if (status !== null && status >= 200 && status < 300) {
      await markSent(db, m.id, now);
      return 'sent';
    }
    if (status === 400 || status === 404 || m.attempts >= MAX_SMS_ATTEMPTS) {
      await markFailed(db, m.id, now);
      opts.log.warn(where, 'text message given up');
      return 'failed';
    }
    opts.log.warn(where, 'text message not sent: will retry');
    return 'retry';
  }

  /** The job: answers how many messages the gateway took. */
  return async function sendDueTexts(db: Db, now: Date): Promise<number> {
    const claimed = await claimDueTexts(db, now, BATCH);
    const outcomes = await Promise.all(claimed.map((m) => sendOne(db, m, now)));
    return outcomes.filter((o) => o === 'sent').length;
  };
}

/** A network error's code (ECONNREFUSED, ETIMEDOUT…), nothing that could carry the message. */
function errorCode(err: unknown): string {
  const cause = (err as { cause?: { code?: unknown } } | null)?.cause;
  const code = cause?.code ?? (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'error';
}
