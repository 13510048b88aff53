import { eq } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { supportAgents } from '../db/schema/index.ts';

export async function isAgent(db: Executor, memberId: number): Promise<boolean> {
  const rows = await db
    .select({ m: supportAgents.memberId })
    .from(supportAgents)
    .where(eq(supportAgents.memberId, memberId))
    .limit(1);
  return rows.length > 0;
}

export async function grant(db: Executor, memberId: number): Promise<void> {
  await db.insert(supportAgents).values({ memberId }).onConflictDoNothing();
}
