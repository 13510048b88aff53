import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.ts';
import { createKey, revokeKey } from '../../src/enforcement/index.ts';
import { defaultOperatorId } from '../../src/zones/index.ts';
import { buildTestApp, MANY_REQUESTS } from '../helpers.ts';
import { secondApp } from '../support/second-app.ts';
import { recordStatements } from '../support/statements.ts';

// An operator's API key is read once per process (enforcement/key-cache.ts): its later checks run
// the check's statement alone. A revocation still stops it at once in the process that revoked
// (operator-keys.test.ts, through the route) and in others once its notification arrives; with a
// process's LISTEN connection cut, that process reads the key again rather than trust its entry.
const { app: a, database } = await buildTestApp(MANY_REQUESTS, { decorations: true });
const operatorId = await defaultOperatorId(database.db);

const keyReads = (seen: string[]) => seen.filter((t) => /from "operator_api_keys"/.test(t)).length;
/** A key's check of a zone the operator does not have: 404 when the key opens it, 401 when not. */
const check = async (instance: FastifyInstance, key: string) =>
  (
    await instance.inject({
      method: 'GET',
      url: '/api/Enforcement/Check?zone=NOPE&plate=ABC123&state=TX',
      headers: { 'x-operator-key': key },
    })
  ).statusCode;
const seen = recordStatements(database.db);

describe('one process', () => {
  it('reads a key on its first check only; a look-alike of a cached key is still refused', async () => {
    const made = await createKey(database.db, operatorId, 'cached');
    seen.length = 0;
    expect(await check(a, made.key)).toBe(404);
    expect(keyReads(seen)).toBe(1);
    for (let i = 0; i < 3; i += 1) {
      seen.length = 0;
      expect(await check(a, made.key)).toBe(404);
      expect(keyReads(seen)).toBe(0);
      // The check's own statement still runs (and audits).
      expect(seen.length).toBeGreaterThan(0);
    }
    // The same prefix with another secret: the cached row's hash does not match it.
    const lookAlike = made.key.slice(0, -1) + (made.key.endsWith('A') ? 'B' : 'A');
    expect(await check(a, lookAlike)).toBe(401);
  });

  it('keeps a revoked key refused, and never caches a key that does not exist', async () => {
    const made = await createKey(database.db, operatorId, 'revoked first');
    expect(await revokeKey(database.db, operatorId, made.prefix)).toBe(true);
    a.operatorKeys.forget(made.prefix);
    // Revoked stays revoked: the cached row answers, with no read. On PostgreSQL the revocation's
    // own notification may still be on its way, and it voids a read begun before it arrives.
    await expect
      .poll(
        async () => {
          seen.length = 0;
          expect(await check(a, made.key)).toBe(401);
          return keyReads(seen);
        },
        { timeout: 2000, interval: 5 },
      )
      .toBe(0);
    const unknown = `pk_${'Z'.repeat(8)}${'A'.repeat(43)}`;
    for (let i = 0; i < 2; i += 1) {
      seen.length = 0;
      expect(await check(a, unknown)).toBe(401);
      expect(keyReads(seen)).toBe(1);
    }
  });
});

if (process.env.TEST_DB === 'postgres') {
  const { app: b, database: second } = await secondApp(database);
  const seenB = recordStatements(second.db);

  describe('two processes on one PostgreSQL database', () => {
    it('a key revoked on A is refused by B within a second, though B had it cached', async () => {
      const made = await createKey(database.db, operatorId, 'elsewhere');
      expect(await check(b, made.key)).toBe(404);
      seenB.length = 0;
      expect(await check(b, made.key)).toBe(404);
      expect(keyReads(seenB)).toBe(0);
      // Revoked through A's connection, with no word to B but the notification.
      expect(await revokeKey(database.db, operatorId, made.prefix)).toBe(true);
      const started = Date.now();
      await expect.poll(() => check(b, made.key), { timeout: 1000, interval: 5 }).toBe(401);
      console.log(`B refused the key ${Date.now() - started} ms after A revoked it`);
    });

    it('with B’s LISTEN connection cut, B reads the key again: no stale acceptance', async () => {
      const made = await createKey(database.db, operatorId, 'listen cut');
      expect(await check(b, made.key)).toBe(404);
      const before = b.notifications.generation;
      const name = (await queryRows<{ db: string }>(database.db, sql`select current_database() as db`))[0]!.db;
      await queryRows(
        database.db,
        sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${name} and query ilike 'LISTEN%'`,
      );
      await expect.poll(() => b.notifications.generation, { timeout: 5000, interval: 5 }).not.toBe(before);
      // The revocation's notification may be lost (B is not listening): B must not trust its entry.
      expect(await revokeKey(database.db, operatorId, made.prefix)).toBe(true);
      seenB.length = 0;
      expect(await check(b, made.key)).toBe(401);
      expect(keyReads(seenB)).toBe(1);
      await expect.poll(() => b.notifications.live, { timeout: 10_000 }).toBe(true);
    });
  });
}
