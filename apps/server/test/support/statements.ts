import type { Db } from '../../src/db/client.ts';

/** The rate limiter's flush, which runs on a timer (plugins/rate-limit.ts) and so may fall inside any request. */
const TIMER_FLUSH = /INSERT INTO rate_limits/;

/**
 * Records the text of every statement the app's database client runs (either driver), from now on,
 * except the rate limiter's timed flush.
 */
export function recordStatements(db: Db): string[] {
  const client = (db as unknown as { $client: { query: (...args: unknown[]) => unknown } }).$client;
  const seen: string[] = [];
  const original = client.query.bind(client);
  client.query = (...args: unknown[]) => {
    const q = args[0] as string | { text: string };
    const text = typeof q === 'string' ? q : q.text;
    if (!TIMER_FLUSH.test(text)) seen.push(text);
    return original(...args);
  };
  return seen;
}
