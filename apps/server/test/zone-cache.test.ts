import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Zone } from '@parkit/contract';
import { zones } from '../src/db/schema/index.ts';
import { ZoneCache } from '../src/zones/zone-cache.ts';
import { nearby, zonesByIds } from '../src/zones/zone-repository.ts';
import { defaultOperatorId } from '../src/zones/operator-repository.ts';
import { buildTestApp } from './helpers.ts';
import { addZone, CENTRE } from './parking-helpers.ts';

// Nearby() reads ids and row versions and takes the rows from a cache. The cache must
// never show a zone as it was: an edit made outside the app (psql, another server) is seen by the
// next search (over HTTP on PostgreSQL: once its notification arrived), and a deleted zone is gone.
// Both databases.
const { app, database } = await buildTestApp();
const { db } = database;
const operatorId = await defaultOperatorId(db);
const near = { operatorId, ...CENTRE, radiusM: 2000, limit: 20 };
/**
 * Over HTTP on PostgreSQL the app trusts its zones until the change's notification arrives (within
 * milliseconds: test/zone-set-notify.test.ts); on PGlite the next request sees it (the first poll).
 */
const told = { timeout: 2000, interval: 5 };
const nearbyOverHttp = async () => {
  const res = await app.inject({ method: 'GET', url: `/api/Parking/Zones/Nearby?lat=${CENTRE.lat}&lng=${CENTRE.lng}` });
  expect(res.statusCode).toBe(200);
  return res.json<Zone[]>();
};

describe('the zone cache behind nearby zones', () => {
  it('answers a zone shown before from memory: the same row object, not read again', async () => {
    await addZone(db, 'C1');
    const cache = new ZoneCache();
    const [first] = await nearby(db, cache, near);
    const [again] = await nearby(db, cache, near);
    expect(first!.zone.zoneNumber).toBe('C1');
    expect(again!.zone).toBe(first!.zone);
    // Another cache (another server) reads its own.
    const [elsewhere] = await nearby(db, new ZoneCache(), near);
    expect(elsewhere!.zone).not.toBe(first!.zone);
    expect(elsewhere!.zone).toEqual(first!.zone);
  });

  it('shows an edit made outside the app on the next request: rate, name and paid days', async () => {
    const id = await addZone(db, 'C2', { lat: CENTRE.lat + 0.001 });
    const before = (await nearbyOverHttp()).find((z) => z.ZoneId === id);
    expect(before).toMatchObject({ RatePerHour: 2.5, Name: 'Zone C2', PaidDays: [1, 2, 3, 4, 5, 6, 7] });
    await db.execute(sql`update zones set rate_cents = 475, name = 'Renamed', paid_days = '{1,2}' where id = ${id}`);
    await expect
      .poll(async () => (await nearbyOverHttp()).find((z) => z.ZoneId === id), told)
      .toMatchObject({ RatePerHour: 4.75, Name: 'Renamed', PaidDays: [1, 2] });
  });

  it('leaves out a zone deleted after it was cached, and one moved out of reach', async () => {
    const gone = await addZone(db, 'C3', { lat: CENTRE.lat + 0.002 });
    const moved = await addZone(db, 'C4', { lat: CENTRE.lat + 0.003 });
    const ids = (await nearbyOverHttp()).map((z) => z.ZoneId);
    expect(ids).toEqual(expect.arrayContaining([gone, moved]));
    await db.delete(zones).where(eq(zones.id, gone));
    await db
      .update(zones)
      .set({ lat: CENTRE.lat + 0.5 })
      .where(eq(zones.id, moved));
    await expect.poll(async () => (await nearbyOverHttp()).map((z) => z.ZoneId), told).not.toContain(gone);
    const now = (await nearbyOverHttp()).map((z) => z.ZoneId);
    expect(now).not.toContain(gone);
    expect(now).not.toContain(moved);
  });

  it('keeps at most its size, dropping the least recently used zone', async () => {
    const [one, two] = await zonesByIds(db, [await addZone(db, 'C5'), await addZone(db, 'C6')]);
    const ref = (z: { id: number; version: string }) => ({ id: z.id, version: z.version });
    const cache = new ZoneCache({ maxZones: 1 });
    const [a] = await cache.records(db, [ref(one!)]);
    const [b] = await cache.records(db, [ref(one!)]);
    expect(b).toBe(a);
    // A second zone through a cache of one: the first is dropped and read again next time.
    await cache.records(db, [ref(two!)]);
    const [c] = await cache.records(db, [ref(one!)]);
    expect(c).not.toBe(a);
    expect(c).toEqual(a);
  });
});
