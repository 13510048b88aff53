import type { ZoneCurb } from '@parkit/contract';

/** A GeoJSON position: [longitude, latitude]. */
export type LngLat = [number, number];
export type CurbKind = ZoneCurb['type'];

/** Six decimals: about 10 cm, as precise as a click on a street map can be. */
const round = (v: number) => Math.round(v * 1e6) / 1e6;

/**
 * The curb the vertices drawn so far make: a line from 2 points, an area (its ring closed on its
 * first point, as GeoJSON wants) from 3; fewer is no curb yet.
 */
export function curbOf(kind: CurbKind, vertices: readonly LngLat[]): ZoneCurb | null {
  const points = vertices.map(([lng, lat]) => [round(lng), round(lat)]);
  if (kind === 'LineString') return points.length >= 2 ? { type: 'LineString', coordinates: points } : null;
  if (points.length < 3) return null;
  return { type: 'Polygon', coordinates: [[...points, points[0]!]] };
}

/** The vertices to edit of a stored curb: a line's points, an area's outer ring without its closing point. */
export function verticesOf(curb: ZoneCurb | null): LngLat[] {
  if (!curb) return [];
  const points = curb.type === 'LineString' ? curb.coordinates : (curb.coordinates[0]?.slice(0, -1) ?? []);
  return points.map(([lng, lat]) => [lng!, lat!]);
}
