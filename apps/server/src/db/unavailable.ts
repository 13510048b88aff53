/**
 * The database is away for a moment (docs/cluster.md#settings): its
 * connection dropped, it is shutting down or starting, or the server reached is read-only (a
 * primary that just became a replica). Such a request is answered 503 with Retry-After, never 500.
 * Mostly nothing was committed (a transaction that lost its connection is rolled back); when the
 * connection died during COMMIT the outcome is in doubt. Either way the client sends it again, with
 * the same Idempotency-Key for money, which applies once or replays the committed answer.
 */

/** SQLSTATEs: admin_shutdown, crash_shutdown, cannot_connect_now, read_only_sql_transaction; class 08 is every connection exception. */
const CODES = new Set(['57P01', '57P02', '57P03', '25006']);
/** Socket errors (Node's codes) on the way to the database. */
const NETWORK = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH']);
/** node-postgres's own errors carry no code, only these messages. */
const PG_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Query read timeout',
  'Client was closed and is not queryable',
];

/** Seconds the client waits before it tries again: about one failover (Patroni's ttl). */
export const RETRY_AFTER_SECONDS = 5;

/** True for an error (or its cause: drizzle wraps the driver's error) that says the database is unreachable for now. */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (CODES.has(code) || code.startsWith('08') || NETWORK.has(code))) return true;
    if (PG_MESSAGES.some((m) => e instanceof Error && e.message.startsWith(m))) return true;
  }
  return false;
}

/**
 * A read that wants the primary's answer but may take a replica's while the primary is away (a
 * failover): a signed-in member's session check and operator on a read
 * (docs/data-access.md#reads-on-replicas). Without replicas (`replica` is `primary`) the error stands.
 */
export async function primaryElseReplica<D, T>(primary: D, replica: D, read: (db: D) => Promise<T>): Promise<T> {
  try {
    return await read(primary);
  } catch (err) {
    if (replica === primary || !isDatabaseUnavailable(err)) throw err;
    return read(replica);
  }
}
