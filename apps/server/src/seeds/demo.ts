import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.ts';
import { defaultOperatorId } from '../zones/index.ts';
import { seedDemoMember } from './demo-member.ts';
import { seedDemoOperatorOwner } from './demo-operator.ts';
import { seedDemoZones } from './demo-zones.ts';

/** First start outside production: the demo operator, its owner, the demo member and zones. Later starts do nothing. */
export async function seedDemo(db: Db, log: FastifyBaseLogger, zoneCount: number): Promise<void> {
  const operatorId = await defaultOperatorId(db);
  if (await seedDemoMember(db)) log.info('seeded the demo member');
  if (await seedDemoOperatorOwner(db, operatorId)) log.info("seeded the demo operator's owner");
  const zones = await seedDemoZones(db, operatorId, zoneCount);
  if (zones > 0) log.info({ zones }, 'seeded the demo zones');
}
