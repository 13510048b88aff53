import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Db } from '../../src/db/client.ts';

/** A node of EXPLAIN (FORMAT JSON), the fields the plan tests and the history bench look at. */
export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  'Order By'?: string;
  'Actual Rows'?: number;
  /** Rows an index scan read and its Filter then dropped (per loop, like Actual Rows). */
  'Rows Removed by Filter'?: number;
  'CTE Name'?: string;
  'Presorted Key'?: string[];
  Plans?: PlanNode[];
}

export function planNodes(n: PlanNode): PlanNode[] {
  return [n, ...(n.Plans ?? []).flatMap(planNodes)];
}

/**
 * EXPLAIN (FORMAT JSON) of a query: the root node (PGlite answers parsed JSON, node-postgres too;
 * text is parsed). With analyze, the query runs and the nodes carry their actual rows.
 */
export async function explainJson(db: Db, query: SQL, { analyze = false } = {}): Promise<PlanNode> {
  const [row] = await queryRows<Record<string, unknown>>(
    db,
    analyze ? sql`EXPLAIN (ANALYZE, FORMAT JSON) ${query}` : sql`EXPLAIN (FORMAT JSON) ${query}`,
  );
  const value = Object.values(row!)[0];
  const doc = (typeof value === 'string' ? JSON.parse(value) : value) as { Plan: PlanNode }[];
  return doc[0]!.Plan;
}

/**
 * What sorts the plan does: a full Sort node over rows of `table` (its subtree scans it), as
 * opposed to a sort over something else (a handful of zones) or an Incremental Sort (input already
 * ordered by its presorted keys, sorting one group at a time).
 */
export function sortsOver(
  root: PlanNode,
  table: string,
): { fullSortsOfTable: number; otherSorts: PlanNode[]; incremental: PlanNode[] } {
  const all = planNodes(root);
  const sorts = all.filter((n) => n['Node Type'] === 'Sort');
  const reads = (n: PlanNode) => planNodes(n).some((x) => x['Relation Name'] === table);
  return {
    fullSortsOfTable: sorts.filter(reads).length,
    otherSorts: sorts.filter((n) => !reads(n)),
    incremental: all.filter((n) => n['Node Type'] === 'Incremental Sort'),
  };
}
