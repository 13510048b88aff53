import { desc, eq } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { outbox } from '../db/schema/index.ts';

/**
 * Messages to members go through the outbox table, in the transaction of what they tell. The SMS
 * job (infra/sms/) sends the texts when Twilio is configured; on the local demo the messages are
 * read at GET /api/Dev/Outbox. Never logged: they hold codes.
 */
export async function enqueue(db: Executor, channel: 'sms' | 'email', recipient: string, body: string) {
  await db.insert(outbox).values({ channel, recipient, body });
}

export async function latest(db: Executor, opts: { to?: string | undefined; limit: number }) {
  const q = db.select().from(outbox);
  const rows = await (opts.to ? q.where(eq(outbox.recipient, opts.to)) : q).orderBy(desc(outbox.id)).limit(opts.limit);
  return rows;
}
