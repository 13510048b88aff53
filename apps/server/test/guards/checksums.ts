import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../../src/db/client.ts';

/** Counters that every request may move (rate limits, failed sign-ins): not "stored data". */
const VOLATILE = new Set(['rate_limits', 'auth_failures', '__drizzle_migrations']);

/** A checksum of every table's rows: equal before and after means nothing was written. */
export async function tableChecksums(db: Executor): Promise<Record<string, string>> {
  const tables = await queryRows<{ name: string }>(
    db,
    sql`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`,
  );
  const out: Record<string, string> = {};
  for (const { name } of tables) {
    if (VOLATILE.has(name)) continue;
    const [row] = await queryRows<{ sum: string }>(
      db,
      sql.raw(`SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS sum FROM "${name}" t`),
    );
    out[name] = row!.sum;
  }
  return out;
}
