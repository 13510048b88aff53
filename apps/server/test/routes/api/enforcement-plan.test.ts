import { fillPlaceholders, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { afterAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../src/db/client.ts';
import { checkStatementQuery, type CheckValues } from '../../../src/enforcement/check-repository.ts';
import { freshDatabase } from '../../helpers.ts';
import { planNodes, type PlanNode } from '../../support/query-plan.ts';

/**
 * Issue 30, "plate checks stay fast": the check's one statement is a named prepared statement
 * (check-repository.ts), which PostgreSQL plans once, generically, when that plan is as good as
 * planning each execution anew. Its generic plan must read the plate's live sessions through a
 * partial index on active sessions (not an operator's million sessions, as it did); that needs
 * `status = 'active'` in the statement's text (db/partial-index.ts), not a parameter. Planned generically (plan_cache_mode) with scans
 * priced out, on both databases; `npm run bench -- enforcement` measures it at 1M sessions.
 */
const database = await freshDatabase();
afterAll(() => database.close());
const { db } = database;

const literal = (v: unknown): string => {
  if (v === null) return 'NULL';
  if (typeof v === 'number') return String(v);
  if (typeof v === 'string') return `'${v.replaceAll("'", "''")}'`;
  throw new Error(`a parameter of an unexpected type: ${typeof v}`);
};

/** The key's check (a zone by number) or the officer's page's (by id, GET /api/Operator/{id}/Check). */
const ASKS = {
  key: { keyId: 1, memberId: null, keyPrefix: 'pk_plan', zone: '7401' },
  officer: { keyId: null, memberId: 1, keyPrefix: null, zone: 1 },
};

async function genericPlan(who: keyof typeof ASKS): Promise<PlanNode> {
  const values: CheckValues = {
    ...ASKS[who],
    operatorId: 1,
    clientAddress: '127.0.0.1',
    plate: 'ABC123',
    plateState: 'TX',
    at: new Date().toISOString(),
  };
  const query = new PgDialect().sqlToQuery(checkStatementQuery(db, who === 'key', (n) => sql.placeholder(n)));
  const text = query.sql;
  const params = fillPlaceholders(query.params, values);
  return db.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL plan_cache_mode = force_generic_plan`);
    await tx.execute(sql`SET LOCAL enable_seqscan = off`);
    // Left prepared on its connection: this file's own database, closed after it.
    await tx.execute(sql.raw(`PREPARE enforcement_check_plan_${who} AS ${text}`));
    // EXECUTE's arguments as literals: a utility statement takes no bound parameters.
    const args = sql.raw(params.map(literal).join(', '));
    const [row] = await queryRows<Record<string, unknown>>(
      tx,
      sql`EXPLAIN (FORMAT JSON) EXECUTE ${sql.raw(`enforcement_check_plan_${who}`)}(${args})`,
    );
    const value = Object.values(row!)[0];
    return ((typeof value === 'string' ? JSON.parse(value) : value) as { Plan: PlanNode }[])[0]!.Plan;
  });
}

/** The indexes of `table` on its active rows only (`where status = 'active'`). */
async function activeIndexes(table: string): Promise<string[]> {
  const rows = await queryRows<{ name: string }>(
    db,
    sql`select indexname as name from pg_indexes where tablename = ${table} and indexdef like '%WHERE (status = ''active''::text)%'`,
  );
  return rows.map((r) => r.name);
}

describe('the plate check’s generic plan', () => {
  it.each(Object.keys(ASKS) as (keyof typeof ASKS)[])(
    '%s: reads the plate’s sessions through an index on active sessions only',
    async (who) => {
      const nodes = planNodes(await genericPlan(who));
      const indexesRead = (table: string) =>
        nodes
          .filter((n) => n['Relation Name'] === table || n['Index Name']?.startsWith(`${table}_`))
          .flatMap((n) => n['Index Name'] ?? []);
      const sessions = indexesRead('parking_sessions');
      expect(sessions.length).toBeGreaterThan(0);
      expect(sessions.filter((i) => !i.startsWith('parking_sessions_'))).toEqual([]);
      const activeSessions = await activeIndexes('parking_sessions');
      expect(activeSessions.length).toBeGreaterThan(1);
      expect(sessions.filter((i) => !activeSessions.includes(i))).toEqual([]);
    },
  );
});
