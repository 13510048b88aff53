import KDBush from 'kdbush';
import { around } from 'geokdbush';

/** The earth's radius geokdbush measures with (km); it compares angles, so only the unit matters. */
const GEOKDBUSH_EARTH_KM = 6371;
/** Points per leaf of the k-d tree: 22 of 1,200 zones in ~13 µs, against ~16 with kdbush's default of 64. */
const NODE_SIZE = 16;
/** A hair of slack for floating point: geokdbush's haversine and earth.ts's chord round differently. */
const SLACK = 1e-9;

/** A zone's id and row version (a ZoneRef), where it is. */
export interface ZonePoint {
  id: number;
  version: string;
  lat: number;
  lng: number;
}

/**
 * One operator's zones as points on the globe, at one version of the set (zone_set_versions): a
 * k-d tree (kdbush) searched in great-circle order (geokdbush), so a nearby search reads no index
 * of the database. geokdbush's order is exact: it measures every point it returns and visits the
 * tree's boxes by a lower bound of their distance, across the antimeridian and the poles too.
 */
export class ZoneMap {
  private readonly index: KDBush | null;

  constructor(
    readonly version: number,
    private readonly points: readonly ZonePoint[],
  ) {
    if (points.length === 0) {
      this.index = null;
      return;
    }
    this.index = new KDBush(points.length, NODE_SIZE);
    for (const p of points) this.index.add(p.lng, p.lat);
    this.index.finish();
  }

  /** At most `count` zones within `radius` (an angle, radians) of a position, nearest first. */
  nearest(lat: number, lng: number, count: number, radius: number): ZonePoint[] {
    if (!this.index) return [];
    return around(this.index, lng, lat, count, radius * GEOKDBUSH_EARTH_KM * (1 + SLACK)).map((i) => this.points[i]!);
  }
}
