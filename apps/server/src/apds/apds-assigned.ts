import { createHash } from 'node:crypto';
import { and, asc, count, eq, gt, gte, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import {
  APDS_MESSAGES as M,
  APDS_PLATE_TYPES,
  apdsList,
  type ApdsAssignedRight,
  type ApdsAssignedRightRequest,
  type ApdsAssignedRightsQuery,
  type ApdsListMeta,
  type ApdsPartnerSession,
  type ApdsSessionRequest,
} from '@parkit/contract';
import type { Db, Executor } from '../db/client.ts';
import { apdsAssignedRights, zones, type ApdsStoredCredential } from '../db/schema/index.ts';
import { badRequest, conflict, notFound } from '../lib/http-error.ts';
import { normalisePlate } from '../lib/plate.ts';
import { APDS_PAGE, idNumber, isPlate, meta, near, placeFilter, placeId, ref } from './apds-common.ts';
import { hasPartnerSession, isOwnSession, keepPartnerSession, replacePartnerSession } from './apds-sessions.ts';

/**
 * APDS assigned rights (docs/apds.md#assigned-rights): rights a third party with the operator's
 * API key assigns in one of the operator's zones, kept in `apds_assigned_rights` and honoured by
 * the plate check (enforcement/rights.ts).
 */

/** The longest right kept: a year's permit and a margin. */
const MAX_RIGHT_MS = 400 * 24 * 3_600_000;

type Row = typeof apdsAssignedRights.$inferSelect;

function toAssignedRight(r: Row): ApdsAssignedRight {
  return {
    id: r.apdsId,
    version: r.version,
    rightHolder: { credentials: r.credentials },
    rightSpecification: ref(placeId(r.zoneId), 'RightSpecification'),
    issuanceTime: r.issuedAt.toISOString(),
    expiry: r.endsAt.toISOString(),
    ...(r.issueMethod ? { issueMethod: r.issueMethod as ApdsAssignedRight['issueMethod'] } : {}),
    plannedUses: [{ startTime: r.startsAt.toISOString(), endTime: r.endsAt.toISOString() }],
  };
}

/**
 * The right as a webhook event carries it: the row as the outbox's trigger stored it (to_jsonb,
 * column names and ISO times), as the APDS document's AssignedRight.
 */
export function assignedRightOfEvent(r: Record<string, unknown>): ApdsAssignedRight {
  const at = (k: string) => new Date(r[k] as string);
  return toAssignedRight({
    apdsId: String(r.apds_id),
    version: Number(r.version),
    credentials: r.credentials as Row['credentials'],
    zoneId: Number(r.zone_id),
    issuedAt: at('issued_at'),
    startsAt: at('starts_at'),
    endsAt: at('ends_at'),
    issueMethod: (r.issue_method as string | null) ?? null,
  } as Row);
}

/** What a create keeps, checked: 400 (and nothing written) for a zone not the operator's, no plate, no end. */
async function kept(db: Executor, operatorId: number, body: ApdsAssignedRightRequest, now: Date) {
  const zoneId = idNumber(body.rightSpecification.id, 'zone');
  const [zone] =
    zoneId === null
      ? []
      : await db
          .select({ id: zones.id })
          .from(zones)
          .where(and(eq(zones.id, zoneId), eq(zones.operatorId, operatorId), isNull(zones.retiredAt)));
  if (!zone) throw badRequest('rightSpecification.id', M.unknownSpecification);

  const credentials: ApdsStoredCredential[] = body.rightHolder.credentials.map((c) => ({
    identifier: { className: c.identifier.className, id: c.identifier.id },
    issuer: c.issuer.map((i) => ({ language: i.language, string: i.string })),
    ...(c.type ? { type: c.type } : {}),
  }));
  const plates = [...new Set(body.rightHolder.credentials.filter(isPlate).map((c) => normalisePlate(c.identifier.id)))];
  if (plates.length === 0) throw badRequest('rightHolder.credentials', M.noPlate);
  if (plates.some((p) => !/^[A-Z0-9]{1,15}$/.test(p))) throw badRequest('rightHolder.credentials', M.badPlate);

  const use = body.plannedUses?.[0];
  const issuedAt = body.issuanceTime ? new Date(body.issuanceTime) : now;
  const startsAt = use ? new Date(use.startTime) : issuedAt;
  const end = body.expiry ?? use?.endTime ?? use?.expiryTime;
  if (end === undefined) throw badRequest('expiry', M.noExpiry);
  const endsAt = new Date(end);
  if (endsAt <= startsAt) throw badRequest('expiry', M.rightEndsBeforeStart);
  if (endsAt.getTime() - startsAt.getTime() > MAX_RIGHT_MS) throw badRequest('expiry', M.rightTooLong);

  const values = {
    apdsId: body.id,
    version: body.version,
    zoneId: zone.id,
    plates,
    credentials,
    startsAt,
    endsAt,
    issuedAt,
    issueMethod: body.issueMethod ?? null,
  };
  // Built in one order from what the request gave, so equal requests hash equal (times as UTC ISO
  // text); a time left out hashes as absent, not as the moment it was first received.
  const given = (t: string | undefined) => (t === undefined ? null : new Date(t).toISOString());
  const asked = {
    ...values,
    issuedAt: given(body.issuanceTime),
    startsAt: given(use?.startTime ?? body.issuanceTime),
    endsAt: endsAt.toISOString(),
  };
  const requestHash = createHash('sha256').update(JSON.stringify(asked)).digest('hex');
  return { ...values, requestHash };
}

/**
 * POST /apds/rights/assigned. The right's id, and the Idempotency-Key when sent, are unique per
 * operator: the insert does nothing on either conflict, and the row that holds them is read after
 * it. The same content answers that right again (`created: false`); other content is a 409. No
 * read comes before the write, so parallel creates with one id or key write one row.
 */
export async function createAssignedRight(
  db: Executor,
  operatorId: number,
  body: ApdsAssignedRightRequest,
  idempotencyKey: string | null,
  now: Date,
): Promise<{ right: ApdsAssignedRight; created: boolean }> {
  const values = await kept(db, operatorId, body, now);
  const [inserted] = await db
    .insert(apdsAssignedRights)
    .values({ ...values, operatorId, idempotencyKey })
    .onConflictDoNothing()
    .returning();
  if (inserted) return { right: toAssignedRight(inserted), created: true };
  const holders = await db
    .select()
    .from(apdsAssignedRights)
    .where(
      and(
        eq(apdsAssignedRights.operatorId, operatorId),
        or(
          eq(apdsAssignedRights.apdsId, body.id),
          idempotencyKey === null ? undefined : eq(apdsAssignedRights.idempotencyKey, idempotencyKey),
        ),
      ),
    );
  const other = holders.find((h) => h.requestHash !== values.requestHash);
  if (other) throw other.apdsId === body.id ? conflict('id', M.idConflict) : conflict('Idempotency-Key', M.keyConflict);
  const same = holders[0];
  if (!same) throw new Error('an assigned right conflicted on insert and then was not found');
  return { right: toAssignedRight(same), created: false };
}

const at = (s: number | undefined) => (s === undefined ? undefined : new Date(s * 1000));

/** GET /apds/rights/assigned: the key's operator's assigned rights, oldest first. */
export async function listAssignedRights(
  db: Executor,
  operatorId: number,
  q: ApdsAssignedRightsQuery,
  now: Date,
): Promise<{ meta: ApdsListMeta; data: ApdsAssignedRight[] }> {
  const a = apdsAssignedRights;
  const rightSpecs = apdsList(q.right_spec);
  const credentialIds = apdsList(q.credential_id).map(normalisePlate);
  const types = apdsList(q.credential_type);
  const classes = apdsList(q.credential_class);
  // A credential's type or class is looked for in the credentials as sent (jsonb containment);
  // every right holds a plate, so a plate type matches them all.
  const holds = (c: object): SQL => sql`${a.credentials} @> ${JSON.stringify([c])}::jsonb`;
  const where = and(
    eq(a.operatorId, operatorId),
    placeFilter(apdsList(q.place)),
    rightSpecs.length ? placeFilter(rightSpecs) : undefined,
    types.length === 0 || types.some((t) => (APDS_PLATE_TYPES as readonly string[]).includes(t))
      ? undefined
      : or(...types.map((t) => holds({ type: t }))),
    classes.length ? or(...classes.map((c) => holds({ identifier: { className: c } }))) : undefined,
    credentialIds.length
      ? sql`${a.plates} && array[${sql.join(
          credentialIds.map((c) => sql`${c}::text`),
          sql`, `,
        )}]::text[]`
      : undefined,
    at(q.start_before) ? lt(a.startsAt, at(q.start_before)!) : undefined,
    at(q.start_after) ? gt(a.startsAt, at(q.start_after)!) : undefined,
    at(q.end_before) ? lt(a.endsAt, at(q.end_before)!) : undefined,
    at(q.end_after) ? gt(a.endsAt, at(q.end_after)!) : undefined,
    at(q.modified_since) ? gte(a.updatedAt, at(q.modified_since)!) : undefined,
    near(q.latitude, q.longitude, q.radius),
  );
  const offset = q.offset ?? 0;
  const [rows, [total]] = await Promise.all([
    db
      .select({ right: a })
      .from(a)
      .innerJoin(zones, eq(zones.id, a.zoneId))
      .where(where)
      .orderBy(asc(a.id))
      .offset(offset)
      .limit(APDS_PAGE),
    db.select({ n: count() }).from(a).innerJoin(zones, eq(zones.id, a.zoneId)).where(where),
  ]);
  return { meta: meta(total?.n ?? 0, offset, now), data: rows.map((r) => toAssignedRight(r.right)) };
}

/** GET /apds/rights/assigned/{id}: null for an id the key's operator does not have. */
export async function getAssignedRight(
  db: Executor,
  operatorId: number,
  id: string,
): Promise<ApdsAssignedRight | null> {
  const [row] = await db
    .select()
    .from(apdsAssignedRights)
    .where(and(eq(apdsAssignedRights.operatorId, operatorId), eq(apdsAssignedRights.apdsId, id)));
  return row ? toAssignedRight(row) : null;
}

/**
 * PUT /apds/rights/assigned/{id}: the right's next version, whole, checked as a create is (the same
 * 400s, before anything is written; times left out are now, as in a create). Its `version` is the
 * stored one plus one (the document's body is "the new version"): the check and the write are one
 * UPDATE, so of two updates of one version exactly one is written, and the other, like any version
 * that is not the next, is a 409 that changes nothing. Null for an id the key's operator does not
 * have. The stored request hash becomes the new content's, so that a create repeating the old
 * content is a 409 and one repeating the new answers this right. `versionField` is the field a
 * stale version's 409 names (a Session's segment's right names its place in the Session).
 */
export async function updateAssignedRight(
  db: Executor,
  operatorId: number,
  id: string,
  body: ApdsAssignedRightRequest,
  now: Date,
  versionField = 'version',
): Promise<ApdsAssignedRight | null> {
  if (body.id !== id) throw badRequest('id', M.idNotPath);
  const { apdsId: _id, ...values } = await kept(db, operatorId, body, now);
  const a = apdsAssignedRights;
  const mine = and(eq(a.operatorId, operatorId), eq(a.apdsId, id));
  const [updated] = await db
    .update(a)
    .set({ ...values, updatedAt: now })
    .where(and(mine, eq(a.version, body.version - 1)))
    .returning();
  if (updated) return toAssignedRight(updated);
  // Nothing written: only the refusal's kind is read now.
  const [held] = await db.select({ id: a.id }).from(a).where(mine);
  if (!held) return null;
  throw conflict(versionField, M.outdatedVersion);
}

/**
 * DELETE /apds/rights/assigned/{id}: the right is gone at once (the plate check and the officers'
 * next download no longer find it). False for an id the key's operator does not have.
 */
export async function deleteAssignedRight(db: Executor, operatorId: number, id: string): Promise<boolean> {
  const a = apdsAssignedRights;
  const gone = await db
    .delete(a)
    .where(and(eq(a.operatorId, operatorId), eq(a.apdsId, id)))
    .returning({ id: a.id });
  return gone.length > 0;
}

/**
 * The rights a Session's segments hold, in the caller's transaction (docs/apds.md#partner-sessions):
 * a right a segment names ({ id, version }) must be one of the operator's (else 400); an inline one
 * is created as POST /apds/rights/assigned creates one (idempotent by its id), its window the
 * segment's when it gives none. In an update (PUT /apds/sessions/{id}) an inline right the operator
 * holds under another version is that right's next version, written as PUT
 * /apds/rights/assigned/{id} writes one: its version the stored one plus one, else a 409 naming the
 * segment's right; held under the same version, it is the create's repeat (the same content, or 409).
 */
async function segmentRights(
  tx: Executor,
  operatorId: number,
  body: ApdsSessionRequest,
  now: Date,
  update: boolean,
): Promise<ApdsAssignedRight[]> {
  const rights: ApdsAssignedRight[] = [];
  for (const [i, segment] of body.segments.entries()) {
    const r = segment.assignedRight;
    if (!('rightSpecification' in r)) {
      const found = await getAssignedRight(tx, operatorId, r.id);
      if (!found) throw badRequest(`segments.${i}.assignedRight.id`, M.unknownAssignedRight);
      rights.push(found);
      continue;
    }
    const window = r.plannedUses ?? [{ startTime: segment.actualStart }];
    const expiry = r.expiry ?? r.plannedUses?.[0]?.endTime ?? segment.actualEnd ?? body.actualEnd;
    const right = { ...r, plannedUses: window, ...(expiry ? { expiry } : {}) };
    const held = update ? await getAssignedRight(tx, operatorId, r.id) : null;
    if (held && held.version !== r.version) {
      const versionField = `segments.${i}.assignedRight.version`;
      // Null: deleted since it was read; the segment named a version that is no longer there.
      const next = await updateAssignedRight(tx, operatorId, r.id, right, now, versionField);
      if (!next) throw conflict(versionField, M.outdatedVersion);
      rights.push(next);
      continue;
    }
    rights.push((await createAssignedRight(tx, operatorId, right, null, now)).right);
  }
  return rights;
}

/**
 * POST /apds/sessions: a Session's segments name their rights or carry them inline (segmentRights);
 * the Session is kept with them (apds-sessions.ts). One transaction: a refused segment, or a
 * Session id held by other content, leaves nothing written.
 */
export async function registerSession(
  db: Db,
  operatorId: number,
  body: ApdsSessionRequest,
  now: Date,
): Promise<ApdsAssignedRight[]> {
  return db.transaction(async (tx) => {
    const rights = await segmentRights(tx, operatorId, body, now, false);
    await keepPartnerSession(tx, operatorId, body, rights);
    return rights;
  });
}

/**
 * PUT /apds/sessions/{id}: a partner's Session replaced by its next version, whole, checked as a
 * registration is (the same 400s; `id` must be the path's). Its segments' rights are the POST's,
 * and an inline right held under another version is updated to it (segmentRights). The Session's
 * `version` is the kept one plus one, checked in the UPDATE that writes it (replacePartnerSession):
 * any other is a 409 naming `version`. ParkIt's own sessions (session-<n>) are a 409; an id the
 * operator does not have is a 404 (thrown: the rights written before it are undone). One
 * transaction (a savepoint in the caller's): any refusal leaves nothing written.
 */
export async function updatePartnerSession(
  db: Executor,
  operatorId: number,
  id: string,
  body: ApdsSessionRequest,
  now: Date,
): Promise<{ session: ApdsPartnerSession; rights: ApdsAssignedRight[] }> {
  if (body.id !== id) throw badRequest('id', M.idNotPath);
  const sessionId = idNumber(id, 'session');
  if (sessionId !== null) {
    if (await isOwnSession(db, operatorId, sessionId)) throw conflict('id', M.ownSessionNotUpdated);
    throw notFound(M.notFound);
  }
  return db.transaction(async (tx) => {
    const rights = await segmentRights(tx, operatorId, body, now, true);
    const session = await replacePartnerSession(tx, operatorId, body, rights, now);
    if (session) return { session, rights };
    if (await hasPartnerSession(tx, operatorId, id)) throw conflict('version', M.outdatedVersion);
    throw notFound(M.notFound);
  });
}
