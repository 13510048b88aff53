import { eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { applyMigrations } from '../src/db/client.ts';
import { insertOperatorRow } from './operator-helpers.ts';
import { operators, zones } from '../src/db/schema/index.ts';
import { ZoneCache } from '../src/zones/zone-cache.ts';
import { insertZones, nearby, zoneSetVersion } from '../src/zones/zone-repository.ts';
import { concurrently } from './concurrency.ts';
import { freshDatabase } from './helpers.ts';
import { CENTRE, zoneAt } from './parking-helpers.ts';
import { migrationsUpTo } from './support/migrations.ts';

// A server holds each operator's zones in memory as points and trusts them while the
// operator's set version (zone_set_versions, kept by triggers) is the one it read them at. So every
// statement that changes an operator's zones, however it is written, must change that version, and
// only that operator's; and the map must follow it. Both databases (races on PostgreSQL).
const database = await freshDatabase();
afterAll(() => database.close());
const { db } = database;
const newOperator = async (name: string) => {
  const [o] = await db
    .insert(operators)
    .values({ name, city: 'Austin', state: 'TX', ...CENTRE, timezone: 'America/Chicago' })
    .returning();
  return o!.id;
};
const mine = await newOperator('Mine');
const theirs = await newOperator('Theirs');
const near = (operatorId: number) => ({ operatorId, ...CENTRE, radiusM: 2000, limit: 20 });
const numbersNear = async (cache: ZoneCache, operatorId: number) =>
  (await nearby(db, cache, near(operatorId))).map((h) => h.zone.zoneNumber).sort();

describe('the version of an operator’s set of zones', () => {
  it('changes with every statement that inserts, updates, deletes or truncates zones, and only for their operator', async () => {
    expect(await zoneSetVersion(db, mine)).toBe(0); // no zones yet
    const versions = [0];
    const step = async (change: () => Promise<unknown>) => {
      const theirsBefore = await zoneSetVersion(db, theirs);
      await change();
      const v = await zoneSetVersion(db, mine);
      expect(v).toBeGreaterThan(versions.at(-1)!);
      versions.push(v);
      expect(await zoneSetVersion(db, theirs)).toBe(theirsBefore);
    };
    await insertZones(db, theirs, [zoneAt('T1', '1 Other St', CENTRE)]);
    await step(() => insertZones(db, mine, [zoneAt('V1', '1 Any St', CENTRE), zoneAt('V2', '2 Any St', CENTRE)]));
    await step(() => db.execute(sql`update zones set rate_cents = rate_cents + 1 where operator_id = ${mine}`));
    await step(() =>
      db.execute(sql`update zones set name = 'Moved' where zone_number = 'V1' and operator_id = ${mine}`),
    );
    await step(() => db.delete(zones).where(eq(zones.zoneNumber, 'V2')));
    // An update that changes no row changes nothing.
    const before = await zoneSetVersion(db, mine);
    await db.execute(sql`update zones set capacity = 1 where zone_number = 'none'`);
    expect(await zoneSetVersion(db, mine)).toBe(before);
    // A zone moved to another operator changes both sets.
    const theirsBefore = await zoneSetVersion(db, theirs);
    await db.execute(sql`update zones set operator_id = ${theirs} where zone_number = 'V1' and operator_id = ${mine}`);
    expect(await zoneSetVersion(db, mine)).toBeGreaterThan(before);
    expect(await zoneSetVersion(db, theirs)).toBeGreaterThan(theirsBefore);
  });

  it('stays as it was when the change is rolled back', async () => {
    const before = await zoneSetVersion(db, mine);
    await expect(
      db.transaction(async (tx) => {
        await insertZones(tx, mine, [zoneAt('R1', '1 Rollback St', CENTRE)]);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await zoneSetVersion(db, mine)).toBe(before);
  });

  it('gives concurrent writers of one operator’s zones each a new, growing version, and none fails', async () => {
    const before = await zoneSetVersion(db, mine);
    const seen = await concurrently(12, (i) =>
      db.transaction(async (tx) => {
        await insertZones(tx, mine, [zoneAt(`W${i}`, `${i} Race St`, CENTRE)]);
        return zoneSetVersion(tx, mine);
      }),
    );
    expect(new Set(seen).size).toBe(12);
    expect(Math.min(...seen)).toBeGreaterThan(before);
    expect(await zoneSetVersion(db, mine)).toBe(Math.max(...seen));
  });
});

describe('the zones held in memory follow the set', () => {
  it('shows a zone inserted, moved away or deleted outside the app on the next search, each operator its own', async () => {
    const cache = new ZoneCache();
    const start = await numbersNear(cache, mine);
    await db.execute(sql`insert into zones (operator_id, zone_number, name, address, city, state, zip, lat, lng, kind, rate_cents,
      max_stay_minutes, paid_days, paid_from_minute, paid_until_minute, capacity)
      values (${mine}, 'PSQL', 'From psql', '9 Any St', 'Austin', 'TX', '78701', ${CENTRE.lat}, ${CENTRE.lng}, 'street', 250, 120, '{1,2,3,4,5,6,7}', 0, 1440, 5)`);
    expect(await numbersNear(cache, mine)).toEqual([...start, 'PSQL'].sort());
    expect(await numbersNear(cache, theirs)).toEqual(['T1', 'V1']);
    await db
      .update(zones)
      .set({ lat: CENTRE.lat + 1 })
      .where(eq(zones.zoneNumber, 'PSQL'));
    expect(await numbersNear(cache, mine)).toEqual(start);
    await db.delete(zones).where(eq(zones.operatorId, theirs));
    expect(await numbersNear(cache, theirs)).toEqual([]);
    await db.execute(sql`truncate zones cascade`);
    expect(await numbersNear(cache, mine)).toEqual([]);
  });

  it('answers many searches at once with a stale map the same as one search', async () => {
    await insertZones(db, mine, [
      zoneAt('A1', '1 Any St', CENTRE),
      zoneAt('A2', '2 Any St', { lat: CENTRE.lat + 0.001, lng: CENTRE.lng }),
    ]);
    const cache = new ZoneCache();
    const answers = await concurrently(20, () => numbersNear(cache, mine));
    expect(new Set(answers.map((a) => a.join()))).toEqual(new Set(['A1,A2']));
  });
});

describe('the migration that adds the versions (0021)', () => {
  it('gives each operator that has zones before it a version of its own, and the map its zones', async () => {
    const earlier = await freshDatabase({ migrationsFolder: migrationsUpTo('0020_member_details') });
    try {
      const { db } = earlier;
      const make = (name: string) => insertOperatorRow(db, name);
      const [a, b, none] = [await make('A'), await make('B'), await make('None')];
      await insertZones(db, a, [zoneAt('M1', '1 Any St', CENTRE), zoneAt('M2', '2 Any St', CENTRE)]);
      await insertZones(db, b, [zoneAt('M3', '3 Any St', CENTRE)]);

      await applyMigrations(earlier);

      const [va, vb] = [await zoneSetVersion(db, a), await zoneSetVersion(db, b)];
      expect(va).toBeGreaterThan(0);
      expect(vb).toBeGreaterThan(0);
      expect(va).not.toBe(vb);
      expect(await zoneSetVersion(db, none)).toBe(0);
      const cache = new ZoneCache();
      expect((await nearby(db, cache, near(a))).map((h) => h.zone.zoneNumber).sort()).toEqual(['M1', 'M2']);
      // The triggers are in place: the next change is seen.
      await db.delete(zones).where(eq(zones.zoneNumber, 'M2'));
      expect(await zoneSetVersion(db, a)).toBeGreaterThan(va);
      expect((await nearby(db, cache, near(a))).map((h) => h.zone.zoneNumber)).toEqual(['M1']);
    } finally {
      await earlier.close();
    }
  });
});
