import { and, asc, eq, gt, inArray, isNull, lte, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { PRICING_MESSAGES, type PolicyBody } from '@parkit/contract';
import type { Executor } from '../db/client.ts';
import { isActive } from '../db/partial-index.ts';
import { permits, permitTypes } from '../db/schema/index.ts';
import { HttpError } from '../lib/http-error.ts';
import { localTimeAt } from '../lib/local-clock.ts';
import { normalisePlate } from '../lib/plate.ts';
import { spanAt, type CompiledPolicy } from './compiled-policy.ts';
import { permitFor, type HeldPermit } from './driver-rates.ts';

/**
 * Permit holders and the zone's policy (docs/pricing.md#permit-holders): the permits a plate holds
 * for a zone, and whether one of them parks free at a moment. The quote prices a holder by them and
 * the plate check (enforcement/rights.ts) asks the same question, so both follow one rule.
 */

/** An active permit of the plate for the zone at the moment asked, with what the driver and the officer are shown. */
export interface ZonePermit extends HeldPermit {
  typeName: string;
  validUntil: Date | null;
}

/** The active permits whose plates hold the plate and whose zones hold the zone, with a window holding `at` (oldest first). */
export async function permitsOfPlate(
  db: Executor,
  q: { operatorId: number; zoneId: number; plate: string; at: Date },
): Promise<ZonePermit[]> {
  const plate = normalisePlate(q.plate);
  if (plate === '') return [];
  return permitsOfPlateQuery(db, { ...q, plate: sql`${plate}`, at: sql`${q.at.toISOString()}::timestamptz` });
}

/**
 * permitsOfPlate's read as a builder (`id`, `type_id`, `kind`, `name`, `valid_until`): the operator
 * and the zone as values or as SQL of the statement it is part of (the plate check's), the plate
 * (normalised) and the moment (a timestamptz) as SQL.
 */
export function permitsOfPlateQuery(
  db: Executor,
  q: { operatorId: number | SQL; zoneId: number | SQL; plate: SQLWrapper; at: SQL },
) {
  const plate = q.plate;
  const p = permits;
  return db
    .select({
      id: p.id,
      typeId: p.typeId,
      kind: permitTypes.kind,
      typeName: permitTypes.name,
      validUntil: p.validUntil,
    })
    .from(p)
    .innerJoin(permitTypes, eq(permitTypes.id, p.typeId))
    .where(
      and(
        eq(p.operatorId, q.operatorId),
        isActive(p.status),
        sql`${p.plates} @> array[${plate}]::text[]`,
        sql`${p.zoneIds} @> array[${q.zoneId}]::int[]`,
        lte(p.validFrom, q.at),
        gt(p.validUntil, q.at),
      ),
    )
    .orderBy(asc(p.id));
}

/**
 * The permit that parks free at `atMs` by the policy: in a minute of no span (free for everyone)
 * the first; in a span, one whose rule there is exempt (or unnamed, or a rate of zero). Null when
 * every permit held is priced at a rate of its own there: the holder must pay a session.
 */
export function freePermitAt<P extends HeldPermit>(
  c: CompiledPolicy,
  timeZone: string,
  atMs: number,
  held: readonly P[],
): P | null {
  if (held.length === 0) return null;
  const idx = spanAt(c, localTimeAt(atMs, timeZone));
  if (idx < 0) return held[0]!;
  const span = c.spans[idx]!;
  for (const p of held) {
    const chosen = permitFor(span, [p]);
    if (!chosen || chosen.rate === null || chosen.rate.every((s) => s.CentsPerHour === 0)) return p;
  }
  return null;
}

/**
 * A body's permit types must be the operator's and not retired (400 naming the field, e.g.
 * Body.Spans.0.UserClasses.1.PermitTypeId). Another operator's type is refused as unknown.
 */
export async function checkPermitTypes(db: Executor, operatorId: number, body: PolicyBody): Promise<void> {
  const named = new Map<number, string[]>();
  body.Spans.forEach((s, i) =>
    s.UserClasses.forEach((c, k) => {
      if (c.PermitTypeId === undefined) return;
      const at = `Body.Spans.${i}.UserClasses.${k}.PermitTypeId`;
      named.set(c.PermitTypeId, [...(named.get(c.PermitTypeId) ?? []), at]);
    }),
  );
  if (named.size === 0) return;
  const ids = [...named.keys()];
  const found = await db
    .select({ id: permitTypes.id })
    .from(permitTypes)
    .where(and(eq(permitTypes.operatorId, operatorId), inArray(permitTypes.id, ids), isNull(permitTypes.retiredAt)))
    .for('share');
  const ok = new Set(found.map((r) => r.id));
  const errors = ids
    .filter((id) => !ok.has(id))
    .flatMap((id) => named.get(id)!.map((field) => ({ field, message: PRICING_MESSAGES.permitTypeUnknown })));
  if (errors.length > 0) throw new HttpError(400, PRICING_MESSAGES.permitTypeUnknown, errors);
}
