import { describe, expect, it } from 'vitest';
import {
  angleOfChord,
  earthPoint,
  EARTH_CUBE_RADIUS_M,
  MEAN_EARTH_RADIUS_M,
  mercator,
  mercatorSearch,
  metresOfChord,
  provenNearest,
} from './earth.ts';

const rad = (d: number) => (d * Math.PI) / 180;
function haversine(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const h =
    Math.sin(rad(lat2 - lat1) / 2) ** 2 +
    Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * Math.sin(rad(lng2 - lng1) / 2) ** 2;
  return 2 * MEAN_EARTH_RADIUS_M * Math.asin(Math.sqrt(h));
}

describe('earth geometry', () => {
  it('puts points on the sphere of earth()', () => {
    const [x, y, z] = earthPoint(30.2672, -97.7431);
    expect(Math.hypot(x, y, z)).toBeCloseTo(EARTH_CUBE_RADIUS_M, 3);
    expect(earthPoint(0, 0)).toEqual([EARTH_CUBE_RADIUS_M, 0, 0]);
  });

  it('turns the chord between two points into their great-circle distance', () => {
    const pairs = [
      [30.2672, -97.7431, 30.2747, -97.7404],
      [30.2672, -97.7431, 30.5, -97.9],
      [51.5, -0.12, 40.71, -74.0],
    ] as const;
    for (const [a, b, c, d] of pairs) {
      const [x1, y1, z1] = earthPoint(a, b);
      const [x2, y2, z2] = earthPoint(c, d);
      const metres = metresOfChord(Math.hypot(x1 - x2, y1 - y2, z1 - z2));
      expect(Math.abs(metres - haversine(a, b, c, d))).toBeLessThan(1e-6 * Math.max(1, metres));
    }
  });

  it('measures chords as great-circle angles, clamped to half the globe', () => {
    for (const m of [0, 1, 2000, 50_000, 5_000_000])
      expect(
        angleOfChord(2 * EARTH_CUBE_RADIUS_M * Math.sin(m / MEAN_EARTH_RADIUS_M / 2)) * MEAN_EARTH_RADIUS_M,
      ).toBeCloseTo(m, 6);
    expect(angleOfChord(3 * EARTH_CUBE_RADIUS_M)).toBeCloseTo(Math.PI, 12);
    expect(metresOfChord(2 * EARTH_CUBE_RADIUS_M)).toBeCloseTo(Math.PI * MEAN_EARTH_RADIUS_M, 6);
  });
});

type Box = [[number, number], [number, number]];
const boxes = (s: { boxes: string[] }): Box[] =>
  s.boxes.map(
    (b) =>
      b
        .slice(1, -1)
        .split('),(')
        .map((p) => p.split(',').map(Number)) as Box,
  );
const inside = (bs: Box[], [x, y]: [number, number]) =>
  bs.some(([[x1, y1], [x2, y2]]) => x >= x1 && x <= x2 && y >= y1 && y <= y2);
/** The point `metres` from (lat, lng) on a bearing (spherical destination formula). */
function destination(lat: number, lng: number, metres: number, bearingDeg: number): [number, number] {
  const d = metres / MEAN_EARTH_RADIUS_M;
  const b = rad(bearingDeg);
  const lat2 = Math.asin(Math.sin(rad(lat)) * Math.cos(d) + Math.cos(rad(lat)) * Math.sin(d) * Math.cos(b));
  const lng2 =
    rad(lng) +
    Math.atan2(Math.sin(b) * Math.sin(d) * Math.cos(rad(lat)), Math.cos(d) - Math.sin(rad(lat)) * Math.sin(lat2));
  return [(lat2 * 180) / Math.PI, (((lng2 * 180) / Math.PI + 540) % 360) - 180];
}

describe('the Mercator search', () => {
  it('holds every point of the circle in its box, and the box stays near the circle', () => {
    for (const [lat, lng, r] of [
      [30.2672, -97.7431, 2000],
      [-33.87, 151.21, 10_000],
      [64.15, -21.94, 10_000],
      [0, 0, 1],
      [78.22, 15.65, 10_000],
    ] as const) {
      const s = mercatorSearch(lat, lng, r);
      expect(s.knn).toBe(true);
      expect(s.boxes).toHaveLength(1);
      for (let bearing = 0; bearing < 360; bearing += 7.5)
        expect(inside(boxes(s), mercator(...destination(lat, lng, r * 0.9999, bearing)))).toBe(true);
      const [[x1, y1], [x2, y2]] = boxes(s)[0]!;
      if (r > 100) expect(inside(boxes(s), mercator(...destination(lat, lng, r * 1.2, 0)))).toBe(false);
      expect((x2 - x1) * Math.cos(rad(lat))).toBeLessThan((2.01 * r) / MEAN_EARTH_RADIUS_M + 1e-8);
      expect(y2 - y1).toBeGreaterThan(0);
    }
  });

  it('splits the box across the antimeridian, and reads every longitude around a pole, with no k-nearest scan', () => {
    const fiji = mercatorSearch(-16.8, 179.99, 5000);
    expect(fiji.knn).toBe(false);
    expect(fiji.boxes).toHaveLength(2);
    for (let bearing = 0; bearing < 360; bearing += 15)
      expect(inside(boxes(fiji), mercator(...destination(-16.8, 179.99, 4999, bearing)))).toBe(true);
    const pole = mercatorSearch(89.99, 10, 5000);
    expect(pole.knn).toBe(false);
    for (let bearing = 0; bearing < 360; bearing += 15)
      expect(inside(boxes(pole), mercator(...destination(89.99, 10, 4999, bearing)))).toBe(true);
  });

  it('proves a scan only when no zone it did not reach can be nearer', () => {
    const seen = (angles: number[]) =>
      angles.map((a) => ({
        angle: a / MEAN_EARTH_RADIUS_M,
        mercatorDistance: a / MEAN_EARTH_RADIUS_M / Math.cos(0.5),
      }));
    const radius = 2000 / MEAN_EARTH_RADIUS_M;
    // Fewer rows than wanted: the scan read the whole box.
    expect(provenNearest(seen([10, 20]), 7, 2, radius, 28.65)).toBe(true);
    // The last row read is well past the second nearest.
    expect(provenNearest(seen([10, 20, 30]), 3, 2, radius, 28.65)).toBe(true);
    // The last row read is at the same spot as the second nearest: a zone not read could tie it.
    expect(provenNearest(seen([10, 20, 20]), 3, 2, radius, 28.65)).toBe(false);
    // Too few within the radius, and the last row read just past it: a row not read could be within it.
    expect(provenNearest(seen([10, 1990, 2000.05]), 3, 3, radius, 28.65)).toBe(false);
    expect(provenNearest(seen([10, 1990, 2100]), 3, 3, radius, 28.65)).toBe(true);
  });
});
