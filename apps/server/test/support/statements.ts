import type { Db } from '../../src/db/client.ts';

/** Records the text of every statement the app's database client runs (either driver), from now on. */
export function recordStatements(db: Db): string[] {
  const client = (db as unknown as { $client: { query: (...args: unknown[]) => unknown } }).$client;
  const seen: string[] = [];
  const original = client.query.bind(client);
  client.query = (...args: unknown[]) => {
    const q = args[0] as string | { text: string };
    seen.push(typeof q === 'string' ? q : q.text);
    return original(...args);
  };
  return seen;
}
