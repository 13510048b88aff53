import { and, asc, count, eq, gt, gte, inArray, isNotNull, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import {
  citations,
  enforcementChecks,
  operators,
  parkingQuotes,
  parkingSessions,
  permits,
  permitTypes,
  violations,
  visitorDays,
  zones,
} from '../db/schema/index.ts';
import { ANONYMISED_PLATE, normalisedSessionPlate } from '../enforcement/index.ts';
import { notFound } from '../lib/http-error.ts';
import { CITATION_MESSAGES as M } from '@parkit/contract';
import { ownedBy } from './citation-view.ts';

/** What a driver's proof pack prints (docs/citations.md#the-proof-pack); amounts in cents. */
export interface ProofPack {
  citation: {
    id: number;
    zoneNumber: string;
    plate: string;
    plateState: string;
    violationCode: string;
    violation: string;
    issuedAt: Date;
    officerId: number | null;
    officerName: string;
    location: string;
    fineCents: number;
    status: string;
  };
  operatorName: string;
  timeZone: string;
  /** The citation's date in the operator's time zone (YYYY-MM-DD). */
  day: string;
  sessions: {
    id: number;
    startedAt: Date;
    endedAt: Date;
    amountCents: number;
    /** The quotes it was bought with (Start's, then each extension's). */
    quoteIds: string[];
    /** The receipt's number: the session's (Past parking's Receipt.pdf). */
    receipt: string;
  }[];
  permits: { id: number; typeName: string; validFrom: Date | null; validUntil: Date | null }[];
  visitorDays: { id: number; day: string; permitId: number }[];
  checks: { id: number; checkedAt: Date; outcome: string; sessionId: number | null }[];
  /** Checks in the zone that day whose plate the operator's retention has anonymised. */
  anonymisedChecks: number;
  /** The operator's retention period (weeks), and whether the citation's day is older than it. */
  retentionWeeks: number;
  pastRetention: boolean;
}

const WEEK_MS = 7 * 24 * 60 * 60 * 1000;
const MAX_CHECKS = 100;
/** A moment's text in UTC (ISO 8601), as rights.ts writes a local day's bounds. */
const iso = (at: SQL) => sql<string>`to_char(${at} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS".000Z"')`;

/**
 * The records of one of the member's citations a contest can rest on, from ParkIt's own tables:
 * the citation; the member's sessions of its plate in its zone that overlap its local day, with
 * the quotes that bought them; the plate's permits and visitor days for the zone valid that day;
 * the officers' checks of the plate in the zone that day. 404 when the citation is not the
 * member's (the plate of none of the member's vehicles).
 */
export async function proofPackOf(db: Executor, memberId: number, citationId: number, now: Date): Promise<ProofPack> {
  const tz = operators.timezone;
  const localMidnight = sql`date_trunc('day', ${citations.issuedAt} at time zone ${tz})`;
  const [row] = await db
    .select({
      c: citations,
      zoneNumber: zones.zoneNumber,
      code: violations.code,
      description: violations.description,
      operatorName: operators.name,
      timeZone: tz,
      retentionWeeks: operators.retentionWeeks,
      day: sql<string>`to_char(${citations.issuedAt} at time zone ${tz}, 'YYYY-MM-DD')`,
      dayStart: iso(sql`(${localMidnight}) at time zone ${tz}`),
      dayEnd: iso(sql`(${localMidnight} + interval '1 day') at time zone ${tz}`),
    })
    .from(citations)
    .innerJoin(zones, eq(zones.id, citations.zoneId))
    .innerJoin(violations, eq(violations.id, citations.violationId))
    .innerJoin(operators, eq(operators.id, citations.operatorId))
    .where(and(eq(citations.id, citationId), ownedBy(memberId)))
    .limit(1);
  if (!row) throw notFound(M.citationNotFound);
  const { c } = row;
  const dayStart = new Date(row.dayStart);
  const dayEnd = new Date(row.dayEnd);

  const s = parkingSessions;
  const sessions = await db
    .select({
      id: s.id,
      vehicleId: s.vehicleId,
      startedAt: s.startedAt,
      endsAt: s.endsAt,
      endedAt: s.endedAt,
      parkingCents: s.parkingCents,
      feeCents: s.feeCents,
      refundedCents: s.refundedCents,
    })
    .from(s)
    .where(
      and(
        eq(s.memberId, memberId),
        eq(s.zoneId, c.zoneId),
        eq(s.plateState, c.plateState),
        sql`${normalisedSessionPlate} = ${c.plate}`,
        lt(s.startedAt, dayEnd),
        sql`coalesce(${s.endedAt}, ${s.endsAt}) > ${dayStart.toISOString()}::timestamptz`,
      ),
    )
    .orderBy(asc(s.startedAt), asc(s.id));

  // Start's quote names the zone and vehicle and is spent at the session's start (one moment);
  // an extension's names the session.
  const q = parkingQuotes;
  const earliest = sessions[0]?.startedAt;
  const quotes = earliest
    ? await db
        .select({ id: q.id, kind: q.kind, sessionId: q.sessionId, vehicleId: q.vehicleId, usedAt: q.usedAt })
        .from(q)
        .where(
          and(
            eq(q.memberId, memberId),
            isNotNull(q.usedAt),
            or(
              inArray(
                q.sessionId,
                sessions.map((x) => x.id),
              ),
              and(eq(q.kind, 'start'), eq(q.zoneId, c.zoneId), gte(q.usedAt, earliest), lte(q.usedAt, dayEnd)),
            ),
          ),
        )
        .orderBy(asc(q.usedAt))
    : [];

  const p = permits;
  const held = await db
    .select({ id: p.id, typeName: permitTypes.name, validFrom: p.validFrom, validUntil: p.validUntil })
    .from(p)
    .innerJoin(permitTypes, eq(permitTypes.id, p.typeId))
    .where(
      and(
        eq(p.operatorId, c.operatorId),
        eq(p.status, 'active'),
        sql`${p.plates} @> array[${c.plate}]::text[]`,
        sql`${p.zoneIds} @> array[${c.zoneId}]::int[]`,
        lt(p.validFrom, dayEnd),
        gt(p.validUntil, dayStart),
      ),
    )
    .orderBy(asc(p.id));

  const days = await db
    .select({ id: visitorDays.id, day: visitorDays.day, permitId: visitorDays.permitId })
    .from(visitorDays)
    .innerJoin(p, eq(p.id, visitorDays.permitId))
    .where(
      and(
        eq(visitorDays.operatorId, c.operatorId),
        eq(visitorDays.plate, c.plate),
        eq(visitorDays.day, row.day),
        eq(p.status, 'active'),
        sql`${p.zoneIds} @> array[${c.zoneId}]::int[]`,
      ),
    )
    .orderBy(asc(visitorDays.id));

  const k = enforcementChecks;
  const inZoneThatDay = and(
    eq(k.operatorId, c.operatorId),
    sql`upper(${k.zoneNumber}) = upper(${row.zoneNumber})`,
    gte(k.checkedAt, dayStart),
    lt(k.checkedAt, dayEnd),
  );
  const checks = await db
    .select({ id: k.id, checkedAt: k.checkedAt, outcome: k.outcome, sessionId: k.sessionId })
    .from(k)
    .where(and(inZoneThatDay, eq(k.plate, c.plate)))
    .orderBy(asc(k.checkedAt), asc(k.id))
    .limit(MAX_CHECKS);
  const [anonymised] = await db
    .select({ n: count() })
    .from(k)
    .where(and(inZoneThatDay, eq(k.plate, ANONYMISED_PLATE)));

  return {
    citation: {
      id: c.id,
      zoneNumber: row.zoneNumber,
      plate: c.plate,
      plateState: c.plateState,
      violationCode: row.code,
      violation: row.description,
      issuedAt: c.issuedAt,
      officerId: c.officerId,
      officerName: c.officerName,
      location: c.location,
      fineCents: c.fineCents,
      status: c.status,
    },
    operatorName: row.operatorName,
    timeZone: row.timeZone,
    day: row.day,
    sessions: sessions.map((x) => ({
      id: x.id,
      startedAt: x.startedAt,
      endedAt: x.endedAt ?? x.endsAt,
      amountCents: x.parkingCents + x.feeCents - x.refundedCents,
      quoteIds: quotes
        .filter((o) =>
          o.kind === 'start'
            ? o.vehicleId === x.vehicleId && o.usedAt?.getTime() === x.startedAt.getTime()
            : o.sessionId === x.id,
        )
        .map((o) => o.id),
      receipt: String(x.id),
    })),
    permits: held,
    visitorDays: days,
    checks,
    anonymisedChecks: Number(anonymised?.n ?? 0),
    retentionWeeks: row.retentionWeeks,
    pastRetention: c.issuedAt.getTime() < now.getTime() - row.retentionWeeks * WEEK_MS,
  };
}
