import { getTableName, sql, type GetColumnData, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';

/**
 * Column types whose JSON value is the value the drivers give for the column: integers, text and
 * booleans. Not timestamps (their JSON text is not the driver's), bigint, numeric nor json.
 */
const JSON_SAFE = new Set([
  'PgInteger',
  'PgSerial',
  'PgSmallInt',
  'PgSmallSerial',
  'PgText',
  'PgVarchar',
  'PgChar',
  'PgBoolean',
]);

export type JsonRow<T extends Record<string, PgColumn>> = { [K in keyof T]: GetColumnData<T[K]> };

/**
 * A row's columns as one value, a JSON object of them (json_build_object), for a statement of the
 * hot path that reads many columns. The drivers read a description of every column and
 * parse every column's value on each execution: for GET /api/Account/Details' 22 columns that was
 * more of the server's time than the rest of the statement (docs/decisions/008-one-json-value.md).
 * One JSON value is read with one JSON.parse. Only columns in JSON_SAFE: the object holds what the
 * columns would have held (a test compares them on both databases).
 *     db.select({ row: jsonRow({ id: t.id, name: t.name }) }).from(t)   // row: { id: number; name: string }
 */
export function jsonRow<T extends Record<string, PgColumn>>(columns: T): SQL<JsonRow<T>> {
  const pairs = Object.entries(columns).map(([key, column]) => {
    if (!JSON_SAFE.has(column.columnType))
      throw new Error(`jsonRow: ${key} is a ${column.columnType}, whose JSON value is not the driver's`);
    if (!/^\w+$/.test(key)) throw new Error(`jsonRow: ${key} is not a plain key`);
    // Named with its table: drizzle leaves a column in sql`` unqualified when the select reads one
    // table, which inside a subquery would name the subquery's own column.
    return sql`${sql.raw(`'${key}'`)}, ${sql.identifier(getTableName(column.table))}.${sql.identifier(column.name)}`;
  });
  // json_build_object takes at most 100 arguments.
  if (pairs.length === 0 || pairs.length > 50) throw new Error(`jsonRow: 1 to 50 columns, not ${pairs.length}`);
  return sql<JsonRow<T>>`json_build_object(${sql.join(pairs, sql`, `)})`;
}
