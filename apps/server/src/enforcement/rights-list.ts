import { and, asc, eq, gt, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { RightsDownload, ZoneRight } from '@parkit/contract';
import type { Executor } from '../db/client.ts';
import { apdsAssignedRights, operators, parkingSessions, permits, visitorDays, zones } from '../db/schema/index.ts';
import { notFound } from '../lib/http-error.ts';
import { ratesNow } from '../pricing/index.ts';
import { chalksOfZones } from './chalk-repository.ts';
import { normalisedSessionPlate } from './rights.ts';

/**
 * Every right to park in some zones of an operator at `at`, for an officer's device to check
 * plates with no signal (docs/permits.md#rights has the rule; `rightToPark` answers one plate by
 * the same four reads): running paid sessions (members' and Quick Park's) with the operator's
 * grace minutes after their end, active permits whose window holds `at`, visitor days given
 * for `at`'s local date, and APDS assigned rights whose window holds `at`. `zoneIds` null: every zone of the operator not retired. A zone that is not
 * the operator's is a 404, so another operator's ids look absent.
 */
export async function rightsOfZones(
  db: Executor,
  operatorId: number,
  zoneIds: readonly number[] | null,
  at: Date,
  maxZones: number,
): Promise<RightsDownload> {
  const [operator] = await db
    .select({ timezone: operators.timezone, graceMinutes: operators.graceMinutes })
    .from(operators)
    .where(eq(operators.id, operatorId));
  if (!operator) throw notFound();
  const zoneRows = await db
    .select({
      id: zones.id,
      operatorId: zones.operatorId,
      zoneNumber: zones.zoneNumber,
      name: zones.name,
      rateCents: zones.rateCents,
      maxStayMinutes: zones.maxStayMinutes,
      paidDays: zones.paidDays,
      paidFromMinute: zones.paidFromMinute,
      paidUntilMinute: zones.paidUntilMinute,
    })
    .from(zones)
    .where(
      and(
        eq(zones.operatorId, operatorId),
        zoneIds === null ? isNull(zones.retiredAt) : inArray(zones.id, [...zoneIds]),
      ),
    )
    .orderBy(asc(zones.zoneNumber))
    .limit(maxZones);
  if (zoneIds !== null && zoneRows.length !== zoneIds.length) throw notFound();
  const ids = zoneRows.map((z) => z.id);
  const prices = await ratesNow(db, zoneRows, operator.timezone, at);
  const out: RightsDownload = {
    GeneratedAt: at.toISOString(),
    OperatorId: operatorId,
    Zones: zoneRows.map((z) => {
      const price = prices.get(z.id);
      return {
        ZoneId: z.id,
        ZoneNumber: z.zoneNumber,
        Name: z.name,
        MaxStayMinutes: price?.maxStayMinutes ?? z.maxStayMinutes,
        PaidNow: price?.paidNow ?? false,
      };
    }),
    Rights: [],
    Chalks: await chalksOfZones(db, operatorId, ids, at),
  };
  if (ids.length === 0) return out;
  const inZones = new Set(ids);
  const atSql = sql`${at.toISOString()}::timestamptz`;
  const grace = operator.graceMinutes;
  const idArray = sql`array[${sql.join(
    ids.map((id) => sql`${id}::int`),
    sql`, `,
  )}]::int[]`;

  const s = parkingSessions;
  const sessions = await db
    .select({
      id: s.id,
      zoneId: s.zoneId,
      plate: sql<string>`${normalisedSessionPlate}`,
      plateState: s.plateState,
      startedAt: s.startedAt,
      endsAt: s.endsAt,
    })
    .from(s)
    .where(
      and(
        eq(s.operatorId, operatorId),
        inArray(s.zoneId, ids),
        eq(s.status, 'active'),
        lte(s.startedAt, at),
        sql`${s.endsAt} + make_interval(mins => ${grace}) > ${atSql}`,
      ),
    );
  const rights: ZoneRight[] = sessions.map((r) => ({
    ZoneId: r.zoneId,
    Kind: 'session',
    Id: String(r.id),
    PlateNumber: r.plate,
    PlateState: r.plateState,
    StartsAt: r.startedAt.toISOString(),
    EndsAt: new Date(r.endsAt.getTime() + grace * 60_000).toISOString(),
  }));

  const p = permits;
  const permitRows = await db
    .select({ id: p.id, plates: p.plates, zoneIds: p.zoneIds, validFrom: p.validFrom, validUntil: p.validUntil })
    .from(p)
    .where(
      and(
        eq(p.operatorId, operatorId),
        eq(p.status, 'active'),
        sql`${p.zoneIds} && ${idArray}`,
        lte(p.validFrom, at),
        gt(p.validUntil, at),
      ),
    );
  for (const r of permitRows)
    for (const zoneId of r.zoneIds.filter((z) => inZones.has(z)))
      for (const plate of r.plates)
        rights.push({
          ZoneId: zoneId,
          Kind: 'permit',
          Id: String(r.id),
          PlateNumber: plate,
          PlateState: null,
          StartsAt: (r.validFrom ?? at).toISOString(),
          EndsAt: r.validUntil?.toISOString() ?? null,
        });

  const v = visitorDays;
  const tz = operator.timezone;
  const days = await db
    .select({
      id: v.id,
      plate: v.plate,
      zoneIds: p.zoneIds,
      startsAt: sql<string>`to_char((${v.day}::timestamp at time zone ${tz}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS".000Z"')`,
      endsAt: sql<string>`to_char(((${v.day} + 1)::timestamp at time zone ${tz}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS".000Z"')`,
    })
    .from(v)
    .innerJoin(p, eq(p.id, v.permitId))
    .where(
      and(
        eq(v.operatorId, operatorId),
        sql`${v.day} = (${atSql} at time zone ${tz})::date`,
        eq(p.status, 'active'),
        sql`${p.zoneIds} && ${idArray}`,
      ),
    );
  for (const d of days)
    for (const zoneId of d.zoneIds.filter((z) => inZones.has(z)))
      rights.push({
        ZoneId: zoneId,
        Kind: 'visitor-day',
        Id: String(d.id),
        PlateNumber: d.plate,
        PlateState: null,
        StartsAt: d.startsAt,
        EndsAt: d.endsAt,
      });

  const a = apdsAssignedRights;
  const assigned = await db
    .select({ apdsId: a.apdsId, zoneId: a.zoneId, plates: a.plates, startsAt: a.startsAt, endsAt: a.endsAt })
    .from(a)
    .where(and(eq(a.operatorId, operatorId), inArray(a.zoneId, ids), lte(a.startsAt, at), gt(a.endsAt, at)));
  for (const r of assigned)
    for (const plate of r.plates)
      rights.push({
        ZoneId: r.zoneId,
        Kind: 'assigned-right',
        Id: r.apdsId,
        PlateNumber: plate,
        PlateState: null,
        StartsAt: r.startsAt.toISOString(),
        EndsAt: r.endsAt.toISOString(),
      });
  out.Rights = rights;
  return out;
}
