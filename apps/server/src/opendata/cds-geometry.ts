/**
 * A zone's place as a CDS Curb Zone geometry, which is always a GeoJSON Polygon (curbs.md, Curb
 * Zone; general-information.md, Polygon): the zone's curb Polygon as it is; its curb line as a
 * strip CURB_HALF_WIDTH_M either side of the line; a zone with a point only as a square
 * POINT_HALF_SIDE_M either side of it. Coordinates are rounded to 7 decimals (about 1 cm).
 */
import type { CdsPolygon } from './cds-types.ts';

export const CURB_HALF_WIDTH_M = 1.25;
export const POINT_HALF_SIDE_M = 5;
const M_PER_DEG_LAT = 111_320;

const round = (n: number) => Math.round(n * 1e7) / 1e7;
const mPerDegLng = (lat: number) => M_PER_DEG_LAT * Math.cos((lat * Math.PI) / 180);

type Curb = { type: 'LineString'; coordinates: number[][] } | { type: 'Polygon'; coordinates: number[][][] };

function square(lat: number, lng: number): number[][][] {
  const dy = POINT_HALF_SIDE_M / M_PER_DEG_LAT;
  const dx = POINT_HALF_SIDE_M / mPerDegLng(lat);
  const ring = [
    [lng - dx, lat - dy],
    [lng + dx, lat - dy],
    [lng + dx, lat + dy],
    [lng - dx, lat + dy],
    [lng - dx, lat - dy],
  ];
  return [ring];
}

/** The strip around a line: each point moved along the average normal of its segments, both sides. */
function strip(line: number[][]): number[][][] {
  const lat0 = line[0]![1]!;
  const kx = mPerDegLng(lat0);
  const xy = line.map(([lng, lat]) => [lng! * kx, lat! * M_PER_DEG_LAT] as const);
  const normals = xy.map((_, i) => {
    const a = xy[Math.max(0, i - 1)]!;
    const b = xy[Math.min(xy.length - 1, i + 1)]!;
    const dx = b[0] - a[0];
    const dy = b[1] - a[1];
    const len = Math.hypot(dx, dy) || 1;
    return [-dy / len, dx / len] as const;
  });
  const side = (sign: number) =>
    xy.map(([x, y], i) => [
      (x + sign * CURB_HALF_WIDTH_M * normals[i]![0]) / kx,
      (y + sign * CURB_HALF_WIDTH_M * normals[i]![1]) / M_PER_DEG_LAT,
    ]);
  const ring = [...side(1), ...side(-1).reverse()];
  ring.push(ring[0]!);
  return [ring];
}

export function zoneGeometry(zone: { lat: number; lng: number; curb: unknown }): CdsPolygon {
  const curb = zone.curb as Curb | null;
  const rings =
    curb?.type === 'Polygon'
      ? curb.coordinates
      : curb?.type === 'LineString'
        ? strip(curb.coordinates)
        : square(zone.lat, zone.lng);
  return { type: 'Polygon', coordinates: rings.map((r) => r.map(([lng, lat]) => [round(lng!), round(lat!)])) };
}

/** The polygon's outer ring without its closing point. */
const outer = (g: CdsPolygon) => g.coordinates[0]!.slice(0, -1);

/** The mean of the outer ring's points: where an imported zone's point goes. */
export function polygonCentre(g: CdsPolygon): { lat: number; lng: number } {
  const pts = outer(g);
  const lng = pts.reduce((s, p) => s + p[0]!, 0) / pts.length;
  const lat = pts.reduce((s, p) => s + p[1]!, 0) / pts.length;
  return { lat: round(lat), lng: round(lng) };
}

export interface Box {
  minLat: number;
  minLng: number;
  maxLat: number;
  maxLng: number;
}

/** Whether the polygon and the box share any point (general-information.md, Intersection Operation). */
export function intersectsBox(g: CdsPolygon, b: Box): boolean {
  const pts = g.coordinates[0]!;
  const lngs = pts.map((p) => p[0]!);
  const lats = pts.map((p) => p[1]!);
  if (Math.max(...lngs) < b.minLng || Math.min(...lngs) > b.maxLng) return false;
  if (Math.max(...lats) < b.minLat || Math.min(...lats) > b.maxLat) return false;
  // Bounding boxes meet: a vertex inside the box, a box corner inside the polygon, or edges crossing.
  const inBox = (p: number[]) => p[0]! >= b.minLng && p[0]! <= b.maxLng && p[1]! >= b.minLat && p[1]! <= b.maxLat;
  if (pts.some(inBox)) return true;
  const corners = [
    [b.minLng, b.minLat],
    [b.maxLng, b.minLat],
    [b.maxLng, b.maxLat],
    [b.minLng, b.maxLat],
  ];
  if (corners.some((c) => inRing(c, pts))) return true;
  const boxEdges = corners.map((c, i) => [c, corners[(i + 1) % 4]!] as const);
  for (let i = 0; i + 1 < pts.length; i++)
    for (const [c, d] of boxEdges) if (segmentsCross(pts[i]!, pts[i + 1]!, c, d)) return true;
  return false;
}

function inRing(p: number[], ring: number[][]): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]!;
    const [xj, yj] = ring[j]!;
    if (yi! > p[1]! !== yj! > p[1]! && p[0]! < ((xj! - xi!) * (p[1]! - yi!)) / (yj! - yi!) + xi!) inside = !inside;
  }
  return inside;
}

function segmentsCross(a: number[], b: number[], c: number[], d: number[]): boolean {
  const o = (p: number[], q: number[], r: number[]) =>
    Math.sign((q[0]! - p[0]!) * (r[1]! - p[1]!) - (q[1]! - p[1]!) * (r[0]! - p[0]!));
  return o(a, b, c) !== o(a, b, d) && o(c, d, a) !== o(c, d, b);
}

/**
 * The distance in metres from a point to the polygon (0 inside), on a plane around the point:
 * exact enough for the radius of a curb query (a few kilometres at most matter).
 */
export function distanceM(g: CdsPolygon, lat: number, lng: number): number {
  const kx = mPerDegLng(lat);
  const ring = g.coordinates[0]!;
  if (inRing([lng, lat], ring)) return 0;
  const xy = ring.map(([x, y]) => [(x! - lng) * kx, (y! - lat) * M_PER_DEG_LAT] as const);
  let best = Infinity;
  for (let i = 0; i + 1 < xy.length; i++) {
    const [ax, ay] = xy[i]!;
    const [bx, by] = xy[i + 1]!;
    const dx = bx - ax;
    const dy = by - ay;
    const len2 = dx * dx + dy * dy;
    const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, -(ax * dx + ay * dy) / len2));
    best = Math.min(best, Math.hypot(ax + t * dx, ay + t * dy));
  }
  return best;
}
