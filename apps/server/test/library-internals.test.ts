import { and, eq, sql } from 'drizzle-orm';
import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { namedStatement, queryRows, type Executor } from '../src/db/client.ts';
import { preparedPerDatabase } from '../src/db/prepared.ts';
import {
  Client,
  helmetHeaders,
  namedQueryRows,
  poolOf,
  REGISTER,
  sessionOf,
  TEXT_PARSERS,
  type NamedClient,
} from '../src/lib/library-internals.ts';
import { apiAnswerHeaders } from '../src/plugins/external/security.ts';
import { freshDatabase } from './helpers.ts';

// One test per library internal the speed layer relies on (src/lib/library-internals.ts, numbered
// as there): a library upgrade that breaks one fails here, not in production. On PGlite and on
// PostgreSQL (the server and server-pg projects); what concerns one driver only runs on it.
const database = await freshDatabase();
afterAll(() => database.close());
const { db, driver } = database;
const probe = pgTable('lib_internals_probe', {
  id: integer('id').primaryKey(),
  note: text('note'),
  at: timestamp('at', { withTimezone: true, mode: 'string' }),
});
await db.execute(sql`CREATE TABLE lib_internals_probe (id int PRIMARY KEY, note text, at timestamptz)`);
await db.execute(sql`INSERT INTO lib_internals_probe VALUES (1, 'one', '2026-11-27 10:00:00+00'), (2, 'two', NULL)`);

/** The named statements of the connection `on` runs on (PostgreSQL lists the protocol's too). */
const preparedNames = async (on: Executor) =>
  (
    await queryRows<{ name: string; statement: string }>(
      on,
      sql`SELECT name, statement FROM pg_prepared_statements ORDER BY name`,
    )
  ).map((r) => r);

describe(`library internals (${driver})`, () => {
  it("1. drizzle keeps the session in `session`; its prepareQuery runs a named statement, on a transaction's connection too", async () => {
    expect(typeof sessionOf(db).prepareQuery).toBe('function');
    expect(await namedQueryRows(db, 'lib_int_one', sql`SELECT note FROM lib_internals_probe WHERE id = ${1}`)).toEqual([
      { note: 'one' },
    ]);
    await db.transaction(async (tx) => {
      expect(typeof sessionOf(tx).prepareQuery).toBe('function');
      // A setting local to this transaction: the statement sees it only on the transaction's connection.
      await tx.execute(sql`SELECT set_config('parkit.probe', 'in-tx', true)`);
      const rows = await namedQueryRows<{ v: string }>(
        tx,
        'lib_int_tx',
        sql`SELECT current_setting('parkit.probe', true) AS v, ${2}::int AS n`,
      );
      expect(rows).toEqual([{ v: 'in-tx', n: 2 }]);
      // PostgreSQL: sent under its name (PGlite ignores the name: its protocol path has none).
      if (driver === 'postgres') expect((await preparedNames(tx)).map((p) => p.name)).toContain('lib_int_tx');
    });
  });

  it("1. drizzle's prepareQuery(...).execute(values) fills the placeholders of a query built once (namedStatement)", async () => {
    const byNote = namedStatement<{ note: string; at: string }>('lib_int_placeholders', (p, on) =>
      on
        .select({ id: probe.id })
        .from(probe)
        .where(and(eq(probe.note, p('note')), sql`${probe.at} = ${p('at')}::timestamptz`))
        .getSQL(),
    );
    const at = '2026-11-27T10:00:00.000Z';
    expect(await byNote(db, { note: 'one', at })).toEqual([{ id: 1 }]);
    // Built once: the second call's values, not the first's.
    expect(await byNote(db, { note: 'two', at })).toEqual([]);
    expect(await byNote(db, { note: 'one', at: '2026-11-27T10:00:01.000Z' })).toEqual([]);
    await expect(byNote(db, { note: 'one' } as never)).rejects.toThrow(/No value for placeholder "at"/);
  });
  it("2. drizzle's prepared statement keeps its SQL in `queryString` (and, on PGlite, our client in `client`)", async () => {
    const find = preparedPerDatabase((on) =>
      on
        .select({ note: probe.note })
        .from(probe)
        .where(sql`${probe.id} = ${sql.placeholder('id')}`)
        .prepare('lib_int_find'),
    );
    const statement = find(db) as unknown as { queryString?: unknown; client?: unknown };
    expect(typeof statement.queryString).toBe('string');
    expect(statement.queryString).toMatch(/from "lib_internals_probe"/);
    expect(await find(db).execute({ id: 2 })).toEqual([{ note: 'two' }]);
    if (driver === 'pglite') {
      // Our client learnt the SQL and prepared it with PREPARE once.
      expect(typeof (statement.client as Partial<NamedClient>)[REGISTER]).toBe('function');
      const ours = (await preparedNames(db)).filter((p) => p.statement.includes(statement.queryString as string));
      expect(ours.map((p) => p.name)).toEqual([expect.stringMatching(/^parkit_stmt_\d+$/)]);
    }
  });

  if (driver === 'pglite') {
    it("3. drizzle's PGlite session sends client.query(text, params, options) with parsers only for the types read as text", async () => {
      const client = poolOf(db) as unknown as NamedClient;
      const seen: unknown[] = [];
      const query = client.query;
      client.query = ((
        text: string,
        params?: unknown[],
        options?: { parsers?: Record<number, (v: string) => unknown> },
      ) => {
        seen.push(options);
        return query(text, params, options);
      }) as typeof client.query;
      try {
        expect(
          await db
            .select({ at: probe.at })
            .from(probe)
            .where(sql`${probe.id} = 1`),
        ).toEqual([{ at: '2026-11-27 10:00:00+00' }]);
      } finally {
        client.query = query;
      }
      expect(seen).toHaveLength(1);
      const parsers = (seen[0] as { rowMode?: string; parsers?: Record<string, (v: string) => unknown> }).parsers ?? {};
      expect(Object.keys(parsers).length).toBeGreaterThan(0);
      // Every one of them is a type TEXT_PARSERS reads as text (else each query pays PGlite's merge).
      for (const [type, parse] of Object.entries(parsers)) {
        expect(Object.keys(TEXT_PARSERS), `type ${type}`).toContain(type);
        expect(parse('2025-01-01 00:00:00+00')).toBe('2025-01-01 00:00:00+00');
      }
    });

    it('4. PGlite prepares with PREPARE, runs with EXECUTE, and reads the types of TEXT_PARSERS as text when told so at create', async () => {
      const client = poolOf(db) as unknown as NamedClient;
      await client.query('PREPARE lib_int_four AS SELECT $1::int + 1 AS n, $2::timestamptz AS at');
      const { rows } = await client.query(`EXECUTE lib_int_four('41', '2026-11-27 10:00:00+00')`);
      expect(rows).toEqual([{ n: 42, at: '2026-11-27 10:00:00+00' }]);
      await client.query('DEALLOCATE lib_int_four');
    });
  }

  if (driver === 'postgres') {
    it('5. pg still copies a query config before using it (else Client is no longer needed: remove it)', async () => {
      const pool = poolOf(db);
      const plain = new pg.Client({
        connectionString: (pool as unknown as { options: { connectionString: string } }).options.connectionString,
      });
      await plain.connect();
      try {
        let listed = 0;
        const config = new Proxy(
          { text: 'SELECT $1::int AS n' },
          {
            ownKeys(target) {
              listed++;
              return Reflect.ownKeys(target);
            },
          },
        );
        expect((await plain.query<{ n: number }>(config, [7])).rows).toEqual([{ n: 7 }]);
        expect(listed, 'pg no longer copies a query config: remove Client (lib/library-internals.ts)').toBeGreaterThan(
          0,
        );
      } finally {
        await plain.end();
      }
    });

    it('5. pg accepts a config it inherits (our Client): name, text and rowMode are read through the prototype', async () => {
      expect(pool().options.Client).toBe(Client);
      const answer = await pool().query(
        { name: 'lib_int_five', text: 'SELECT $1::text AS t, 2 AS two', rowMode: 'array' },
        ['x'],
      );
      expect(answer.rows).toEqual([['x', 2]]);
    });

    it("7. drizzle's node-postgres database keeps its pg Pool in `$client`", () => {
      expect(pool()).toBeInstanceOf(pg.Pool);
    });
  } else {
    it("7. drizzle's PGlite database keeps our client in `$client`", () => {
      expect(typeof (poolOf(db) as unknown as NamedClient)[REGISTER]).toBe('function');
    });
  }

  it('6. helmet sets its headers at once with setHeader/removeHeader, reading nothing of the request: the set security.ts harvests', () => {
    const headers = helmetHeaders({
      contentSecurityPolicy: { directives: { defaultSrc: ["'self'"] } },
      crossOriginEmbedderPolicy: false,
      frameguard: false,
    });
    expect(Object.keys(headers).sort()).toEqual([
      'content-security-policy',
      'cross-origin-opener-policy',
      'cross-origin-resource-policy',
      'origin-agent-cluster',
      'referrer-policy',
      'strict-transport-security',
      'x-content-type-options',
      'x-dns-prefetch-control',
      'x-download-options',
      'x-permitted-cross-domain-policies',
      'x-xss-protection',
    ]);
    expect(headers['content-security-policy']).toMatch(/^default-src 'self'/);
    // Every header an API answer keeps of helmet's is there to keep.
    const api = apiAnswerHeaders(headers);
    for (const name of [
      'strict-transport-security',
      'x-content-type-options',
      'cross-origin-resource-policy',
      'referrer-policy',
    ])
      expect(api[name], name).toBe(headers[name]);
  });

  it('drizzle answers execute() with { rows } on this driver (the cast in queryRows, db/client.ts)', async () => {
    expect(await queryRows<{ id: number }>(db, sql`SELECT id FROM lib_internals_probe ORDER BY id`)).toEqual([
      { id: 1 },
      { id: 2 },
    ]);
  });
});

function pool(): pg.Pool & { options: { Client?: unknown } } {
  return poolOf(db) as pg.Pool & { options: { Client?: unknown } };
}
