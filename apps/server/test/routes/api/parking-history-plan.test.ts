import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { SessionsPage } from '@parkit/contract';
import type { Db } from '../../../src/db/client.ts';
import { historyQuery, type HistoryParams } from '../../../src/plugins/app/history/session-history-repository.ts';
import { as, buildTestApp } from '../../helpers.ts';
import { CENTRE, seedHistory } from '../../support/history-fixtures.ts';
import { explainJson, planNodes, sortsOver, type PlanNode } from '../../support/query-plan.ts';

/**
 * Issue 12: "EXPLAIN shows index scans, no sort of the member's whole history", on PGlite and on
 * PostgreSQL (the same file runs on both). The tables here are small, so scans and sorts are
 * priced out (enable_seqscan, enable_sort off): what is left is what the query cannot do without.
 * `npm run bench -- history` prints the same plans at 10 million sessions.
 */
const { app, database } = await buildTestApp();
const db = database.db;
const { alice, zoneIds } = await seedHistory(app, db);

async function plan(p: HistoryParams): Promise<PlanNode> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local enable_seqscan = off`);
    await tx.execute(sql`set local enable_sort = off`);
    return explainJson(tx as unknown as Db, historyQuery(p, p.limit + 1));
  });
}
const scansOfSessions = (root: PlanNode) => planNodes(root).filter((n) => n['Relation Name'] === 'parking_sessions');
const cursorOf = async (qs: string) => (await as(app, alice, { method: 'GET', url: `/api/Parking/Sessions?${qs}` })).json<SessionsPage>().NextCursor!;
const base = { memberId: alice.memberId, origin: null, timeZone: 'America/Chicago', limit: 20 } as const;

describe('the history query plan', () => {
  it('reads the first page, a later page and a date range straight from the member index, with no sort', async () => {
    const cursor = await cursorOf('sort=newest&limit=3');
    for (const p of [
      { ...base, sort: 'newest' as const },
      { ...base, sort: 'newest' as const, cursor },
      { ...base, sort: 'oldest' as const, from: '2026-03-02', to: '2026-03-09' },
    ]) {
      const root = await plan(p);
      const scans = scansOfSessions(root);
      expect(scans.length).toBeGreaterThan(0);
      for (const s of scans) expect(s['Index Name']).toBe('parking_sessions_member_started_idx');
      const sorts = sortsOver(root, 'parking_sessions');
      expect([sorts.fullSortsOfTable, sorts.otherSorts.length, sorts.incremental.length]).toEqual([0, 0, 0]);
    }
  });

  it('orders by distance over the member’s distinct zones, never sorting the member’s sessions', async () => {
    const origin = { lat: CENTRE.lat + 0.2, lng: CENTRE.lng };
    const cases: HistoryParams[] = [
      { ...base, sort: 'near', origin: CENTRE },
      { ...base, sort: 'far', origin },
      { ...base, sort: 'near', origin: CENTRE, cursor: await cursorOf(`sort=near&limit=7`) },
      { ...base, sort: 'far', origin: CENTRE, cursor: await cursorOf(`sort=far&limit=11`), from: '2026-03-02', to: '2026-03-09' },
    ];
    for (const p of cases) {
      const root = await plan(p);
      // Sessions come only from the (member, zone) index: the distinct zones by a loose index scan,
      // then each zone's sessions.
      const scans = scansOfSessions(root);
      expect(scans.length).toBeGreaterThanOrEqual(3);
      for (const s of scans) {
        expect(s['Node Type']).toMatch(/^Index (Only )?Scan$/);
        expect(s['Index Name']).toBe('parking_sessions_member_zone_idx');
      }
      const sorts = sortsOver(root, 'parking_sessions');
      // No Sort node above a read of parking_sessions.
      expect(sorts.fullSortsOfTable).toBe(0);
      // One Sort: of the member's distinct zones (the CTE), each read once per zone.
      expect(sorts.otherSorts).toHaveLength(1);
      expect(planNodes(sorts.otherSorts[0]!).some((n) => n['Node Type'] === 'CTE Scan' && n['CTE Name'] === 'member_zones')).toBe(true);
      // The page's order arrives presorted by (distance, zone): only one zone's rows at a time (at
      // most a page, the inner LIMIT) are sorted, and the sort stops once the page is full.
      expect(sorts.incremental).toHaveLength(1);
      expect(sorts.incremental[0]!['Presorted Key']).toHaveLength(2);
      expect(sorts.incremental[0]!['Presorted Key']![1]).toMatch(/zone_id|z\.id/);
      const limits = planNodes(sorts.incremental[0]!).filter((n) => n['Node Type'] === 'Limit');
      expect(limits.some((l) => planNodes(l).some((n) => n['Index Name'] === 'parking_sessions_member_zone_idx' && n['Node Type'] === 'Index Scan'))).toBe(true);
    }
    expect(Object.keys(zoneIds)).toHaveLength(3);
  });
});
