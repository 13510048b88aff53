/**
 * The concurrency helper: N requests at once, then the invariants that must hold
 * whatever order they ran in. Races show on PostgreSQL (`npx vitest run --project server-pg`);
 * PGlite is one connection and runs queries one after another, so there it only checks the result.
 *
 *     const results = await concurrently(50, (i) => as(app, alice, { method: 'POST', url: '/api/Wallet/AddMoney',
 *       headers: { 'idempotency-key': `k${i % 5}` }, payload: { Amount: 10 } }));
 *     expect(statusCounts(results)).toEqual({ 200: 50 });
 *     await expectInvariant(db, sql`SELECT balance_cents = (SELECT sum(amount_cents) FROM ledger_entries WHERE member_id = 1) AS ok FROM members WHERE id = 1`);
 */
import type { LightMyRequestResponse } from 'fastify';
import type { SQL } from 'drizzle-orm';
import { expect } from 'vitest';
import { queryRows, type Executor } from '../src/db/client.ts';

/**
 * Starts `n` calls of `request(i)` in the same tick (none waits for another) and resolves with
 * every result, in order of i. A rejected call fails the test with its index.
 */
export async function concurrently<T>(n: number, request: (i: number) => Promise<T>): Promise<T[]> {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const calls = Array.from({ length: n }, (_, i) =>
    gate
      .then(() => request(i))
      .catch((err: unknown) => {
        throw new Error(`concurrent call ${i} failed: ${err instanceof Error ? err.message : String(err)}`);
      }),
  );
  release();
  return Promise.all(calls);
}

/** How many responses had each status: `{ 200: 1, 429: 6 }`. */
export function statusCounts(responses: Pick<LightMyRequestResponse, 'statusCode'>[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const r of responses) counts[r.statusCode] = (counts[r.statusCode] ?? 0) + 1;
  return counts;
}

/** Every response is JSON (never HTML, never a 5xx). */
export function expectJsonNo5xx(responses: LightMyRequestResponse[]) {
  for (const r of responses) {
    expect(r.statusCode, r.body).toBeLessThan(500);
    expect(r.headers['content-type']).toMatch(/^application\/json/);
  }
}

/** One SQL row, one boolean column `ok`: the invariant after the burst. */
export async function expectInvariant(db: Executor, query: SQL, message = 'invariant'): Promise<void> {
  const rows = await queryRows<{ ok: boolean }>(db, query);
  expect(rows[0]?.ok, message).toBe(true);
}

/** The one number `query` selects (as `n`). */
export async function count(db: Executor, query: SQL): Promise<number> {
  const rows = await queryRows<{ n: number | string }>(db, query);
  return Number(rows[0]?.n ?? 0);
}
