/**
 * The zone benchmark's data: deterministic (mulberry32) positions spread like a metro area's
 * parking, and attributes derived from each zone's index so any batch can be made on its own.
 */
import type { NewZone } from '@parkit/server/src/zones/zone-repository.ts';
import { mulberry32 } from '@parkit/server/src/seeds/random.ts';

export { mulberry32 };

export interface Points {
  lat: Float64Array;
  lng: Float64Array;
}

/** Zone i has number FIRST_NUMBER + i. */
export const FIRST_NUMBER = 100_000;
export const CENTRE = { lat: 30.2672, lng: -97.7431 };
const M_PER_DEG_LAT = 111_132;
const M_PER_DEG_LNG = 111_320 * Math.cos((CENTRE.lat * Math.PI) / 180);
const STREETS = [
  'Congress Ave',
  'Lamar Blvd',
  'Guadalupe St',
  'Burnet Rd',
  'Airport Blvd',
  'Riverside Dr',
  'Cesar Chavez St',
  'Oltorf St',
  'William Cannon Dr',
  'Slaughter Ln',
  'Parmer Ln',
  'Anderson Mill Rd',
  'Manor Rd',
  'Pleasant Valley Rd',
  'Springdale Rd',
  'Red River St',
  'Duval St',
  'Koenig Ln',
  'Cameron Rd',
  'Ben White Blvd',
];

/**
 * Points like a metro area's parking: 10% in a dense downtown (sigma 800 m), 40% around 16
 * neighbourhood centres (sigma 2 km), 50% spread over the 60 x 60 km box.
 */
export function metroPoints(count: number, seed: number): Points {
  const rng = mulberry32(seed);
  const centres = mulberry32(7);
  const hubs = Array.from({ length: 16 }, () => ({ x: (centres() - 0.5) * 50_000, y: (centres() - 0.5) * 50_000 }));
  const gauss = () => Math.sqrt(-2 * Math.log(1 - rng())) * Math.cos(2 * Math.PI * rng());
  const lat = new Float64Array(count);
  const lng = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const r = rng();
    let x: number;
    let y: number;
    if (r < 0.1) [x, y] = [gauss() * 800, gauss() * 800];
    else if (r < 0.5) {
      const hub = hubs[Math.floor(rng() * hubs.length)]!;
      [x, y] = [hub.x + gauss() * 2000, hub.y + gauss() * 2000];
    } else [x, y] = [(rng() - 0.5) * 60_000, (rng() - 0.5) * 60_000];
    lat[i] = Math.round((CENTRE.lat + y / M_PER_DEG_LAT) * 1e6) / 1e6;
    lng[i] = Math.round((CENTRE.lng + x / M_PER_DEG_LNG) * 1e6) / 1e6;
  }
  return { lat, lng };
}

/**
 * The points in Z-order of 500 m cells. Operators number and import zones area by area (the demo
 * data goes street by street), so rows of neighbouring zones share table pages; a random order
 * would make every one of the 20 nearest zones a page read of its own.
 */
export function byArea(points: Points): Points {
  const n = points.lat.length;
  const spread = (v: number) => {
    let x = v & 0xff;
    x = (x | (x << 4)) & 0x0f0f;
    x = (x | (x << 2)) & 0x3333;
    return (x | (x << 1)) & 0x5555;
  };
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const cx = Math.max(0, Math.min(255, Math.floor(((points.lng[i]! - CENTRE.lng) * M_PER_DEG_LNG + 32_000) / 500)));
    const cy = Math.max(0, Math.min(255, Math.floor(((points.lat[i]! - CENTRE.lat) * M_PER_DEG_LAT + 32_000) / 500)));
    keys[i] = (spread(cx) | (spread(cy) << 1)) * 2 ** 21 + i;
  }
  keys.sort();
  const lat = new Float64Array(n);
  const lng = new Float64Array(n);
  keys.forEach((k, j) => {
    const i = k % 2 ** 21;
    lat[j] = points.lat[i]!;
    lng[j] = points.lng[i]!;
  });
  return { lat, lng };
}

/** Zone i's attributes, from a generator seeded by i, so any batch can be made on its own. */
export function zoneAt(i: number, points: Points): NewZone {
  const rng = mulberry32(i * 2_654_435_761);
  const street = STREETS[Math.floor(rng() * STREETS.length)]!;
  const house = 100 + Math.floor(rng() * 9900);
  const kind = rng() < 0.8 ? 'street' : rng() < 0.6 ? 'lot' : 'garage';
  return {
    zoneNumber: String(FIRST_NUMBER + i),
    name: `${street} ${Math.floor(house / 100) * 100} block`,
    address: `${house} ${street}`,
    city: 'Austin',
    state: 'TX',
    zip: String(78701 + Math.floor(rng() * 60)),
    lat: points.lat[i]!,
    lng: points.lng[i]!,
    kind,
    rateCents: 100 + 25 * Math.floor(rng() * 30),
    maxStayMinutes: [60, 120, 180, 240, 600][Math.floor(rng() * 5)]!,
    paidDays: rng() < 0.7 ? [1, 2, 3, 4, 5, 6] : [1, 2, 3, 4, 5, 6, 7],
    paidFromMinute: 480,
    paidUntilMinute: rng() < 0.5 ? 1080 : 1440,
    capacity: kind === 'street' ? 6 + Math.floor(rng() * 20) : 50 + Math.floor(rng() * 500),
  };
}
