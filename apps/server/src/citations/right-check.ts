import { and, desc, eq, gt, lte, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { parkingSessions } from '../db/schema/index.ts';

/** A right to park that covers a plate at a moment: what it is, its id and when it ends. */
export interface RightToPark {
  kind: 'session';
  id: number;
  endsAt: Date;
}

/**
 * Does a right to park cover this plate in this zone at this moment? (issue 30.) For now only paid
 * sessions (members' and Quick Park's), compared the way the officers' plate check compares plates
 * (enforcement/check-repository.ts: upper case, no spaces, dots or dashes, on both sides); the
 * permits work brings the one function that knows every right (enforcement/rights.ts), and this
 * body is replaced by it. Called inside the citation's transaction, after the (zone, plate) lock.
 */
export async function rightToPark(
  db: Executor,
  q: { zoneId: number; plate: string; at: Date },
): Promise<RightToPark | null> {
  const s = parkingSessions;
  const plate = q.plate.toUpperCase().replace(/[\s\-.·]/g, '');
  const [row] = await db
    .select({ id: s.id, endsAt: s.endsAt })
    .from(s)
    .where(
      and(
        eq(s.zoneId, q.zoneId),
        eq(s.status, 'active'),
        lte(s.startedAt, q.at),
        gt(s.endsAt, q.at),
        sql`regexp_replace(upper(${s.plate}), '[[:space:].·-]', '', 'g') = ${plate}`,
      ),
    )
    .orderBy(desc(s.endsAt))
    .limit(1);
  return row ? { kind: 'session', id: row.id, endsAt: row.endsAt } : null;
}
