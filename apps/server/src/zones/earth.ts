/**
 * Positions on the globe, worked out in JS once per query. earthdistance puts points on a sphere of
 * radius earth() = 6,378,168 m as 3-D cubes (ll_to_earth) and measures chords between them: exact
 * great-circle order, used here to measure and by text search to order its matches (the centre
 * passed as a cube constant spares the planner folding nested SQL functions on every query). The
 * formulas are the extension's own (ll_to_earth, gc_to_sec, sec_to_gc); a test checks them against
 * it on both databases. Nearby search scans a Mercator point index instead (below).
 */

/** earthdistance's earth(): the sphere the cubes live on. */
export const EARTH_CUBE_RADIUS_M = 6_378_168;
/** Mean Earth radius: great-circle distances on it are closer to the truth at any latitude. */
export const MEAN_EARTH_RADIUS_M = 6_371_008.8;

const rad = (deg: number) => (deg * Math.PI) / 180;

/** ll_to_earth(lat, lng) as [x, y, z]. */
export function earthPoint(lat: number, lng: number): [number, number, number] {
  const R = EARTH_CUBE_RADIUS_M;
  return [
    R * Math.cos(rad(lat)) * Math.cos(rad(lng)),
    R * Math.cos(rad(lat)) * Math.sin(rad(lng)),
    R * Math.sin(rad(lat)),
  ];
}

/** The chord between two earth points: what cube's `<->` computes. */
export function chordBetween(a: readonly number[], b: readonly number[]): number {
  return Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!);
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

/**
 * The Mercator plane of the unit sphere, which zones.mercator holds and the GiST index
 * zones_operator_mercator_idx orders by (a `point` index answers a k-nearest scan about
 * three times faster than earthdistance's 3-D cubes). x is the longitude and y = asinh(tan(lat)),
 * both in radians, as the column's SQL computes them.
 */
export function mercator(lat: number, lng: number): [number, number] {
  return [rad(lng), Math.asinh(Math.tan(rad(lat)))];
}

/** The angle (radians) between two earth points: the great-circle distance on the unit sphere. */
export function angleOfChord(chord: number): number {
  return 2 * Math.asin(Math.min(1, Math.max(0, chord / (2 * EARTH_CUBE_RADIUS_M))));
}

/** A hair of slack for floating point (the database and JS round the same formulas differently). */
const SLACK = 1e-9;
const point = ([x, y]: readonly number[]) => `(${x!.toPrecision(17)},${y!.toPrecision(17)})`;
const box = (x1: number, y1: number, x2: number, y2: number) => `${point([x1, y1])},${point([x2, y2])}`;

export interface MercatorSearch {
  /** The position asked about, a point literal. */
  centre: string;
  /** Box literals that together hold every point within the radius (two across the antimeridian). */
  boxes: string[];
  /** One box: a k-nearest scan in Mercator order can be checked (provenNearest); else read the boxes whole. */
  knn: boolean;
  /** The radius as an angle (radians). */
  radius: number;
}

/**
 * The Mercator boxes around a position that hold its circle of radiusM. The circle's points are
 * within `radius` of the latitude, and within asin(sin(radius) / cos(lat)) of the longitude
 * unless the circle holds a pole (then every longitude).
 */
export function mercatorSearch(lat: number, lng: number, radiusM: number): MercatorSearch {
  const radius = radiusAngle(radiusM);
  const [x, y] = mercator(lat, lng);
  const phi = rad(lat);
  const south = Math.max(-Math.PI / 2, phi - radius);
  const north = Math.min(Math.PI / 2, phi + radius);
  const y1 = Math.asinh(Math.tan(south)) - SLACK * (1 + Math.abs(y));
  const y2 = Math.asinh(Math.tan(north)) + SLACK * (1 + Math.abs(y));
  const holdsPole = radius >= Math.PI / 2 - Math.abs(phi);
  const half = holdsPole ? Math.PI : Math.asin(Math.min(1, Math.sin(radius) / Math.cos(phi))) * (1 + SLACK) + SLACK;
  const centre = point([x, y]);
  if (holdsPole || half >= Math.PI)
    return { centre, boxes: [box(-Math.PI - SLACK, y1, Math.PI + SLACK, y2)], knn: false, radius };
  const [west, east] = [x - half, x + half];
  if (west < -Math.PI)
    return {
      centre,
      boxes: [box(-Math.PI - SLACK, y1, east, y2), box(west + 2 * Math.PI, y1, Math.PI + SLACK, y2)],
      knn: false,
      radius,
    };
  if (east > Math.PI)
    return {
      centre,
      boxes: [box(west, y1, Math.PI + SLACK, y2), box(-Math.PI - SLACK, y1, east - 2 * Math.PI, y2)],
      knn: false,
      radius,
    };
  return { centre, boxes: [box(west, y1, east, y2)], knn: true, radius };
}

/** A search's radius in metres as an angle (radians), at most half the globe. */
export function radiusAngle(radiusM: number): number {
  return Math.min(Math.PI, Math.max(0, radiusM / MEAN_EARTH_RADIUS_M));
}

/** A zone seen by a search: its exact angle from the position asked about, and its Mercator distance. */
export interface Seen {
  angle: number;
  mercatorDistance: number;
}

/**
 * Whether the first `wanted` rows of a k-nearest scan in Mercator order (`read` fewer: the scan read
 * every zone in the box) hold the true nearest `limit` within `radius` of a position at latitude `lat`.
 * Mercator is conformal with scale sec(latitude), so a zone at angle θ has Mercator distance at most
 * θ / cos(|lat| + θ) (the image of the great-circle arc to it is no longer). A zone nearer than D
 * (the limit-th angle, or the radius when fewer are within it) that the scan did not reach would
 * have a Mercator distance at least the scan's last one, so when that last one is past
 * D / cos(|lat| + D), no such zone exists.
 */
export function provenNearest(
  seen: readonly Seen[],
  wanted: number,
  limit: number,
  radius: number,
  lat: number,
  read = seen.length,
): boolean {
  if (read < wanted) return true;
  const within = seen
    .filter((s) => s.angle <= radius)
    .map((s) => s.angle)
    .sort((a, b) => a - b);
  const d = within.length >= limit ? within[limit - 1]! : radius;
  const reach = Math.min(Math.PI / 2, Math.abs(rad(lat)) + d);
  const last = Math.max(...seen.map((s) => s.mercatorDistance));
  return last * (1 - SLACK) > d / Math.cos(reach);
}
