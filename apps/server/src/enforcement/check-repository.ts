import { and, desc, eq, gt, lte, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { enforcementChecks, operatorApiKeys, parkingSessions, zones, type CheckOutcome } from '../db/schema/index.ts';

export interface CheckResult {
  zoneFound: boolean;
  address: string;
  sessionId: number | null;
  endsAt: Date | null;
}

/**
 * Is this plate paid in this zone of this operator right now? Only the operator's own zones are
 * looked at, so another operator's sessions are invisible. Plates compare normalised (upper case,
 * no spaces, dashes or dots) on both sides: as the driver saved it and as the officer typed it.
 */
export async function checkPlate(
  db: Executor,
  operatorId: number,
  zoneNumber: string,
  plate: string,
  plateState: string,
): Promise<CheckResult> {
  const [zone] = await db
    .select({ id: zones.id, address: zones.address })
    .from(zones)
    .where(and(eq(zones.operatorId, operatorId), sql`upper(${zones.zoneNumber}) = upper(${zoneNumber})`))
    .limit(1);
  if (!zone) return { zoneFound: false, address: '', sessionId: null, endsAt: null };
  const s = parkingSessions;
  const [session] = await db
    .select({ id: s.id, endsAt: s.endsAt })
    .from(s)
    .where(
      and(
        eq(s.zoneId, zone.id),
        eq(s.operatorId, operatorId),
        eq(s.status, 'active'),
        gt(s.endsAt, sql`now()`),
        lte(s.startedAt, sql`now()`),
        eq(s.plateState, plateState),
        sql`regexp_replace(upper(${s.plate}), '[[:space:].·-]', '', 'g') = ${plate}`,
      ),
    )
    .orderBy(desc(s.endsAt))
    .limit(1);
  return { zoneFound: true, address: zone.address, sessionId: session?.id ?? null, endsAt: session?.endsAt ?? null };
}

export type { CheckOutcome };

export interface AuditEntry {
  /** The key row the presented key matched (live or revoked), else null. */
  keyId: number | null;
  operatorId: number | null;
  /** presentedPrefix(): never the whole presented key. */
  keyPrefix: string | null;
  clientAddress: string;
  zoneNumber: string;
  plate: string;
  plateState: string;
  outcome: CheckOutcome;
  /** The answer given; null when refused. */
  paid: boolean | null;
  sessionId: number | null;
  address: string;
}

/**
 * The audit (issue 12): who (key, operator, key prefix, client address), when, what (zone, plate,
 * state) and the outcome, for answers and refusals alike. An answer also marks the key as used.
 */
export async function audit(db: Executor, e: AuditEntry): Promise<void> {
  await db.insert(enforcementChecks).values(e);
  if (e.keyId !== null && e.paid !== null)
    await db.update(operatorApiKeys).set({ lastUsedAt: new Date() }).where(eq(operatorApiKeys.id, e.keyId));
}
