import { describe, expect, it } from 'vitest';
import { chordOfMetres, earthCube, earthPoint, EARTH_CUBE_RADIUS_M, MEAN_EARTH_RADIUS_M, metresOfChord, searchCubes } from './earth.ts';

const rad = (d: number) => (d * Math.PI) / 180;
function haversine(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const h = Math.sin(rad(lat2 - lat1) / 2) ** 2 + Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * Math.sin(rad(lng2 - lng1) / 2) ** 2;
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

  it('round-trips metres through chords, clamped to half the globe', () => {
    for (const m of [0, 1, 2000, 50_000, 5_000_000]) expect(metresOfChord(chordOfMetres(m))).toBeCloseTo(m, 6);
    expect(chordOfMetres(1e9)).toBeCloseTo(2 * EARTH_CUBE_RADIUS_M, 6);
  });

  it('writes cube literals with the box around the circle', () => {
    const { centre, box, chord } = searchCubes(0, 0, 1000);
    expect(centre).toBe(earthCube(0, 0));
    expect(centre).toMatch(/^\([-\d.e+]+, [-\d.e+]+, [-\d.e+]+\)$/);
    expect(box.split('), (')).toHaveLength(2);
    expect(chord).toBeCloseTo(chordOfMetres(1000), 9);
  });
});
