import { sql } from 'drizzle-orm';
import type { ApdsDeadLetter, ApdsListMeta, ApdsTopic } from '@parkit/contract';
import { queryRows, type Executor } from '../db/client.ts';
import { APDS_PAGE, meta } from './apds-common.ts';

/**
 * The webhook outbox, apds_webhook_deliveries (docs/decisions/016-webhook-outbox.md). Its rows are
 * written by the trigger on parking_sessions (migration 0041); here they are claimed, settled
 * after the call, listed when dead and replayed.
 */

export interface ClaimedDelivery {
  id: number;
  subscription_id: number;
  operator_id: number;
  event_id: string;
  topic: ApdsTopic;
  object_id: number;
  data: Record<string, unknown>;
  event_time: Date | string;
  attempts: number;
  endpoint: string;
  secret: string;
  show_plates: boolean;
}

/**
 * Claims the due heads: for each subscription only its oldest pending event may be claimed (so a
 * subscription's next event waits for the previous one, which is deleted once delivered or set
 * dead after its last attempt). One statement counts the attempt and moves the row's next
 * attempt `leaseMs` ahead, then commits: no lock is held while the endpoint is called, another
 * process skips the row, and a process killed mid-call leaves it due again after the lease, when
 * it is sent again (at least once: the receiver dedupes by event_id).
 */
export async function claimDue(db: Executor, now: Date, limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
  return queryRows<ClaimedDelivery>(
    db,
    sql`with due as (
          select d.id from apds_webhook_deliveries d
          where d.status = 'pending' and d.next_attempt_at <= ${now}
            and not exists (
              select 1 from apds_webhook_deliveries e
              where e.subscription_id = d.subscription_id and e.status = 'pending' and e.id < d.id)
          order by d.id limit ${limit}
          for update skip locked)
        update apds_webhook_deliveries d
        set attempts = d.attempts + 1,
            next_attempt_at = ${now}::timestamptz + make_interval(secs => ${leaseMs / 1000})
        from due, apds_webhooks w, operators o
        where d.id = due.id and w.id = d.subscription_id and o.id = w.operator_id
        returning d.id, d.subscription_id, w.operator_id, d.event_id, d.topic, d.object_id, d.data, d.event_time,
                  d.attempts, w.endpoint, w.secret, o.show_plates`,
  );
}

/** Delivered: the row goes (the receiver has it). */
export async function delivered(db: Executor, id: number): Promise<void> {
  await db.execute(sql`delete from apds_webhook_deliveries where id = ${id}`);
}

/** A failed attempt: tried again at `retryAt`, or dead (the dead-letter list) once it was the last. */
export async function failed(db: Executor, id: number, error: string, retryAt: Date | null): Promise<void> {
  await db.execute(
    sql`update apds_webhook_deliveries
        set last_error = ${error.slice(0, 200)},
            status = ${retryAt ? 'pending' : 'dead'},
            next_attempt_at = coalesce(${retryAt}::timestamptz, next_attempt_at)
        where id = ${id}`,
  );
}

/**
 * The APDS id of what an event is about, from its topic and its data (the migrations' triggers):
 * a zone's Place or RightSpecification, a policy's or a preset's RateTable, a partner's
 * AssignedRight or Session by the id it was given, else ParkIt's session.
 */
export function eventObjectId(topic: ApdsTopic, objectId: number, data: Record<string, unknown>): string {
  if (topic.startsWith('Place') || topic.startsWith('RightSpecification')) return `zone-${objectId}`;
  if (topic.startsWith('RateTable')) return data.policy ? `policy-${objectId}` : `preset-zone-${objectId}`;
  if (topic.startsWith('AssignedRight')) return String(data.apds_id);
  const partner = data.partner_session as { id?: unknown } | undefined;
  return partner ? String(partner.id) : `session-${objectId}`;
}

/** GET /apds/webhooks/{id}/dead-letters: the subscription's dead events, oldest first. */
export async function deadLetters(
  db: Executor,
  subscriptionId: number,
  offset: number,
  now: Date,
): Promise<{ meta: ApdsListMeta; data: ApdsDeadLetter[] }> {
  const rows = await queryRows<{
    event_id: string;
    topic: ApdsTopic;
    event_time: Date | string;
    object_id: number;
    data: Record<string, unknown>;
    attempts: number;
    last_error: string | null;
  }>(
    db,
    sql`select event_id, topic, event_time, object_id, data, attempts, last_error from apds_webhook_deliveries
        where subscription_id = ${subscriptionId} and status = 'dead'
        order by id limit ${APDS_PAGE} offset ${offset}`,
  );
  const [n] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from apds_webhook_deliveries where subscription_id = ${subscriptionId} and status = 'dead'`,
  );
  return {
    meta: meta(Number(n?.n ?? 0), offset, now),
    data: rows.map((r) => ({
      eventId: r.event_id,
      topic: r.topic,
      eventTime: new Date(r.event_time).toISOString(),
      objectId: eventObjectId(r.topic, Number(r.object_id), r.data),
      attempts: Number(r.attempts),
      lastError: r.last_error,
    })),
  };
}

/**
 * POST /apds/webhooks/{id}/dead-letters/{eventId}/replay: the dead event is pending again, due now,
 * with its attempts counted afresh. It keeps its place (its id): it goes before the subscription's
 * events still waiting. False when the subscription has no such dead event.
 */
export async function replay(db: Executor, subscriptionId: number, eventId: string, now: Date): Promise<boolean> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`update apds_webhook_deliveries
        set status = 'pending', attempts = 0, next_attempt_at = ${now}, last_error = null
        where subscription_id = ${subscriptionId} and event_id = ${eventId} and status = 'dead'
        returning id`,
  );
  return rows.length > 0;
}
