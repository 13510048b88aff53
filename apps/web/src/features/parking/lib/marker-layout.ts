import Supercluster from 'supercluster';

/**
 * Where the map's markers go at one zoom so that no two labels overlap: zones whose
 * labels would touch are one group marker, at every zoom up to the map's deepest; the chosen zone
 * is always drawn alone, and a label that would cover it is left out until the driver zooms in.
 * Pure (Web Mercator pixels, no Leaflet), so it is tested at every zoom.
 */

/** The map's deepest zoom (MapContainer and TileLayer use it). */
export const MAX_ZOOM = 19;

/** A zone label's box in pixels (zoneIcon in zone-map.tsx). */
export const ZONE_LABEL: Size = { w: 48, h: 26 };

export interface Size {
  w: number;
  h: number;
}

/** A group marker's box: a circle that grows with the count (clusterIcon in zone-map.tsx). */
export function groupSize(count: number): Size {
  const d = count < 10 ? 36 : count < 100 ? 42 : 48;
  return { w: d, h: d };
}

export interface Point {
  id: number;
  lat: number;
  lng: number;
}

/** One marker: a zone (one id) or a group (several), at a position. */
export interface Spot {
  ids: number[];
  lat: number;
  lng: number;
}

const TILE = 256;
const MAX_LAT = 85.0511287798;

/** Web Mercator, as Leaflet's default CRS: degrees to pixels at a zoom. */
export function toPixel(lat: number, lng: number, zoom: number): { x: number; y: number } {
  const scale = TILE * 2 ** zoom;
  const phi = (Math.max(-MAX_LAT, Math.min(MAX_LAT, lat)) * Math.PI) / 180;
  return {
    x: (scale * (lng + 180)) / 360,
    y: (scale * (1 - Math.log(Math.tan(phi) + 1 / Math.cos(phi)) / Math.PI)) / 2,
  };
}

function toLatLng(x: number, y: number, zoom: number): { lat: number; lng: number } {
  const scale = TILE * 2 ** zoom;
  const n = Math.PI - (2 * Math.PI * y) / scale;
  return { lat: (180 / Math.PI) * Math.atan(Math.sinh(n)), lng: (x / scale) * 360 - 180 };
}

export const sizeOf = (spot: { ids: number[] }): Size =>
  spot.ids.length === 1 ? ZONE_LABEL : groupSize(spot.ids.length);

interface Placed {
  ids: number[];
  x: number;
  y: number;
}

const overlap = (a: Placed, b: Placed) => {
  const sa = sizeOf(a);
  const sb = sizeOf(b);
  return Math.abs(a.x - b.x) * 2 < sa.w + sb.w && Math.abs(a.y - b.y) * 2 < sa.h + sb.h;
};

/** Supercluster's index over the zones (built once per list; `spots` reads it at any zoom). */
export function markerIndex(points: Point[]) {
  const index = new Supercluster<{ ids: number[] }, { ids: number[] }>({
    radius: ZONE_LABEL.w,
    maxZoom: MAX_ZOOM,
    map: (p) => ({ ids: [...p.ids] }),
    reduce: (acc, p) => {
      acc.ids = acc.ids.concat(p.ids);
    },
  });
  index.load(
    points.map((p) => ({
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [p.lng, p.lat] },
      properties: { ids: [p.id] },
    })),
  );
  return index;
}

/**
 * The markers at `zoom`: supercluster's groups, then any two whose boxes still touch are merged
 * (a group's centre moves as it grows) until none do. `selected` is drawn alone; what would
 * cover it is left out.
 */
export function spots(index: ReturnType<typeof markerIndex>, zoom: number, selected: Point | null = null): Spot[] {
  const z = Math.max(0, Math.min(MAX_ZOOM, Math.round(zoom)));
  let placed: Placed[] = index.getClusters([-180, -MAX_LAT, 180, MAX_LAT], z).flatMap((f) => {
    const ids = f.properties.ids.filter((id) => id !== selected?.id);
    if (ids.length === 0) return [];
    const [lng, lat] = f.geometry.coordinates as [number, number];
    return [{ ids, ...toPixel(lat, lng, z) }];
  });
  for (let merged = true; merged;) {
    merged = false;
    outer: for (let i = 0; i < placed.length; i++) {
      for (let j = i + 1; j < placed.length; j++) {
        const a = placed[i]!;
        const b = placed[j]!;
        if (!overlap(a, b)) continue;
        const n = a.ids.length + b.ids.length;
        const group = {
          ids: [...a.ids, ...b.ids],
          x: (a.x * a.ids.length + b.x * b.ids.length) / n,
          y: (a.y * a.ids.length + b.y * b.ids.length) / n,
        };
        placed = [...placed.slice(0, i), group, ...placed.slice(i + 1, j), ...placed.slice(j + 1)];
        merged = true;
        break outer;
      }
    }
  }
  if (selected) {
    const chosen = { ids: [selected.id], ...toPixel(selected.lat, selected.lng, z) };
    placed = [...placed.filter((p) => !overlap(p, chosen)), chosen];
  }
  return placed.map((p) => ({ ids: p.ids, ...toLatLng(p.x, p.y, z) }));
}
