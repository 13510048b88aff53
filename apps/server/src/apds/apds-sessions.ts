import { createHash } from 'node:crypto';
import { and, asc, count, eq, gt, gte, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import {
  APDS_MESSAGES as M,
  apdsList,
  type ApdsAnySession,
  type ApdsAssignedRight,
  type ApdsListMeta,
  type ApdsPartnerSession,
  type ApdsSession,
  type ApdsSessionRequest,
  type ApdsSessionsQuery,
} from '@parkit/contract';
import type { Executor } from '../db/client.ts';
import { apdsPartnerSessions, operators, parkingSessions, zones } from '../db/schema/index.ts';
import { badRequest, conflict } from '../lib/http-error.ts';
import { normalisePlate } from '../lib/plate.ts';
import { APDS_PAGE, en, ref, placeId, money, idNumber, isPlate, meta, near, placeFilter } from './apds-common.ts';

/** The APDS sessions: a parking session as a Session of one segment, scoped by the key's operator (docs/apds.md#mapping). */
const sessionColumns = {
  id: parkingSessions.id,
  zoneId: parkingSessions.zoneId,
  plate: parkingSessions.plate,
  plateState: parkingSessions.plateState,
  vehicleMake: parkingSessions.vehicleMake,
  vehicleModel: parkingSessions.vehicleModel,
  startedAt: parkingSessions.startedAt,
  endsAt: parkingSessions.endsAt,
  endedAt: parkingSessions.endedAt,
  durationMinutes: parkingSessions.durationMinutes,
  parkingCents: parkingSessions.parkingCents,
  refundedCents: parkingSessions.refundedCents,
  updatedAt: parkingSessions.updatedAt,
  showPlates: operators.showPlates,
};
export type SessionRow = {
  [K in keyof typeof sessionColumns]: (typeof sessionColumns)[K]['_']['notNull'] extends true
    ? (typeof sessionColumns)[K]['_']['data']
    : (typeof sessionColumns)[K]['_']['data'] | null;
};

export function toSession(s: SessionRow, currency: string): ApdsSession {
  const id = `session-${s.id}`;
  const end = s.endedAt ? { actualEnd: s.endedAt.toISOString() } : {};
  // The plate only where the operator opted in (operators.show_plates); otherwise the session's
  // own electronic id is its credential.
  const credential = s.showPlates
    ? { identifier: { className: 'LicensePlate', id: s.plate }, issuer: en(s.plateState), type: 'licensePlate' }
    : { identifier: { className: 'Session', id }, issuer: en('ParkIt'), type: 'electronicID' };
  return {
    id,
    version: 1,
    actualStart: s.startedAt.toISOString(),
    ...end,
    initiator: ref('parkit', 'Application'),
    identifiedCredentials: [credential],
    segments: [
      {
        id: `${id}-1`,
        version: 1,
        actualStart: s.startedAt.toISOString(),
        ...end,
        assignedRight: {
          id,
          version: 1,
          rightHolder: {},
          rightSpecification: ref(placeId(s.zoneId), 'RightSpecification'),
          issuanceTime: s.startedAt.toISOString(),
          expiry: s.endsAt.toISOString(),
          totalMinutes: s.durationMinutes,
          totalRightValue: { currencyType: currency, currencyValue: money(s.parkingCents - s.refundedCents) },
          issueMethod: 'electronic',
        },
        validationType: ['licensePlate'],
      },
    ],
    hierachyElement: ref(placeId(s.zoneId), 'Place'),
    identifiedVehicle: { country: 'us', stateProvince: s.plateState, make: s.vehicleMake, model: s.vehicleModel },
  };
}

/** Sessions with their zone and operator; every caller scopes them by the zone's operator. */
const sessionsWith = (db: Executor) =>
  db
    .select(sessionColumns)
    .from(parkingSessions)
    .innerJoin(zones, eq(zones.id, parkingSessions.zoneId))
    .innerJoin(operators, eq(operators.id, zones.operatorId))
    .$dynamic();

/**
 * GET /apds/sessions: the key's operator's parking sessions (only its zones'), oldest first, then
 * the Sessions third parties registered with its key, oldest first; one offset runs over both.
 */
export async function listSessions(
  db: Executor,
  operatorId: number,
  q: ApdsSessionsQuery,
  currency: string,
  now: Date,
): Promise<{ meta: ApdsListMeta; data: ApdsAnySession[] }> {
  const at = (s: number | undefined) => (s === undefined ? undefined : new Date(s * 1000));
  const rightSpecs = apdsList(q.right_spec);
  const credentialIds = apdsList(q.credential_id);
  const credentialTypes = apdsList(q.credential_type);
  const ended = sql`coalesce(${parkingSessions.endedAt}, ${parkingSessions.endsAt})`;
  const where = and(
    eq(zones.operatorId, operatorId),
    placeFilter(apdsList(q.place)),
    rightSpecs.length ? placeFilter(rightSpecs) : undefined,
    credentialTypes.length === 0 || credentialTypes.some((t) => t === 'licensePlate' || t === 'electronicID')
      ? undefined
      : sql`false`,
    // A plate is a credential only where the operator shows plates; a session's own id always is.
    credentialIds.length
      ? or(
          inArray(
            parkingSessions.id,
            credentialIds.map((c) => idNumber(c, 'session') ?? 0),
          ),
          and(
            eq(operators.showPlates, true),
            inArray(
              sql`upper(replace(replace(${parkingSessions.plate}, ' ', ''), '-', ''))`,
              credentialIds.map((c) => c.replace(/[\s-]/g, '').toUpperCase()),
            ),
          ),
        )
      : undefined,
    at(q.start_before) ? lt(parkingSessions.startedAt, at(q.start_before)!) : undefined,
    at(q.start_after) ? gt(parkingSessions.startedAt, at(q.start_after)!) : undefined,
    at(q.end_before) ? sql`${ended} < ${at(q.end_before)!.toISOString()}::timestamptz` : undefined,
    at(q.end_after) ? sql`${ended} > ${at(q.end_after)!.toISOString()}::timestamptz` : undefined,
    at(q.modified_since) ? gte(parkingSessions.updatedAt, at(q.modified_since)!) : undefined,
    near(q.latitude, q.longitude, q.radius),
  );
  const offset = q.offset ?? 0;
  const partnerWhere = partnerFilter(operatorId, q);
  const [rows, [ours], [theirs]] = await Promise.all([
    sessionsWith(db).where(where).orderBy(asc(parkingSessions.id)).offset(offset).limit(APDS_PAGE),
    db
      .select({ n: count() })
      .from(parkingSessions)
      .innerJoin(zones, eq(zones.id, parkingSessions.zoneId))
      .innerJoin(operators, eq(operators.id, zones.operatorId))
      .where(where),
    countPartners(db, partnerWhere),
  ]);
  const oursTotal = ours?.n ?? 0;
  // The page's rest, from the registered Sessions: those after the parking sessions the offset skipped.
  const partners =
    rows.length < APDS_PAGE
      ? await partnerBodies(db)
          .where(partnerWhere)
          .orderBy(asc(apdsPartnerSessions.id))
          .offset(Math.max(0, offset - oursTotal))
          .limit(APDS_PAGE - rows.length)
      : [];
  return {
    meta: meta(oursTotal + (theirs?.n ?? 0), offset, now),
    data: [...rows.map((s) => toSession(s, currency)), ...partners.map((p) => p.body)],
  };
}

/**
 * GET /apds/sessions/{id}: one of the operator's parking sessions (session-<id>) or a Session a
 * third party registered with its key; null for another operator's (the key must not reveal it exists).
 */
export async function getSession(
  db: Executor,
  operatorId: number,
  id: string,
  currency: string,
): Promise<ApdsAnySession | null> {
  const sessionId = idNumber(id, 'session');
  if (sessionId === null) {
    const [kept] = await partnerBodies(db).where(
      and(eq(apdsPartnerSessions.operatorId, operatorId), eq(apdsPartnerSessions.apdsId, id)),
    );
    return kept?.body ?? null;
  }
  const [row] = await sessionsWith(db).where(and(eq(zones.operatorId, operatorId), eq(parkingSessions.id, sessionId)));
  return row ? toSession(row, currency) : null;
}

/** The registered Sessions' bodies, with their zone (the place filters read it); every caller scopes them by operator. */
const partnerBodies = (db: Executor) =>
  db
    .select({ body: apdsPartnerSessions.body })
    .from(apdsPartnerSessions)
    .innerJoin(zones, eq(zones.id, apdsPartnerSessions.zoneId))
    .$dynamic();

const countPartners = (db: Executor, where: SQL | undefined) =>
  db
    .select({ n: count() })
    .from(apdsPartnerSessions)
    .innerJoin(zones, eq(zones.id, apdsPartnerSessions.zoneId))
    .where(where);

/** The list's filters on the registered Sessions: their place, plates, Session id, times. */
function partnerFilter(operatorId: number, q: ApdsSessionsQuery): SQL | undefined {
  const at = (s: number | undefined) => (s === undefined ? undefined : new Date(s * 1000));
  const p = apdsPartnerSessions;
  const rightSpecs = apdsList(q.right_spec);
  const credentialIds = apdsList(q.credential_id);
  const types = apdsList(q.credential_type);
  const holds = (c: object): SQL => sql`${p.body}->'identifiedCredentials' @> ${JSON.stringify([c])}::jsonb`;
  return and(
    eq(p.operatorId, operatorId),
    placeFilter(apdsList(q.place)),
    rightSpecs.length ? placeFilter(rightSpecs) : undefined,
    types.length ? or(...types.map((t) => holds({ type: t }))) : undefined,
    credentialIds.length
      ? or(
          inArray(p.apdsId, credentialIds),
          sql`${p.plates} && array[${sql.join(
            credentialIds.map((c) => sql`${normalisePlate(c)}::text`),
            sql`, `,
          )}]::text[]`,
        )
      : undefined,
    at(q.start_before) ? lt(p.startsAt, at(q.start_before)!) : undefined,
    at(q.start_after) ? gt(p.startsAt, at(q.start_after)!) : undefined,
    // A Session with no actualEnd has not ended: after any moment, before none.
    at(q.end_before) ? lt(p.endsAt, at(q.end_before)!) : undefined,
    at(q.end_after) ? or(isNull(p.endsAt), gt(p.endsAt, at(q.end_after)!)) : undefined,
    at(q.modified_since) ? gte(p.updatedAt, at(q.modified_since)!) : undefined,
    near(q.latitude, q.longitude, q.radius),
  );
}

/**
 * The columns a partner's Session keeps beside its body: its zone (the first segment's right's),
 * its plates, start and end, and the hash a repeat of its content compares; the body is the Session
 * as sent, each segment's right as created or found.
 */
function partnerRow(body: ApdsSessionRequest, rights: ApdsAssignedRight[]) {
  const zoneId = idNumber(rights[0]!.rightSpecification.id, 'zone');
  if (zoneId === null) throw new Error(`an assigned right names no zone: ${rights[0]!.rightSpecification.id}`);
  const kept: ApdsPartnerSession = {
    ...body,
    segments: body.segments.map((s, i) => ({ ...s, assignedRight: rights[i]! })),
  };
  return {
    version: body.version,
    zoneId,
    plates: [...new Set(body.identifiedCredentials.filter(isPlate).map((c) => normalisePlate(c.identifier.id)))],
    startsAt: new Date(body.actualStart),
    endsAt: body.actualEnd ? new Date(body.actualEnd) : null,
    body: kept,
    requestHash: createHash('sha256').update(JSON.stringify(body)).digest('hex'),
  };
}

/**
 * Keeps a Session a third party registered, in the transaction that created its segments' rights
 * (apds-assigned.ts registerSession): the Session as sent, each segment's right as created or
 * found. The same id again with the same content is the same Session; with other content, 409.
 * An id of ParkIt's own form (session-<number>) is refused: GET /apds/sessions/{id} reads it as ours.
 */
export async function keepPartnerSession(
  tx: Executor,
  operatorId: number,
  body: ApdsSessionRequest,
  rights: ApdsAssignedRight[],
): Promise<void> {
  if (idNumber(body.id, 'session') !== null) throw badRequest('id', M.sessionIdReserved);
  const row = partnerRow(body, rights);
  const [inserted] = await tx
    .insert(apdsPartnerSessions)
    .values({ ...row, operatorId, apdsId: body.id })
    .onConflictDoNothing({ target: [apdsPartnerSessions.operatorId, apdsPartnerSessions.apdsId] })
    .returning({ id: apdsPartnerSessions.id });
  if (inserted) return;
  const [held] = await tx
    .select({ requestHash: apdsPartnerSessions.requestHash })
    .from(apdsPartnerSessions)
    .where(and(eq(apdsPartnerSessions.operatorId, operatorId), eq(apdsPartnerSessions.apdsId, body.id)));
  if (held?.requestHash !== row.requestHash) throw conflict('id', M.sessionIdConflict);
}

/**
 * PUT /apds/sessions/{id}'s write, in the transaction that wrote its segments' rights
 * (apds-assigned.ts updatePartnerSession): the Session's next version, as sent, replaces the kept
 * one if the kept version is the one before it. The check and the write are one UPDATE, so of two
 * updates of one version exactly one is written; its trigger writes SessionUpdated (migration
 * 0054). The stored hash becomes the new content's: a POST repeating it answers this Session. Null
 * when nothing was written (a stale version, or no such Session of the operator's).
 */
export async function replacePartnerSession(
  tx: Executor,
  operatorId: number,
  body: ApdsSessionRequest,
  rights: ApdsAssignedRight[],
  now: Date,
): Promise<ApdsPartnerSession | null> {
  const p = apdsPartnerSessions;
  const [updated] = await tx
    .update(p)
    .set({ ...partnerRow(body, rights), updatedAt: now })
    .where(and(eq(p.operatorId, operatorId), eq(p.apdsId, body.id), eq(p.version, body.version - 1)))
    .returning({ body: p.body });
  return updated?.body ?? null;
}

/** Whether the operator has a partner's Session of this id. */
export async function hasPartnerSession(db: Executor, operatorId: number, id: string): Promise<boolean> {
  const p = apdsPartnerSessions;
  const [held] = await db
    .select({ id: p.id })
    .from(p)
    .where(and(eq(p.operatorId, operatorId), eq(p.apdsId, id)));
  return held !== undefined;
}

/**
 * Whether `session-<n>` is one of the operator's own parking sessions, which end with Stop and are
 * not a partner's to change or delete (another operator's is not found, as any id it does not have).
 */
export async function isOwnSession(db: Executor, operatorId: number, sessionId: number): Promise<boolean> {
  const [ours] = await sessionsWith(db).where(and(eq(zones.operatorId, operatorId), eq(parkingSessions.id, sessionId)));
  return ours !== undefined;
}

/**
 * DELETE /apds/sessions/{id}: a Session a partner registered goes (its rights stay: they are
 * assigned rights of their own); the delete's trigger writes SessionDeleted. False when the
 * operator has none of that id; ParkIt's own sessions (session-<id>) are never deleted: 409.
 */
export async function deletePartnerSession(db: Executor, operatorId: number, id: string): Promise<boolean> {
  const sessionId = idNumber(id, 'session');
  if (sessionId !== null) {
    if (await isOwnSession(db, operatorId, sessionId)) throw conflict('id', M.ownSessionKept);
    return false;
  }
  const gone = await db
    .delete(apdsPartnerSessions)
    .where(and(eq(apdsPartnerSessions.operatorId, operatorId), eq(apdsPartnerSessions.apdsId, id)))
    .returning({ id: apdsPartnerSessions.id });
  return gone.length > 0;
}
