import { and, asc, count, eq, gt, gte, inArray, lt, or, sql } from 'drizzle-orm';
import { apdsList, type ApdsListMeta, type ApdsSession, type ApdsSessionsQuery } from '@parkit/contract';
import type { Executor } from '../db/client.ts';
import { operators, parkingSessions, zones } from '../db/schema/index.ts';
import { APDS_PAGE, en, ref, placeId, money, idNumber, meta, near, placeFilter } from './apds-common.ts';

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

/** GET /apds/sessions: the key's operator's sessions (only its zones'), oldest first. */
export async function listSessions(
  db: Executor,
  operatorId: number,
  q: ApdsSessionsQuery,
  currency: string,
  now: Date,
): Promise<{ meta: ApdsListMeta; data: ApdsSession[] }> {
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
  const [rows, [total]] = await Promise.all([
    sessionsWith(db).where(where).orderBy(asc(parkingSessions.id)).offset(offset).limit(APDS_PAGE),
    db
      .select({ n: count() })
      .from(parkingSessions)
      .innerJoin(zones, eq(zones.id, parkingSessions.zoneId))
      .innerJoin(operators, eq(operators.id, zones.operatorId))
      .where(where),
  ]);
  return { meta: meta(total?.n ?? 0, offset, now), data: rows.map((s) => toSession(s, currency)) };
}

/** GET /apds/sessions/{id}: null for another operator's session (the key must not reveal it exists). */
export async function getSession(
  db: Executor,
  operatorId: number,
  id: string,
  currency: string,
): Promise<ApdsSession | null> {
  const sessionId = idNumber(id, 'session');
  if (sessionId === null) return null;
  const [row] = await sessionsWith(db).where(and(eq(zones.operatorId, operatorId), eq(parkingSessions.id, sessionId)));
  return row ? toSession(row, currency) : null;
}
