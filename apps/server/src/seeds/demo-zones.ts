import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { austinZonePoolSize, generateAustinZones, type ZoneSeed } from './austin-zones.ts';
import { toStoredHours, countForOperator, insertZones, type NewZone } from '../zones/index.ts';

const BATCH = 500;

export function seedToZone(s: ZoneSeed): NewZone {
  const hours = toStoredHours(s.paidFrom, s.paidUntil);
  if (!hours) throw new Error(`demo zone ${s.zoneNumber} has bad paid hours ${s.paidFrom}-${s.paidUntil}`);
  const { paidFrom: _from, paidUntil: _until, ...rest } = s;
  return { ...rest, paidDays: [...s.paidDays], ...hours };
}

/**
 * First start: the demo operator's Austin zones, in one transaction, only when the
 * operator has none, so a restart, a second replica or an operator's own import is left alone.
 * Returns how many were inserted. The count is capped at what the generator can make.
 */
export async function seedDemoZones(db: Db, operatorId: number, count: number): Promise<number> {
  if (count <= 0 || (await countForOperator(db, operatorId)) > 0) return 0;
  const zones = generateAustinZones(Math.min(count, austinZonePoolSize())).map(seedToZone);
  return db.transaction(async (tx) => {
    // Two processes starting on one database: the second waits here, then finds the zones.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('parkit.seed-demo-zones'))`);
    if ((await countForOperator(tx, operatorId)) > 0) return 0;
    for (let i = 0; i < zones.length; i += BATCH) await insertZones(tx, operatorId, zones.slice(i, i + BATCH));
    return zones.length;
  });
}
