import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/client.ts';

/**
 * The request counts of the rate limit (plugins/rate-limit.ts), kept per process and shared
 * through the database table rate_limits (every process counts together).
 *
 * A request is counted in memory at once (no round trip: issue 9). Every FLUSH_MS the process adds
 * what it counted since the last flush to the shared rows and reads back their totals, all in one
 * statement. A count is then "every process's hits up to our last flush, plus ours since": exact
 * within one process, and another process's hits are seen at most one flush late, so N processes
 * may let through up to N-1 flush intervals' worth of one member's requests more than the limit.
 */
export const FLUSH_MS = 250;

interface Entry {
  bucket: string;
  key: string;
  /** The fixed window, in ms since the epoch: [start, end). */
  start: number;
  end: number;
  /** The shared total as of our last flush (ours included). */
  shared: number;
  /** Counted here since, not yet sent; and being sent now. */
  pending: number;
  sending: number;
  /** Flushes since the last hit: for QUIET_READS of them the shared total is still read back. */
  quiet: number;
}

/**
 * After its last hit here, a window's shared total is read for this many more flushes (about 2 s),
 * so a process that goes on counting a member soon after has learnt the other processes' hits.
 */
const QUIET_READS = 8;

interface FlushedRow {
  bucket: string;
  key: string;
  start_ms: number;
  count: number;
}

const id = (bucket: string, key: string, start: number) => `${bucket}\n${key}\n${start}`;

export class SharedCounts {
  private readonly entries = new Map<string, Entry>();
  private flushing: Promise<void> = Promise.resolve();

  constructor(private readonly db: Executor) {}

  /** Counts one hit of `key` in `bucket`'s window of windowMs now; the count so far and when the window ends. */
  hit(bucket: string, key: string, windowMs: number, now = Date.now()): { count: number; end: number } {
    const start = Math.floor(now / windowMs) * windowMs;
    const k = id(bucket, key, start);
    let e = this.entries.get(k);
    if (!e) {
      e = { bucket, key, start, end: start + windowMs, shared: 0, pending: 0, sending: 0, quiet: 0 };
      this.entries.set(k, e);
    }
    e.pending += 1;
    e.quiet = 0;
    return { count: e.shared + e.sending + e.pending, end: e.end };
  }

  /**
   * Sends what was counted since the last flush and learns every process's totals (of the windows
   * counted here lately), in one statement; windows that are over are forgotten. Flushes run one
   * after the other.
   */
  flush(): Promise<void> {
    const run = this.flushing.then(() => this.send(Date.now()));
    this.flushing = run.catch(() => undefined);
    return run;
  }

  private async send(now: number): Promise<void> {
    const batch: Entry[] = [];
    const read: Entry[] = [];
    for (const [k, e] of this.entries) {
      if (e.end <= now && e.pending === 0) {
        this.entries.delete(k);
      } else if (e.pending > 0) {
        e.sending = e.pending;
        e.pending = 0;
        batch.push(e);
      } else if (e.quiet < QUIET_READS) {
        e.quiet += 1;
        read.push(e);
      }
    }
    if (batch.length === 0 && read.length === 0) return;
    const json = JSON.stringify([...batch, ...read].map((e) => ({ b: e.bucket, k: e.key, s: e.start, n: e.sending })));
    let rows: FlushedRow[];
    try {
      rows = await queryRows<FlushedRow>(
        this.db,
        sql`
        WITH r AS (
          SELECT r.b, r.k, timestamptz 'epoch' + r.s * interval '1 millisecond' AS w, r.n
          FROM json_to_recordset(${json}::json) AS r(b text, k text, s float8, n int)),
        sent AS (
          INSERT INTO rate_limits (bucket, key, window_start, count)
          SELECT b, k, w, n FROM r WHERE n > 0
          ON CONFLICT (bucket, key, window_start) DO UPDATE SET count = rate_limits.count + excluded.count
          RETURNING bucket, key, window_start, count)
        SELECT bucket, key, (extract(epoch FROM window_start) * 1000)::float8 AS start_ms, count FROM sent
        UNION ALL
        SELECT t.bucket, t.key, (extract(epoch FROM t.window_start) * 1000)::float8, t.count
        FROM r JOIN rate_limits t ON t.bucket = r.b AND t.key = r.k AND t.window_start = r.w
        WHERE r.n = 0`,
      );
    } catch (err) {
      // Not sent: counted again with the next flush.
      for (const e of batch) {
        e.pending += e.sending;
        e.sending = 0;
      }
      throw err;
    }
    for (const r of rows) {
      const e = this.entries.get(id(r.bucket, r.key, Number(r.start_ms)));
      if (e) e.shared = Number(r.count);
    }
    for (const e of batch) e.sending = 0;
  }

  /** How many windows are held in memory (tests). */
  get size(): number {
    return this.entries.size;
  }
}
