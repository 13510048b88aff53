import { afterAll, describe, expect, it } from 'vitest';
import { operators } from '../src/db/schema/index.ts';
import { ZoneCache } from '../src/zones/zone-cache.ts';
import { insertZones, nearby, type NewZone } from '../src/zones/zone-repository.ts';
import { freshDatabase } from './helpers.ts';
import { zoneAt } from './parking-helpers.ts';

// Nearby() searches the operator's zones held in memory (a k-d tree in great-circle
// order), or, for an operator with more zones than a process holds, scans a Mercator point index
// (not distance order) and proves its answer, or reads more. Either way it must answer exactly what
// measuring every zone would: zones piled on one spot, a ring of them at one distance, the
// antimeridian, a pole. Both databases.
const database = await freshDatabase();
afterAll(() => database.close());
const { db } = database;
const [operator] = await db
  .insert(operators)
  .values({ name: 'Everywhere', city: 'Austin', state: 'TX', lat: 30.2672, lng: -97.7431, timezone: 'America/Chicago' })
  .returning();
const operatorId = operator!.id;

const R = 6_371_008.8;
const rad = (d: number) => (d * Math.PI) / 180;
const deg = (r: number) => (r * 180) / Math.PI;
function haversine(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const h =
    Math.sin(rad(b.lat - a.lat) / 2) ** 2 +
    Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(rad(b.lng - a.lng) / 2) ** 2;
  return 2 * R * Math.asin(Math.min(1, Math.sqrt(h)));
}
function destination(
  from: { lat: number; lng: number },
  metres: number,
  bearingDeg: number,
): { lat: number; lng: number } {
  const d = metres / R;
  const b = rad(bearingDeg);
  const lat = Math.asin(Math.sin(rad(from.lat)) * Math.cos(d) + Math.cos(rad(from.lat)) * Math.sin(d) * Math.cos(b));
  const lng =
    rad(from.lng) +
    Math.atan2(
      Math.sin(b) * Math.sin(d) * Math.cos(rad(from.lat)),
      Math.cos(d) - Math.sin(rad(from.lat)) * Math.sin(lat),
    );
  return { lat: deg(lat), lng: ((deg(lng) + 540) % 360) - 180 };
}
/** A deterministic generator (mulberry32), so a failure can be run again. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const AUSTIN = { lat: 30.2672, lng: -97.7431 };
const SPOT = destination(AUSTIN, 1200, 60);
const FIJI = { lat: -16.8, lng: 179.995 };
const NORTH = { lat: 89.995, lng: 20 };
/** Far north, Mercator's scale grows fast northward: zones 1 km north look farther than zones 1,000.2 m south. */
const HAMMERFEST = { lat: 70.66, lng: 23.68 };
const next = random(42);
const places: { lat: number; lng: number }[] = [
  // Scattered over 6 km around downtown.
  ...Array.from({ length: 400 }, () => destination(AUSTIN, 6000 * Math.sqrt(next()), 360 * next())),
  // Thirty zones at one spot (a garage's levels), and a ring of forty at exactly 800 m from the centre.
  ...Array.from({ length: 30 }, () => SPOT),
  ...Array.from({ length: 40 }, (_, i) => destination(AUSTIN, 800, i * 9)),
  // Both sides of the antimeridian, and around the north pole.
  ...Array.from({ length: 60 }, () => destination(FIJI, 4000 * Math.sqrt(next()), 360 * next())),
  ...Array.from({ length: 40 }, () => destination(NORTH, 3000 * Math.sqrt(next()), 360 * next())),
  ...Array.from({ length: 20 }, (_, i) => destination(HAMMERFEST, 1000, i - 10)),
  ...Array.from({ length: 20 }, (_, i) => destination(HAMMERFEST, 1000.2, 170 + i)),
];
const zones: NewZone[] = places.map((p, i) => zoneAt(`X${i}`, `${i} Any St`, p));
await insertZones(db, operatorId, zones);
const byNumber = new Map(zones.map((z) => [z.zoneNumber, z]));

/** The answer by measuring every zone: the distances of the nearest `limit` within the radius. */
function expected(at: { lat: number; lng: number }, radiusM: number, limit: number): number[] {
  return zones
    .map((z) => haversine(at, z))
    .filter((d) => d <= radiusM * (1 - 1e-9))
    .sort((a, b) => a - b)
    .slice(0, limit);
}

const queries: [string, { lat: number; lng: number }, number, number][] = [
  ['downtown, 20 within 2 km', AUSTIN, 2000, 20],
  ['downtown, 100 within 10 km', AUSTIN, 10_000, 100],
  ['the ring: 20 of 40 at one distance', AUSTIN, 900, 20],
  ['the pile: 5 of 30 at one spot', SPOT, 500, 5],
  ['beside the pile, 12', destination(SPOT, 30, 200), 300, 12],
  ['across the antimeridian', FIJI, 5000, 25],
  ['the antimeridian, west side', { lat: -16.8, lng: -179.998 }, 3000, 10],
  ['around the pole', NORTH, 5000, 15],
  ['far north, where Mercator order is not distance order', HAMMERFEST, 2000, 10],
  ['nothing near', { lat: 0, lng: 0 }, 10_000, 20],
];

const searches: [string, () => ZoneCache][] = [
  ['held in memory', () => new ZoneCache()],
  ['from the database’s index (more zones than a process holds)', () => new ZoneCache({ maxMapped: 0 })],
];

describe.each(searches)('nearby zones are the exact nearest, wherever they are, %s', (_, zoneCache) => {
  it.each(queries)('%s', async (_, at, radiusM, limit) => {
    const hits = await nearby(db, zoneCache(), { operatorId, ...at, radiusM, limit });
    const want = expected(at, radiusM, limit);
    expect(hits.map((h) => h.distanceM!)).toHaveLength(want.length);
    hits.forEach((h, i) => {
      expect(Math.abs(h.distanceM! - want[i]!)).toBeLessThan(1e-6 * Math.max(1, want[i]!));
      // The zone really is at that distance (ties may come in any order).
      expect(Math.abs(haversine(at, byNumber.get(h.zone.zoneNumber)!) - h.distanceM!)).toBeLessThan(
        1e-6 * Math.max(1, h.distanceM!),
      );
    });
    expect(new Set(hits.map((h) => h.zone.id)).size).toBe(hits.length);
  });

  it('answers 300 random positions and radii as measuring every zone does', async () => {
    const cache = zoneCache();
    const r = random(7);
    const centres = [AUSTIN, SPOT, FIJI, NORTH, HAMMERFEST];
    for (let i = 0; i < 300; i++) {
      const at = destination(centres[i % 5]!, 8000 * r(), 360 * r());
      const radiusM = 1 + Math.floor(10_000 * r() ** 2);
      const limit = 1 + Math.floor(100 * r() ** 2);
      const hits = await nearby(db, cache, { operatorId, ...at, radiusM, limit });
      const want = expected(at, radiusM, limit);
      const got = hits.map((h) => h.distanceM!);
      expect(got.length, JSON.stringify({ at, radiusM, limit })).toBe(want.length);
      got.forEach((d, k) => expect(Math.abs(d - want[k]!)).toBeLessThan(1e-6 * Math.max(1, d)));
    }
  });
});
