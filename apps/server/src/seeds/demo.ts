import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.ts';
import { defaultOperatorId } from '../zones/index.ts';
import type { Config } from '../config.ts';
import { sandboxProvider } from '../wallet/index.ts';
import { seedDemoHistory, type SandboxCards } from './demo-history.ts';
import { seedDemoMember } from './demo-member.ts';
import { seedDemoOperatorOwner } from './demo-operator.ts';
import { seedDemoZones } from './demo-zones.ts';

/**
 * First start outside production: the demo operator, its owner, the demo member and zones, then the
 * member's history (a card when `cards`, the sandbox provider's tokenizer, is given). Later starts
 * do nothing.
 */
export async function seedDemo(
  db: Db,
  log: FastifyBaseLogger,
  zoneCount: number,
  cards: SandboxCards | null = null,
): Promise<void> {
  const operatorId = await defaultOperatorId(db);
  if (await seedDemoMember(db)) log.info('seeded the demo member');
  if (await seedDemoOperatorOwner(db, operatorId)) log.info("seeded the demo operator's owner");
  const zones = await seedDemoZones(db, operatorId, zoneCount);
  if (zones > 0) log.info({ zones }, 'seeded the demo zones');
  if (await seedDemoHistory(db, cards)) log.info("seeded the demo member's history");
}

/**
 * The demo's card is a sandbox card, tokenized as the wallet's sandbox provider does (the same
 * secret), so Add Money takes it; under Stripe no card is seeded.
 */
export function demoCards(
  config: Pick<Config, 'JWT_SECRET' | 'STRIPE_SECRET_KEY' | 'STRIPE_PUBLISHABLE_KEY'>,
): SandboxCards | null {
  return config.STRIPE_SECRET_KEY && config.STRIPE_PUBLISHABLE_KEY ? null : sandboxProvider(config.JWT_SECRET);
}
