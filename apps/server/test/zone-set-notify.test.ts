import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { Zone } from '@parkit/contract';
import { queryRows } from '../src/db/client.ts';
import { zones } from '../src/db/schema/index.ts';
import { ZoneCache } from '../src/zones/zone-cache.ts';
import { defaultOperatorId } from '../src/zones/operator-repository.ts';
import { buildTestApp } from './helpers.ts';
import { addZone, CENTRE } from './parking-helpers.ts';
import { recordStatements } from './support/statements.ts';

// On PostgreSQL a server answers nearest zones from memory without a statement while its
// LISTEN connection is up and no change was told since it read the operator's set version
// (migration 0022 notifies at the commit of every statement that changes zones). A change made
// elsewhere shows once its notification arrives; with LISTEN down every search reads the version.
// On PGlite (no LISTEN) every search reads it.
const { app, database } = await buildTestApp({}, { decorations: true });
const { db } = database;
const operatorId = await defaultOperatorId(db);
const postgres = process.env.TEST_DB === 'postgres';
const seen = recordStatements(db);
const versionReads = () => seen.filter((t) => /"zone_set_versions"/.test(t)).length;

const numbersNear = async () => {
  const res = await app.inject({ method: 'GET', url: `/api/Parking/Zones/Nearby?lat=${CENTRE.lat}&lng=${CENTRE.lng}` });
  expect(res.statusCode).toBe(200);
  return res.json<Zone[]>().map((z) => z.ZoneNumber);
};
/** The version reads of one search over HTTP. */
const readsOfOneSearch = async () => {
  seen.length = 0;
  await numbersNear();
  return versionReads();
};
/** Until the notifications of earlier changes have arrived: a search reads nothing (PostgreSQL). */
const settled = () => expect.poll(readsOfOneSearch, { timeout: 2000, interval: 5 }).toBe(postgres ? 0 : 1);

describe('the zones a server holds, told of changes', () => {
  it('reads the set version once while nothing changes on PostgreSQL; on every search on PGlite', async () => {
    await addZone(db, 'N1');
    expect(await numbersNear()).toContain('N1');
    await settled();
    for (let i = 0; i < 3; i++) expect(await readsOfOneSearch()).toBe(postgres ? 0 : 1);
  });

  it('does not trust a version read that a notification or a reconnect overtook', async () => {
    const link = { live: true, generation: 1 };
    const cache = new ZoneCache({ link });
    const reads = async () => {
      seen.length = 0;
      await cache.map(db, operatorId);
      return versionReads();
    };
    expect(await reads()).toBe(1);
    expect(await reads()).toBe(0);
    // Told while the read is on its way: the answer may predate the change.
    cache.told();
    let pending = cache.map(db, operatorId);
    cache.told();
    await pending;
    expect(await reads()).toBe(1);
    expect(await reads()).toBe(0);
    // The connection dropped and came back meanwhile: notifications may have been lost.
    cache.told();
    pending = cache.map(db, operatorId);
    link.generation += 1;
    await pending;
    expect(await reads()).toBe(1);
    expect(await reads()).toBe(0);
    // Down: every search reads.
    link.live = false;
    expect(await reads()).toBe(1);
    expect(await reads()).toBe(1);
    // Up again under a new generation: the map is trusted again after one read.
    link.live = true;
    link.generation += 1;
    expect(await reads()).toBe(1);
    expect(await reads()).toBe(0);
  });
});

if (postgres) {
  const url = (db as unknown as { $client: { options: { connectionString: string } } }).$client.options
    .connectionString;
  /** A statement from a connection of no app (psql, an import on another machine). */
  const psql = async (text: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };

  describe('changes made elsewhere, on PostgreSQL', () => {
    it('shows a zone inserted, renamed and deleted by another connection once told, within a second', async () => {
      await settled();
      const started = Date.now();
      await psql(`insert into zones (operator_id, zone_number, name, address, city, state, zip, lat, lng, kind, rate_cents,
        max_stay_minutes, paid_days, paid_from_minute, paid_until_minute, capacity)
        values (${operatorId}, 'N2', 'From psql', '9 Any St', 'Austin', 'TX', '78701', ${CENTRE.lat}, ${CENTRE.lng}, 'street', 250, 120, '{1,2,3,4,5,6,7}', 0, 1440, 5)`);
      await expect.poll(numbersNear, { timeout: 1000, interval: 5 }).toContain('N2');
      console.log(`a zone inserted by psql showed ${Date.now() - started} ms after its statement`);
      await settled();
      await psql(`update zones set name = 'Renamed by psql' where zone_number = 'N2'`);
      const named = async () => {
        const res = await app.inject({
          method: 'GET',
          url: `/api/Parking/Zones/Nearby?lat=${CENTRE.lat}&lng=${CENTRE.lng}`,
        });
        return res.json<Zone[]>().find((z) => z.ZoneNumber === 'N2')?.Name;
      };
      await expect.poll(named, { timeout: 1000, interval: 5 }).toBe('Renamed by psql');
      await settled();
      await psql(`delete from zones where zone_number = 'N2'`);
      await expect.poll(numbersNear, { timeout: 1000, interval: 5 }).not.toContain('N2');
    });

    it('with its LISTEN connection cut, reads the version on every search: a change made meanwhile shows at once', async () => {
      await settled();
      const before = app.notifications.generation;
      const name = (await queryRows<{ db: string }>(db, sql`select current_database() as db`))[0]!.db;
      const cut = await queryRows<{ ok: boolean }>(
        db,
        sql`select pg_terminate_backend(pid) as ok from pg_stat_activity where datname = ${name} and query ilike 'LISTEN%'`,
      );
      expect(cut.length).toBe(1);
      await expect.poll(() => app.notifications.generation, { timeout: 5000, interval: 5 }).not.toBe(before);
      // Down (it retries after a second): nobody is told of this change, so the next search must
      // read the version and see it.
      expect(app.notifications.live).toBe(false);
      await db
        .update(zones)
        .set({ lat: CENTRE.lat + 1 })
        .where(eq(zones.zoneNumber, 'N1'));
      seen.length = 0;
      expect(await numbersNear()).not.toContain('N1');
      expect(versionReads()).toBe(1);
      expect(await readsOfOneSearch()).toBe(1);
      // Back up: trusted again after one read.
      await expect.poll(() => app.notifications.live, { timeout: 10_000 }).toBe(true);
      await db.update(zones).set({ lat: CENTRE.lat }).where(eq(zones.zoneNumber, 'N1'));
      await expect.poll(numbersNear, { timeout: 1000, interval: 5 }).toContain('N1');
      await settled();
    });
  });
}
