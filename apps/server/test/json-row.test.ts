import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { jsonRow } from '../src/db/json-row.ts';
import { members } from '../src/db/schema/index.ts';
import { defaultOperatorId } from '../src/zones/operator-repository.ts';
import { freshDatabase } from './helpers.ts';

// The hot statements read a row's columns as one JSON value (db/json-row.ts). The value
// must hold exactly what the columns hold, on both databases: text with quotes, backslashes,
// control characters, emoji and Devanagari; integers at their limits; booleans; nulls.
const database = await freshDatabase();
afterAll(() => database.close());
const { db } = database;
const operatorId = await defaultOperatorId(db);

const columns = {
  id: members.id,
  clientId: members.clientId,
  userName: members.userName,
  firstName: members.firstName,
  addressLine2: members.addressLine2,
  balanceCents: members.balanceCents,
  sessionVersion: members.sessionVersion,
  autoReload: members.walletAutoReload,
  defaultAddAmountCents: members.walletDefaultAddAmountCents,
  brand: members.defaultCardBrand,
};

const hostile = [
  `O'Brien "the \\ driver"`,
  'tab\tnew\nline\r\u0001\u001f end',
  'राहुल 🚗 ünïcödé \u2028\u2029',
  '</script><script>alert(1)</script>',
  '',
];

describe('jsonRow', () => {
  it('holds what the columns hold, value for value, nulls included', async () => {
    const ids: number[] = [];
    for (const [i, name] of hostile.entries()) {
      const [row] = await db
        .insert(members)
        .values({
          clientId: operatorId,
          userName: `json_${i}_${Date.now()}`,
          email: `json${i}.${Date.now()}@example.com`,
          phone: `512555${String(1000 + i)}`,
          passwordHash: 'x',
          firstName: name,
          addressLine2: name.split('').reverse().join(''),
          balanceCents: i === 0 ? 2_147_483_647 : i,
          sessionVersion: i,
        })
        .returning({ id: members.id });
      ids.push(row!.id);
    }
    // The kept wallet columns are written by triggers only; here, in SQL, for a row with values.
    await db.execute(
      sql`update members set wallet_auto_reload = true, wallet_default_add_amount_cents = 0, default_card_brand = ${hostile[0]} where id = ${ids[0]!}`,
    );

    const plain = await db.select(columns).from(members).where(inArray(members.id, ids)).orderBy(members.id);
    const json = await db
      .select({ id: members.id, row: jsonRow(columns) })
      .from(members)
      .where(inArray(members.id, ids))
      .orderBy(members.id);
    expect(plain).toHaveLength(hostile.length);
    expect(json.map((r) => r.row)).toEqual(plain);
    expect(plain[0]).toMatchObject({
      balanceCents: 2_147_483_647,
      autoReload: true,
      defaultAddAmountCents: 0,
      brand: hostile[0],
    });
    expect(plain[1]).toMatchObject({ autoReload: null, defaultAddAmountCents: null, brand: null });
  });

  it('is one column read as an object', async () => {
    const [first] = await db
      .select({ row: jsonRow({ id: members.id }) })
      .from(members)
      .where(eq(members.clientId, operatorId))
      .limit(1);
    expect(typeof first!.row).toBe('object');
    expect(Object.keys(first!.row)).toEqual(['id']);
  });

  it('names each column with its table, so that it means the same inside a subquery', () => {
    const { sql: text } = db
      .select({ row: jsonRow({ id: members.id }) })
      .from(members)
      .toSQL();
    expect(text).toContain(`json_build_object('id', "members"."id")`);
  });

  it('refuses columns whose JSON value is not what the driver gives', () => {
    expect(() => jsonRow({ createdAt: members.createdAt })).toThrow(/createdAt is a PgTimestamp/);
    expect(() => jsonRow({})).toThrow(/1 to 50 columns/);
    expect(() => jsonRow({ "x'); drop table members; --": members.id })).toThrow(/not a plain key/);
  });
});
