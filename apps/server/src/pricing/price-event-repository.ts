import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { PriceEventRequest, PRICING_MESSAGES, type PriceEvent } from '@parkit/contract';
import { queryRows, type Db, type Executor } from '../db/client.ts';
import { priceEvents } from '../db/schema/index.ts';
import { audit, type Actor } from '../infra/audit-log.ts';
import { conflict, notFound } from '../lib/http-error.ts';
import { parseOr400 } from './policy-repository.ts';

/**
 * An operator's price events (docs/pricing.md): a named window in which a policy prices the chosen
 * zones. Every statement names the operator; every change is audited in its own transaction.
 */

export type PriceEventView = PriceEvent;

function toEventView(e: typeof priceEvents.$inferSelect): PriceEventView {
  return {
    EventId: e.id,
    Name: e.name,
    StartsAt: e.startsAt.toISOString(),
    EndsAt: e.endsAt.toISOString(),
    PolicyId: e.policyId,
    ZoneIds: [...e.zoneIds].sort((a, b) => a - b),
    CancelledAt: e.cancelledAt ? e.cancelledAt.toISOString() : null,
  };
}

/**
 * A named event: its policy prices the sessions started in its window in the chosen zones. One
 * statement writes it only when the policy and every zone are the operator's; else 404. Audited in
 * the same transaction.
 */
export async function createPriceEvent(
  db: Db,
  operatorId: number,
  input: unknown,
  actor: Actor,
): Promise<PriceEventView> {
  const r = parseOr400(PriceEventRequest, input);
  const ids = [...new Set(r.ZoneIds)];
  return db.transaction(async (tx) => {
    const made = await insertEvent(tx, operatorId, r, ids);
    if (!made) throw notFound(PRICING_MESSAGES.policyNotFound);
    await audit(tx, {
      operatorId,
      actor,
      action: 'event.create',
      entity: 'price_event',
      entityId: made.EventId,
      before: null,
      after: made,
    });
    return made;
  });
}

/** The insert of createPriceEvent: one statement, a row only when the policy and zones are the operator's. */
async function insertEvent(
  db: Executor,
  operatorId: number,
  r: z.output<typeof PriceEventRequest>,
  ids: number[],
): Promise<PriceEventView | null> {
  const idList = sql.join(
    ids.map((id) => sql`${id}::int`),
    sql`, `,
  );
  const zoneArray = sql`array[${idList}]::int[]`;
  const rows = await queryRows<EventRow>(
    db,
    sql`insert into price_events (operator_id, name, starts_at, ends_at, policy_id, zone_ids)
        select ${operatorId}::int, ${r.Name}::text, ${r.StartsAt}::timestamptz, ${r.EndsAt}::timestamptz, p.id, ${zoneArray}
        from price_policies p
        where p.id = ${r.PolicyId}::int and p.operator_id = ${operatorId}::int
          and (select count(*) from zones z where z.operator_id = ${operatorId}::int and z.id = any(${zoneArray})) = ${ids.length}
        returning id, name, starts_at, ends_at, policy_id, zone_ids`,
  );
  const row = rows[0];
  if (!row) return null;
  return {
    EventId: Number(row.id),
    Name: row.name,
    StartsAt: new Date(row.starts_at).toISOString(),
    EndsAt: new Date(row.ends_at).toISOString(),
    PolicyId: Number(row.policy_id),
    ZoneIds: parseIntArray(row.zone_ids).sort((a, b) => a - b),
    CancelledAt: null,
  };
}

interface EventRow {
  id: number;
  name: string;
  starts_at: string | Date;
  ends_at: string | Date;
  policy_id: number;
  zone_ids: number[] | string;
}

/** An int[] as either driver answers it: an array, or PostgreSQL's text form '{1,2}'. */
function parseIntArray(v: number[] | string): number[] {
  if (Array.isArray(v)) return v.map(Number);
  return v.replace(/[{}]/g, '').split(',').filter(Boolean).map(Number);
}

/** The operator's events that have not ended (the cancelled ones too, marked), by start. */
export async function listPriceEvents(db: Executor, operatorId: number, now: Date): Promise<PriceEventView[]> {
  const rows = await db
    .select()
    .from(priceEvents)
    .where(and(eq(priceEvents.operatorId, operatorId), sql`${priceEvents.endsAt} > ${now.toISOString()}::timestamptz`))
    .orderBy(asc(priceEvents.startsAt), asc(priceEvents.id));
  return rows.map(toEventView);
}

/**
 * Cancels one of the operator's events that has not ended: sessions starting from now on in its
 * zones are priced by their zones' policies again; a session it priced keeps that version. One
 * statement; 404 for an event not theirs, 409 for one ended or cancelled already. Audited.
 */
export async function cancelPriceEvent(
  db: Db,
  operatorId: number,
  eventId: number,
  now: Date,
  actor: Actor,
): Promise<PriceEventView> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(priceEvents)
      .set({ cancelledAt: now })
      .where(
        and(
          eq(priceEvents.id, eventId),
          eq(priceEvents.operatorId, operatorId),
          isNull(priceEvents.cancelledAt),
          sql`${priceEvents.endsAt} > ${now.toISOString()}::timestamptz`,
        ),
      )
      .returning();
    if (!row) {
      const [exists] = await tx
        .select({ id: priceEvents.id })
        .from(priceEvents)
        .where(and(eq(priceEvents.id, eventId), eq(priceEvents.operatorId, operatorId)));
      if (!exists) throw notFound(PRICING_MESSAGES.eventNotFound);
      throw conflict('EventId', PRICING_MESSAGES.eventOver);
    }
    const after = toEventView(row);
    await audit(tx, {
      operatorId,
      actor,
      action: 'event.cancel',
      entity: 'price_event',
      entityId: eventId,
      before: { ...after, CancelledAt: null },
      after,
    });
    return after;
  });
}
