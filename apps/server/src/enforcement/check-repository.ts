import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { operators, zones, type CheckOutcome } from '../db/schema/index.ts';
import { RIGHT_ZONE_COLUMNS, rightInZone, type ParkingRight } from './rights.ts';

export interface CheckResult {
  zoneFound: boolean;
  address: string;
  /** The right that covers the plate now (rights.ts), or null. */
  right: ParkingRight | null;
}

/**
 * Does a right cover this plate in this zone of this operator right now? Only the operator's own
 * zones are looked at, so another operator's sessions and permits are invisible. The rights are
 * rights.ts's, the one place that knows them all.
 */
export async function checkPlate(
  db: Executor,
  operatorId: number,
  zoneNumber: string,
  plate: string,
  plateState: string,
  at: Date = new Date(),
): Promise<CheckResult> {
  const [zone] = await db
    .select({ ...RIGHT_ZONE_COLUMNS, address: zones.address })
    .from(zones)
    .innerJoin(operators, eq(operators.id, zones.operatorId))
    .where(and(eq(zones.operatorId, operatorId), sql`upper(${zones.zoneNumber}) = upper(${zoneNumber})`))
    .limit(1);
  if (!zone) return { zoneFound: false, address: '', right: null };
  const right = await rightInZone(db, zone, { zoneId: zone.id, plate, at, plateState });
  return { zoneFound: true, address: zone.address, right };
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
 * The audit: who (key, operator, key prefix, client address), when, what (zone, plate,
 * state) and the outcome, for answers and refusals alike. An answer also marks the key as used (at
 * most once a minute: a check a second need not write the key's row each time), in the same
 * statement as the audit row: one round trip and one commit per check.
 */
export async function audit(db: Executor, e: AuditEntry): Promise<void> {
  const markKey = e.keyId !== null && e.paid !== null;
  await db.execute(
    sql`with entry as (
          insert into enforcement_checks (key_id, operator_id, key_prefix, client_address, zone_number, plate,
                                          plate_state, outcome, paid, session_id, address)
          values (${e.keyId}, ${e.operatorId}, ${e.keyPrefix}, ${e.clientAddress}, ${e.zoneNumber}, ${e.plate},
                  ${e.plateState}, ${e.outcome}, ${e.paid}, ${e.sessionId}, ${e.address}))
        update operator_api_keys set last_used_at = now()
        where ${markKey} and id = ${e.keyId}
          and (last_used_at is null or last_used_at < now() - interval '1 minute')`,
  );
}
