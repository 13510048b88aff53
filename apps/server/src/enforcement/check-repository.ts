import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../db/client.ts';
import { enforcementChecks, operatorApiKeys, type CheckOutcome } from '../db/schema/index.ts';
import { eq } from 'drizzle-orm';

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
export async function checkPlate(db: Executor, operatorId: number, zoneNumber: string, plate: string, plateState: string): Promise<CheckResult> {
  const [zone] = await queryRows<{ id: number; address: string }>(db, sql`
    SELECT id, address FROM zones WHERE operator_id = ${operatorId} AND upper(zone_number) = upper(${zoneNumber}) LIMIT 1`);
  if (!zone) return { zoneFound: false, address: '', sessionId: null, endsAt: null };
  const [session] = await queryRows<{ id: number; ends_at: Date | string }>(db, sql`
    SELECT id, ends_at FROM parking_sessions
    WHERE zone_id = ${zone.id} AND operator_id = ${operatorId}
      AND status = 'active' AND ends_at > now() AND started_at <= now()
      AND plate_state = ${plateState}
      AND regexp_replace(upper(plate), '[[:space:].·-]', '', 'g') = ${plate}
    ORDER BY ends_at DESC
    LIMIT 1`);
  return { zoneFound: true, address: zone.address, sessionId: session?.id ?? null, endsAt: session ? new Date(session.ends_at) : null };
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
  if (e.keyId !== null && e.paid !== null) await db.update(operatorApiKeys).set({ lastUsedAt: new Date() }).where(eq(operatorApiKeys.id, e.keyId));
}
