import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { operators } from '../src/db/schema/index.ts';
import { defaultOperatorId } from '../src/zones/operator-repository.ts';
import { insertZones, type NewZone } from '../src/zones/zone-repository.ts';
import { search, searchTextQuery } from '../src/zones/zone-search.ts';
import { freshDatabase } from './helpers.ts';
import { explainJson, planNodes } from './support/query-plan.ts';
import { zoneAt } from './parking-helpers.ts';

// Text search ranks by word similarity through zones_operator_search_trgm_idx (pg_trgm's
// GiST, k-nearest), so the best match is found however many near-misses match before it. On both
// databases: PGlite loads pg_trgm and btree_gist from @electric-sql/pglite/contrib.
const database = await freshDatabase();
afterAll(() => database.close());
const { db } = database;
const mine = await defaultOperatorId(db);
const [rival] = await db
  .insert(operators)
  .values({ name: 'Rival', city: 'Austin', state: 'TX', lat: 30.2672, lng: -97.7431, timezone: 'America/Chicago' })
  .returning();

/** A zone of the parking tests' terms, named, on a grid (100 a column, about 20 m apart). */
function zone(zoneNumber: string, name: string, address: string, i: number): NewZone {
  return {
    ...zoneAt(zoneNumber, address, { lat: 30.2672 + (i % 100) * 0.0002, lng: -97.7431 + Math.floor(i / 100) * 0.0002 }),
    name,
  };
}

// 5,000 near-misses, each similar enough to match ("Cedar Holow"), stored before the one zone that
// is exactly what the driver typed: read in storage order, the first 1,000 matches are all misses.
// At 1,500 a scan and sort of the whole table cost about as much as the index on PGlite, and the
// planner took either (3 runs in 8 failed the plan test); at 5,000 the index wins every time.
const NEAR_MISSES = 5_000;
await insertZones(
  db,
  mine,
  Array.from({ length: NEAR_MISSES }, (_, i) => zone(`N${i}`, `Cedar Holow Lot ${i}`, `${i} Cedr Hollw Rd`, i)),
);
await insertZones(db, mine, [zone('BEST', 'Cedar Hollow Garage', '1 Cedar Hollow', 7)]);
// The rival's zone with the very same name is never found for this operator.
await insertZones(db, rival!.id, [zone('RIVAL', 'Cedar Hollow Garage', '1 Cedar Hollow', 7)]);
await db.execute(sql`ANALYZE zones`);

describe('zone text search among many near-misses', () => {
  it('puts the best match first', async () => {
    const hits = await search(db, { operatorId: mine, q: 'Cedar Hollow', limit: 5 });
    expect(hits.map((h) => h.zone.zoneNumber)[0]).toBe('BEST');
    expect(hits).toHaveLength(5);
    expect(hits.every((h) => h.zone.operatorId === mine)).toBe(true);
  });

  it('puts the best match first with a typo in the text too', async () => {
    const [first] = await search(db, { operatorId: mine, q: 'cedar hollow garag', limit: 5 });
    expect(first?.zone.zoneNumber).toBe('BEST');
  });

  it('still answers near-misses when nothing matches exactly', async () => {
    const hits = await search(db, { operatorId: mine, q: 'Cedar Holow Lot 12', limit: 3 });
    expect(hits[0]?.zone.zoneNumber).toBe('N12');
  });

  it('reads the candidates from zones_operator_search_trgm_idx, most similar first, with the operator in the index condition', async () => {
    const query = searchTextQuery(db, { operatorId: mine, q: 'Cedar Hollow', limit: 5 });
    const plan = await explainJson(db, query);
    const all = planNodes(plan);
    const scan = all.find((n) => n['Index Name'] === 'zones_operator_search_trgm_idx');
    expect(scan, JSON.stringify(plan)).toBeDefined();
    expect(scan!['Index Cond']).toMatch(/operator_id/);
    // q <<-> text, which PostgreSQL writes as its commutator text <->> q.
    expect(scan!['Order By']).toMatch(/<<->|<->>/);
    expect(all.some((n) => n['Node Type'] === 'Seq Scan')).toBe(false);
  });
});
