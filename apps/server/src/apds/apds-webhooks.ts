import { randomBytes } from 'node:crypto';
import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import {
  APDS_WEBHOOK_MESSAGES as M,
  type ApdsEventSubscription,
  type ApdsListMeta,
  type ApdsTopic,
  type ApdsWebhook,
} from '@parkit/contract';
import type { Db, Executor } from '../db/client.ts';
import { apdsWebhooks, zones } from '../db/schema/index.ts';
import { badRequest } from '../lib/http-error.ts';
import { isWebhookUrl } from '../lib/public-address.ts';
import { APDS_PAGE, idNumber, meta } from './apds-common.ts';

/**
 * APDS event subscriptions (docs/apds.md#webhooks), always reached with the key's operator: another
 * operator's subscription is not found. What a subscription's `hierarchyElements` names is
 * resolved here to the operator's zones, where session events happen: `zone-<id>` is that zone;
 * `operator-<id>` (the campus) counts its zones only with `includeChildrenEvents: true`, since the
 * document sends a place's own events unless children are asked for, and no session happens at
 * the campus itself. No elements: all the operator's zones, new ones too.
 */

/** The most subscriptions one operator keeps: each change is written once for each of them. */
export const MAX_SUBSCRIPTIONS = 20;

export const webhookId = (id: number) => `webhook-${id}`;

type Row = typeof apdsWebhooks.$inferSelect;

const toWebhook = (w: Row): ApdsWebhook => ({
  id: webhookId(w.id),
  lastModified: w.updatedAt.toISOString(),
  endpoint: w.endpoint,
  topics: w.topics as ApdsTopic[],
  ...(w.hierarchy ? { hierarchyElements: w.hierarchy } : {}),
  includeChildrenEvents: w.includeChildren,
});

/** The zones a subscription covers (null: every zone of the operator), or a 400 naming what is wrong. */
async function zonesOf(db: Executor, operatorId: number, s: ApdsEventSubscription): Promise<number[] | null> {
  if (!s.hierarchyElements) return null;
  const children = s.includeChildrenEvents ?? false;
  const named: number[] = [];
  let wholeOperator = false;
  for (const el of s.hierarchyElements) {
    const zone = idNumber(el.id, 'zone');
    const op = idNumber(el.id, 'operator');
    if (zone !== null) named.push(zone);
    else if (op === operatorId) wholeOperator ||= children;
    else throw badRequest('hierarchyElements', M.notOurPlace);
  }
  if (named.length) {
    const ours = await db
      .select({ id: zones.id })
      .from(zones)
      .where(and(eq(zones.operatorId, operatorId), inArray(zones.id, named)));
    if (ours.length !== new Set(named).size) throw badRequest('hierarchyElements', M.notOurPlace);
  }
  if (wholeOperator) return null;
  if (!named.length) throw badRequest('hierarchyElements', M.noZone);
  return [...new Set(named)].sort((a, b) => a - b);
}

/** The columns a subscription's settings write, after the endpoint and the places are checked. */
async function settings(db: Executor, operatorId: number, s: ApdsEventSubscription, privateOk: boolean) {
  const url = isWebhookUrl(s.endpoint, privateOk);
  if (url !== 'ok') throw badRequest('endpoint', url === 'invalid' ? M.endpoint : M.publicEndpoint);
  return {
    endpoint: s.endpoint,
    topics: s.topics,
    hierarchy: s.hierarchyElements ?? null,
    includeChildren: s.includeChildrenEvents ?? false,
    zoneIds: await zonesOf(db, operatorId, s),
  };
}

/**
 * POST /apds/webhooks: a new subscription and its signing secret (answered this once). Checked
 * and written in one transaction, so a refused one writes nothing and two at once cannot pass
 * the limit together (the operator's row is locked).
 */
export async function subscribe(
  db: Db,
  operatorId: number,
  s: ApdsEventSubscription,
  privateOk: boolean,
): Promise<{ id: string; secret: string }> {
  return db.transaction(async (tx) => {
    const values = await settings(tx, operatorId, s, privateOk);
    await tx.execute(sql`select 1 from operators where id = ${operatorId} for update`);
    const [n] = await tx.select({ n: count() }).from(apdsWebhooks).where(eq(apdsWebhooks.operatorId, operatorId));
    if ((n?.n ?? 0) >= MAX_SUBSCRIPTIONS) throw badRequest('endpoint', M.tooMany);
    const secret = `whsec_${randomBytes(32).toString('base64url')}`;
    const [row] = await tx
      .insert(apdsWebhooks)
      .values({ operatorId, ...values, secret })
      .returning({ id: apdsWebhooks.id });
    return { id: webhookId(row!.id), secret };
  });
}

const mine = (operatorId: number, id: string) => {
  const n = idNumber(id, 'webhook');
  return n === null ? null : and(eq(apdsWebhooks.operatorId, operatorId), eq(apdsWebhooks.id, n));
};

/** The operator's subscription by its APDS id (null: none of this operator's). */
export async function getWebhook(db: Executor, operatorId: number, id: string): Promise<ApdsWebhook | null> {
  const where = mine(operatorId, id);
  if (!where) return null;
  const [row] = await db.select().from(apdsWebhooks).where(where);
  return row ? toWebhook(row) : null;
}

/** The subscription's number when it is this operator's (null otherwise). */
export async function ownWebhook(db: Executor, operatorId: number, id: string): Promise<number | null> {
  const where = mine(operatorId, id);
  if (!where) return null;
  const [row] = await db.select({ id: apdsWebhooks.id }).from(apdsWebhooks).where(where);
  return row?.id ?? null;
}

/** GET /apds/webhooks (ParkIt's; the document has no list): the operator's subscriptions, oldest first. */
export async function listWebhooks(
  db: Executor,
  operatorId: number,
  offset: number,
  now: Date,
): Promise<{ meta: ApdsListMeta; data: ApdsWebhook[] }> {
  const where = eq(apdsWebhooks.operatorId, operatorId);
  const [rows, [total]] = await Promise.all([
    db.select().from(apdsWebhooks).where(where).orderBy(asc(apdsWebhooks.id)).offset(offset).limit(APDS_PAGE),
    db.select({ n: count() }).from(apdsWebhooks).where(where),
  ]);
  return { meta: meta(total?.n ?? 0, offset, now), data: rows.map(toWebhook) };
}

/** PUT /apds/webhooks/{id}: new settings; its events already written keep going out. False: not found. */
export async function updateWebhook(
  db: Db,
  operatorId: number,
  id: string,
  s: ApdsEventSubscription,
  privateOk: boolean,
): Promise<boolean> {
  const where = mine(operatorId, id);
  if (!where) return false;
  return db.transaction(async (tx) => {
    const values = await settings(tx, operatorId, s, privateOk);
    const rows = await tx
      .update(apdsWebhooks)
      .set({ ...values, updatedAt: new Date() })
      .where(where)
      .returning({ id: apdsWebhooks.id });
    return rows.length > 0;
  });
}

/** DELETE /apds/webhooks/{id}: the subscription and every event still waiting or dead for it. */
export async function deleteWebhook(db: Executor, operatorId: number, id: string): Promise<boolean> {
  const where = mine(operatorId, id);
  if (!where) return false;
  const rows = await db.delete(apdsWebhooks).where(where).returning({ id: apdsWebhooks.id });
  return rows.length > 0;
}
