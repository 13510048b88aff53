import { afterAll, describe, expect, it } from 'vitest';
import { operators } from '../src/db/schema/index.ts';
import { sql } from 'drizzle-orm';
import { defaultOperatorId } from '../src/zones/operator-repository.ts';
import { insertZones, nearby, nearbyQuery, type NewZone } from '../src/zones/zone-repository.ts';
import { ZoneCache } from '../src/zones/zone-cache.ts';
import { freshDatabase } from './helpers.ts';
import { explainJson, planNodes } from './support/query-plan.ts';
import { zoneAt } from './parking-helpers.ts';

// One operator's nearby zones come from the (operator_id, position) GiST index, so a
// second operator's zones in the same streets are never read. EXPLAIN on both databases.
const database = await freshDatabase();
afterAll(() => database.close());
const { db } = database;
const mine = await defaultOperatorId(db);
const [theirs] = await db
  .insert(operators)
  .values({ name: 'Rival', city: 'Austin', state: 'TX', lat: 30.2672, lng: -97.7431, timezone: 'America/Chicago' })
  .returning();

/** n zones on a grid (100 a row, about 20 m apart) centred on downtown Austin. */
function grid(n: number, tag: string): NewZone[] {
  return Array.from({ length: n }, (_, i) => ({
    ...zoneAt(`${tag}${i}`, `${i} Congress Ave`, {
      lat: 30.2672 + (Math.floor(i / 100) - n / 200) * 0.0002,
      lng: -97.7431 + ((i % 100) - 50) * 0.0002,
    }),
    name: `Zone ${tag}${i}`,
  }));
}
// The rival has ten times as many zones in the same streets.
await insertZones(db, mine, grid(1_000, 'M'));
await insertZones(db, theirs!.id, grid(10_000, 'R'));
await db.execute(sql`ANALYZE zones`);

describe('nearby zones of one operator', () => {
  it('reads them through zones_operator_mercator_idx with the operator in the index condition, nothing of the other operator', async () => {
    const query = nearbyQuery(db, { operatorId: mine, lat: 30.2672, lng: -97.7431, radiusM: 2000, limit: 20 });
    const plan = await explainJson(db, query, { analyze: true });
    const all = planNodes(plan);
    const scan = all.find((n) => n['Index Name'] === 'zones_operator_mercator_idx');
    expect(scan, JSON.stringify(plan)).toBeDefined();
    expect(scan!['Index Cond']).toMatch(/operator_id/);
    // A k-nearest scan: it stops after the rows asked for instead of reading the rival's 10,000.
    expect(scan!['Actual Rows']).toBeLessThanOrEqual(22);
    expect(all.some((n) => n['Node Type'] === 'Seq Scan' || n['Node Type'] === 'Sort')).toBe(false);
  });

  it('still finds the nearest of the operator’s own zones, nearest first', async () => {
    const hits = await nearby(db, new ZoneCache(), {
      operatorId: mine,
      lat: 30.2672,
      lng: -97.7431,
      radiusM: 2000,
      limit: 20,
    });
    expect(hits).toHaveLength(20);
    expect(hits.every((h) => h.zone.operatorId === mine)).toBe(true);
    expect(hits[0]!.zone.zoneNumber).toBe('M550'); // the one at the centre
    for (let i = 1; i < hits.length; i++)
      expect(hits[i]!.distanceM!).toBeGreaterThanOrEqual(hits[i - 1]!.distanceM! - 1e-6);
  });
});
