import type pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { testPostgres } from '../../test/support/test-database.ts';
import { openDatabase } from './client.ts';
import { poolOf } from '../lib/library-internals.ts';

// On the PostgreSQL server of the server-pg project (this file runs once, in the server project).
const scratch = await testPostgres('parkit_pgc');
const database = await openDatabase({ url: scratch.url, poolSize: 4 });
afterAll(async () => {
  await database.close();
  await scratch.drop();
});
const pool = poolOf(database.db);

/** A query config as drizzle sends it, behind a proxy that counts how often its own keys are listed. */
function watched(config: object) {
  const seen = { keys: 0 };
  const proxy = new Proxy(config, {
    ownKeys(target) {
      seen.keys++;
      return Reflect.ownKeys(target);
    },
  });
  return { proxy, seen };
}

describe("the database pool's client (pg copies no query config property by property)", () => {
  it('answers a named statement in array mode from a config it never lists or changes', async () => {
    const config = { name: 'pgc_pair', text: 'select $1::int as n, $2::text as t', rowMode: 'array' };
    const { proxy, seen } = watched(config);
    const first = await pool.query(proxy as pg.QueryConfig, [1, 'one']);
    const again = await pool.query(proxy as pg.QueryConfig, [2, "it's"]);
    expect(first.rows).toEqual([[1, 'one']]);
    expect(again.rows).toEqual([[2, "it's"]]);
    expect(seen.keys).toBe(0);
    expect(config).toEqual({ name: 'pgc_pair', text: 'select $1::int as n, $2::text as t', rowMode: 'array' });
  });

  it('keeps the values of one config used by many queries at once apart', async () => {
    const config = { name: 'pgc_echo', text: 'select $1::int as n, pg_sleep(0.01)' };
    const all = await Promise.all(Array.from({ length: 24 }, (_, i) => pool.query<{ n: number }>(config, [i])));
    expect(all.map((r) => r.rows[0]!.n)).toEqual(Array.from({ length: 24 }, (_, i) => i));
    expect(Object.keys(config)).toEqual(['name', 'text']);
  });

  it('answers with the error of a bad statement and keeps the connection usable', async () => {
    const bad = { name: 'pgc_bad', text: 'select $1::int / 0' };
    await expect(pool.query(bad, [1])).rejects.toThrow(/division by zero/);
    await expect(pool.query(bad, [2])).rejects.toThrow(/division by zero/);
    expect((await pool.query({ text: 'select 2 as two' })).rows).toEqual([{ two: 2 }]);
  });

  it('is the client of transactions too (drizzle on a checked-out connection)', async () => {
    const client = await pool.connect();
    try {
      const { proxy, seen } = watched({ text: 'select $1::text as v', rowMode: 'array' });
      await client.query('begin');
      expect((await client.query(proxy as pg.QueryConfig, ["'); drop table x; --"])).rows).toEqual([
        ["'); drop table x; --"],
      ]);
      await client.query('commit');
      expect(seen.keys).toBe(0);
    } finally {
      client.release();
    }
  });
});
