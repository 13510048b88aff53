import { PGlite } from '@electric-sql/pglite';
import { afterAll, describe, expect, it } from 'vitest';
import { literal, REGISTER, TEXT_PARSERS, withNamedStatements } from './library-internals.ts';

const raw = await PGlite.create();
afterAll(() => raw.close());
const client = withNamedStatements(raw);
await raw.exec(`create table t (id int primary key, note text, ok boolean, amount numeric)`);
await raw.exec(`insert into t values (1, 'one', true, 1.5), (2, null, false, 2)`);

const prepared = async () =>
  (
    await raw.query<{ name: string; statement: string }>(
      'select name, statement from pg_prepared_statements order by name',
    )
  ).rows;

describe('PGlite named statements (prepared once with PREPARE, run with EXECUTE)', () => {
  it('answers a registered statement as the plain query does, and prepares it once', async () => {
    const text = 'select id, note, ok, amount from t where id = $1 or note = $2 order by id';
    const plain = await raw.query(text, [2, 'one'], { rowMode: 'array' });
    client[REGISTER](text);
    const first = await client.query(text, [2, 'one'], { rowMode: 'array' });
    const again = await client.query(text, [1, 'none'], { rowMode: 'array' });
    expect(first.rows).toEqual(plain.rows);
    expect(first.fields.map((f) => [f.name, f.dataTypeID])).toEqual(plain.fields.map((f) => [f.name, f.dataTypeID]));
    expect(again.rows).toEqual([[1, 'one', true, '1.5']]);
    expect((await prepared()).filter((p) => p.statement.includes(text))).toHaveLength(1);
  });

  it('leaves an unregistered statement alone', async () => {
    const before = (await prepared()).length;
    expect((await client.query('select note from t where id = $1', [1])).rows).toEqual([{ note: 'one' }]);
    expect((await prepared()).length).toBe(before);
  });

  it('passes hostile text through as data, never as SQL', async () => {
    const text = 'select $1::text as v';
    client[REGISTER](text);
    const hostile = ["'); drop table t; --", "a'b", 'back\\slash\\', "E'\\x41'", '$1', 'म्हणजे 🚗', ' ', ''];
    for (const v of hostile) expect((await client.query<{ v: string }>(text, [v])).rows[0]!.v).toBe(v);
    expect((await raw.query('select count(*)::int as n from t')).rows).toEqual([{ n: 2 }]);
  });

  it('keeps numbers, booleans and null exact', async () => {
    const text = 'select $1::int as i, $2::numeric as n, $3::boolean as b, $4::text as z, $5::float8 as f';
    client[REGISTER](text);
    const { rows } = await client.query(text, [-2147483648, 12.34, false, null, 1e-7]);
    expect(rows).toEqual([{ i: -2147483648, n: '12.34', b: false, z: null, f: 1e-7 }]);
  });

  it('runs a value it cannot write as a literal (an array, NaN, a NUL) as the plain query', async () => {
    const text = 'select $1::int[] as a';
    client[REGISTER](text);
    expect((await client.query(text, [[1, 2]])).rows).toEqual([{ a: [1, 2] }]);
    expect(literal(Number.NaN)).toBeUndefined();
    expect(literal('a\u0000b')).toBeUndefined();
    expect(literal({})).toBeUndefined();
  });

  it('falls back to the plain query when PostgreSQL cannot prepare the statement', async () => {
    const text = 'select $1 as untyped';
    client[REGISTER](text);
    expect((await client.query(text, ['x'])).rows).toEqual([{ untyped: 'x' }]);
    expect((await client.query(text, ['y'])).rows).toEqual([{ untyped: 'y' }]);
  });

  it('prepares once when many first calls arrive at once', async () => {
    const text = 'select id from t where id = $1';
    client[REGISTER](text);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => client.query<{ id: number }>(text, [(i % 2) + 1])),
    );
    expect(answers.map((a) => a.rows[0]!.id)).toEqual(Array.from({ length: 20 }, (_, i) => (i % 2) + 1));
    expect((await prepared()).filter((p) => p.statement.includes(text))).toHaveLength(1);
  });

  it('keeps a transaction on its own client (no named statement inside it)', async () => {
    const text = 'select note from t where id = $1 for update';
    client[REGISTER](text);
    const before = (await prepared()).length;
    await client.transaction(async (tx) => {
      expect((await tx.query(text, [1])).rows).toEqual([{ note: 'one' }]);
    });
    expect((await prepared()).length).toBe(before);
  });
});

describe("a query's parsers on PGlite (PGlite spreads them into its own on every call)", () => {
  const textParsers = { 1184: (v: string) => v, 1082: (v: string) => v };
  it('reads timestamps and dates as text, as drizzle asks, with the parsers set once on the database', async () => {
    const db = withNamedStatements(await PGlite.create({ parsers: TEXT_PARSERS }));
    const text = `select '2025-06-01 10:00:00+00'::timestamptz as at, '2025-06-01'::date as day`;
    const viaDrizzlesParsers = await db.query(text, [], { rowMode: 'array', parsers: textParsers });
    expect(viaDrizzlesParsers.rows).toEqual([['2025-06-01 10:00:00+00', '2025-06-01']]);
    await db.close();
  });

  it("still applies a query's own parser that is not one of the text parsers", async () => {
    const db = withNamedStatements(await PGlite.create({ parsers: TEXT_PARSERS }));
    const doubled = await db.query('select 21 as n', [], {
      rowMode: 'array',
      parsers: { 23: (v: string) => Number(v) * 2 },
    });
    expect(doubled.rows).toEqual([[42]]);
    // A parser for a text type that does something else is kept too.
    const dated = await db.query(`select '2025-06-01'::date as day`, [], {
      rowMode: 'array',
      parsers: { 1082: (v: string) => `day ${v}` },
    });
    expect(dated.rows).toEqual([['day 2025-06-01']]);
    await db.close();
  });
});
