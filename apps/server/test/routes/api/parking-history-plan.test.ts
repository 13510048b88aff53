import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { SessionsPage, SessionSort } from '@parkit/contract';
import { queryRows, type Db, type Tx } from '../../../src/db/client.ts';
import { encodeCursor } from '../../../src/history/history-cursor.ts';
import { historyQuery, type HistoryParams } from '../../../src/history/session-history-repository.ts';
import { as, buildTestApp } from '../../helpers.ts';
import { CENTRE, seedHistory, TIE } from '../../support/history-fixtures.ts';
import { explainJson, planNodes, sortsOver, type PlanNode } from '../../support/query-plan.ts';

/**
 * Issue 12: "EXPLAIN shows index scans, no sort of the member's whole history", on PGlite and on
 * PostgreSQL (the same file runs on both), for every sort, with and without the date and vehicle
 * filters, on the first page and on a later page by cursor. The tables here are small, so scans and
 * sorts are priced out (enable_seqscan, enable_sort off): what is left is what the query cannot do
 * without. The plans run (EXPLAIN ANALYZE), so the row counts are checked too: no read of
 * parking_sessions yields more than a page per loop, so nothing downstream can sort more than that.
 * `npm run bench -- history` prints the same plans at 10 million sessions, with the planner's own costs.
 *
 * The one Sort the distance sorts keep orders the member's distinct zones (its input is a CTE of
 * zone ids, one per zone, and its row count is checked to be the zone count); the Incremental Sort
 * above it gets its rows presorted by (distance, zone) and sorts one zone's group at a time, each
 * group cut to a page by the LIMIT under it, and stops when the page is full.
 */
const { app, database } = await buildTestApp();
const db = database.db;
const { alice, car, van, alicesIds, zoneIds } = await seedHistory(app, db);

const LIMIT = 5;
const PAGE = LIMIT + 1; // historyPage asks for one more row than it shows
const FAR = { lat: CENTRE.lat + 0.2, lng: CENTRE.lng };
const SORTS: SessionSort[] = ['newest', 'oldest', 'near', 'far'];
const FILTERS = {
  none: {},
  date: { from: '2026-03-02', to: '2026-03-09' },
  vehicle: { vehicle: car.id },
  'date and vehicle': { from: '2026-03-02', to: '2026-03-09', vehicle: car.id },
} as const;

interface Case {
  name: string;
  params: HistoryParams;
}

/** The API's own cursor after the first page, for the same sort, position and filters. */
async function cursorAfterFirstPage(sort: SessionSort, filter: Record<string, string | number>): Promise<string> {
  const qs = new URLSearchParams({
    sort,
    limit: String(LIMIT),
    ...Object.fromEntries(Object.entries(filter).map(([k, v]) => [k, String(v)])),
  });
  if (sort === 'near' || sort === 'far') {
    qs.set('lat', String(FAR.lat));
    qs.set('lng', String(FAR.lng));
  }
  const res = await as(app, alice, { method: 'GET', url: `/api/Parking/Sessions?${qs}` });
  expect(res.statusCode).toBe(200);
  const cursor = res.json<SessionsPage>().NextCursor;
  expect(cursor, `${sort} ${qs}`).toEqual(expect.any(String));
  return cursor!;
}

async function allCases(): Promise<Case[]> {
  const cases: Case[] = [];
  for (const sort of SORTS) {
    for (const [filterName, filter] of Object.entries(FILTERS)) {
      const params: HistoryParams = {
        memberId: alice.memberId,
        sort,
        origin: sort === 'near' || sort === 'far' ? FAR : null,
        timeZone: 'America/Chicago',
        limit: LIMIT,
        ...filter,
      };
      cases.push({ name: `${sort}, ${filterName}, first page`, params });
      cases.push({
        name: `${sort}, ${filterName}, page 2 by cursor`,
        params: { ...params, cursor: await cursorAfterFirstPage(sort, filter) },
      });
    }
  }
  return cases;
}

/**
 * The van: one session among Alice's 27 (at TIE, the lowest id of the three there). newest/oldest
 * with it, the first page and the page after that session (by a cursor made as the API makes it:
 * the API gives none, the first page being the whole of it). Without an index on the vehicle, the
 * walk through (member_id, started_at) reads the member's other sessions to find it.
 */
function rareVehicleCases(): Case[] {
  const vanSession = alicesIds[24]!;
  return (['newest', 'oldest'] as const).flatMap((sort) => {
    const params: HistoryParams = {
      memberId: alice.memberId,
      sort,
      origin: null,
      timeZone: 'America/Chicago',
      limit: LIMIT,
      vehicle: van.id,
    };
    const cursor = encodeCursor({ s: sort, k: TIE.toISOString().replace('Z', '000Z'), i: vanSession });
    return [
      { name: `${sort}, a vehicle used once, first page`, params },
      { name: `${sort}, a vehicle used once, page 2 by cursor`, params: { ...params, cursor } },
    ];
  });
}

/** Runs the page's query under EXPLAIN ANALYZE with scans and sorts priced out. */
async function planIn(tx: Tx, p: HistoryParams): Promise<PlanNode> {
  await tx.execute(sql`set local enable_seqscan = off`);
  await tx.execute(sql`set local enable_sort = off`);
  return explainJson(tx as unknown as Db, historyQuery(p, PAGE), { analyze: true });
}

const sessionReads = (root: PlanNode) => planNodes(root).filter((n) => n['Relation Name'] === 'parking_sessions');

/** What is wrong with a plan, in words (empty when it is as the issue asks). */
function planProblems(root: PlanNode, p: HistoryParams): string[] {
  const problems: string[] = [];
  const byDistance = p.sort === 'near' || p.sort === 'far';
  // With a vehicle, a distance sort's zone-by-zone reads may take either index: the zone's sessions
  // newest first, filtered to the vehicle, or the vehicle's newest first, filtered to the zone (the
  // planner weighs which is fewer); both are cut to a page (the member's zones come from member_zone_idx).
  const vehicleIdx = 'parking_sessions_member_vehicle_started_idx';
  const index = byDistance
    ? 'parking_sessions_member_zone_idx'
    : p.vehicle !== undefined
      ? vehicleIdx
      : 'parking_sessions_member_started_idx';
  const allowed = (name: string | undefined) =>
    name === index || (byDistance && p.vehicle !== undefined && name === vehicleIdx);
  const reads = sessionReads(root);
  if (reads.length === 0) problems.push('no read of parking_sessions');
  for (const r of reads) {
    if (!/^Index (Only )?Scan$/.test(r['Node Type'])) problems.push(`${r['Node Type']} of parking_sessions`);
    else if (!allowed(r['Index Name'])) problems.push(`scan of ${r['Index Name']}, not ${index}`);
    if ((r['Actual Rows'] ?? 0) > PAGE)
      problems.push(`a read of parking_sessions yields ${r['Actual Rows']} rows per loop (a page is ${PAGE})`);
    // Date sorts: what the scan read, the rows its Filter dropped included (a vehicle's filter
    // through the member index reads the member's other sessions). Distance sorts: see the note above.
    const read = (r['Actual Rows'] ?? 0) + (r['Rows Removed by Filter'] ?? 0);
    if (!byDistance && read > PAGE)
      problems.push(`a read of parking_sessions reads ${read} rows per loop (a page is ${PAGE})`);
  }
  const sorts = sortsOver(root, 'parking_sessions');
  if (sorts.fullSortsOfTable > 0) problems.push(`${sorts.fullSortsOfTable} Sort node(s) over parking_sessions`);
  if (!byDistance) {
    if (sorts.otherSorts.length + sorts.incremental.length > 0) problems.push('a date sort sorts');
    return problems;
  }
  // The one full Sort: the member's distinct zones, from the CTE, one row per zone.
  if (sorts.otherSorts.length !== 1)
    problems.push(`${sorts.otherSorts.length} sorts besides the sessions', expected the zones' one`);
  for (const s of sorts.otherSorts) {
    if (!planNodes(s).some((n) => n['Node Type'] === 'CTE Scan' && n['CTE Name'] === 'member_zones'))
      problems.push('a Sort not over member_zones');
    if ((s['Actual Rows'] ?? 0) > Object.keys(zoneIds).length)
      problems.push(`the zones' Sort has ${s['Actual Rows']} rows, more than the zones`);
  }
  // The page's order: presorted by (distance, zone), each zone's rows a LIMITed index scan.
  if (sorts.incremental.length !== 1) problems.push(`${sorts.incremental.length} incremental sorts, expected 1`);
  for (const inc of sorts.incremental) {
    const keys = inc['Presorted Key'] ?? [];
    if (keys.length !== 2 || !/zone_id|z\.id/.test(keys[1] ?? ''))
      problems.push(`incremental sort presorted by ${keys.join(', ')}`);
    const limited = planNodes(inc).filter(
      (n) =>
        n['Node Type'] === 'Limit' &&
        planNodes(n).some((x) => allowed(x['Index Name']) && x['Node Type'] === 'Index Scan'),
    );
    if (limited.length === 0) problems.push('a zone’s sessions are not cut to a page under the incremental sort');
  }
  return problems;
}

describe('the history query plan', () => {
  it('has more history than any page, so a read of all of it would show', () => {
    expect(alicesIds.length).toBeGreaterThan(4 * PAGE);
  });

  it('reads every sort, filter and page from the member’s index, never sorting the member’s sessions', async () => {
    const cases = await allCases();
    expect(cases).toHaveLength(32);
    cases.push(...rareVehicleCases());
    for (const c of cases) {
      const root = await db.transaction((tx) => planIn(tx, c.params));
      expect(planProblems(root, c.params), c.name).toEqual([]);
    }
  });

  // The check above can fail: without the index a sort needs, the planner must sort (or scan), and
  // the check says so. DDL is transactional, so the index comes back when the transaction rolls back.
  /** The problems each case's plan shows with `index` dropped (then restored by the rollback). */
  async function problemsWithout(index: string, cases: Case[]): Promise<string[][]> {
    const rolledBack = new Error('roll back');
    const found: string[][] = [];
    await expect(
      db.transaction(async (tx) => {
        await tx.execute(sql.raw(`DROP INDEX ${index}`));
        for (const c of cases) found.push(planProblems(await planIn(tx, c.params), c.params));
        throw rolledBack;
      }),
    ).rejects.toBe(rolledBack);
    expect(found).toHaveLength(cases.length);
    for (const [i, problems] of found.entries()) expect(problems.length, cases[i]!.name).toBeGreaterThan(0);
    expect(
      await queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM pg_indexes WHERE indexname = ${index}`),
    ).toEqual([{ n: 1 }]);
    return found;
  }

  // (The vehicle filter's date sorts have their own index, so they are the next test's.)
  for (const [index, sorts] of [
    ['parking_sessions_member_started_idx', ['newest', 'oldest']],
    ['parking_sessions_member_zone_idx', ['near', 'far']],
  ] as const) {
    it(`finds the problem when ${index} is dropped`, async () => {
      const cases = (await allCases()).filter(
        (c) =>
          (sorts as readonly string[]).includes(c.params.sort) &&
          (index !== 'parking_sessions_member_started_idx' || c.params.vehicle === undefined),
      );
      const found = await problemsWithout(index, cases);
      // Among them, the very thing the issue forbids: a Sort over the sessions, reading all of them.
      const all = found.flat();
      expect(
        all.some((x) => /^\d+ Sort node\(s\) over parking_sessions$/.test(x)),
        all.join('; '),
      ).toBe(true);
      expect(all).toContain(`a read of parking_sessions yields ${alicesIds.length} rows per loop (a page is ${PAGE})`);
    });
  }

  it('finds the problem when parking_sessions_member_vehicle_started_idx is dropped: a vehicle used once is looked for through the whole history', async () => {
    const cases = [...(await allCases()), ...rareVehicleCases()].filter(
      (c) => (c.params.sort === 'newest' || c.params.sort === 'oldest') && c.params.vehicle !== undefined,
    );
    expect(cases).toHaveLength(12);
    const found = await problemsWithout('parking_sessions_member_vehicle_started_idx', cases);
    const rare = found.filter((_, i) => cases[i]!.name.includes('used once')).flat();
    // The first page reads all 27 sessions for the van's one; the page after it, the 24 older ones.
    expect(rare).toContain(`a read of parking_sessions reads ${alicesIds.length} rows per loop (a page is ${PAGE})`);
    expect(rare).toContain(`a read of parking_sessions reads 24 rows per loop (a page is ${PAGE})`);
  });
});
