import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client.ts';

/** Shares moved per statement: a fold's locks and its upserts stay short. */
export const FOLD_BATCH = 5_000;
/** At most this many batches a tick: a backlog is worked off over ticks, never in one long run. */
const MAX_BATCHES = 20;

/**
 * Moves the session shares the triggers appended (operator_rollup_deltas) into the hourly and
 * daily rollups, a batch per statement (fold_rollup_deltas, migration 0048), until none is left or
 * the tick's share is done. Readers read the totals views, which count a share whether it is
 * folded or not: a fold changes no figure (docs/reports.md#rollups). Returns the shares moved.
 */
export async function foldRollupDeltas(db: Db, batch = FOLD_BATCH): Promise<number> {
  let moved = 0;
  for (let i = 0; i < MAX_BATCHES; i++) {
    const [row] = await queryRows<{ n: number }>(db, sql`SELECT fold_rollup_deltas(${batch}::int) AS n`);
    const n = Number(row?.n ?? 0);
    moved += n;
    if (n < batch) break;
  }
  return moved;
}
