import { describe, expect, it } from 'vitest';
import { AUSTIN_STREETS } from './austin-streets.ts';
import { austinZonePoolSize, generateAustinZones, type ZoneKind, type ZoneSeed } from './austin-zones.ts';

const RATE: Record<ZoneKind, [number, number]> = { street: [150, 480], lot: [300, 800], garage: [400, 1200] };
const STAY: Record<ZoneKind, [number, number]> = { street: [120, 600], lot: [720, 1440], garage: [720, 1440] };
const CAPACITY: Record<ZoneKind, [number, number]> = { street: [6, 30], lot: [20, 300], garage: [150, 1200] };
const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;

const within = (x: number, [min, max]: [number, number]): boolean => Number.isInteger(x) && x >= min && x <= max;
const sixDecimals = (x: number): boolean => Math.round(x * 1e6) / 1e6 === x;

/** Distance in metres from a zone to the nearest street segment centreline. */
function distanceToStreetsM(z: ZoneSeed): number {
  const kLng = 111_320 * Math.cos((z.lat * Math.PI) / 180);
  const kLat = 111_132;
  let best = Infinity;
  for (const s of AUSTIN_STREETS) {
    const ax = (s.start.lng - z.lng) * kLng;
    const ay = (s.start.lat - z.lat) * kLat;
    const bx = (s.end.lng - z.lng) * kLng;
    const by = (s.end.lat - z.lat) * kLat;
    const dx = bx - ax;
    const dy = by - ay;
    const t = Math.max(0, Math.min(1, -(ax * dx + ay * dy) / (dx * dx + dy * dy)));
    best = Math.min(best, Math.hypot(ax + t * dx, ay + t * dy));
  }
  return best;
}

const zones = generateAustinZones();

/** Every zone passes `test`; a failure names the first few offenders. */
function expectAll(test: (z: ZoneSeed) => boolean): void {
  expect(zones.filter((z) => !test(z)).slice(0, 3)).toEqual([]);
}

describe('generateAustinZones (the demo dataset)', () => {
  it('has at least 1,000 zones on at least 60 real street segments', () => {
    expect(AUSTIN_STREETS.length).toBeGreaterThanOrEqual(60);
    expect(zones.length).toBeGreaterThanOrEqual(1000);
  });

  it('gives unique zone numbers, coordinates and addresses, starting with 1001 on Congress Ave', () => {
    expect(new Set(zones.map((z) => z.zoneNumber)).size).toBe(zones.length);
    expect(new Set(zones.map((z) => `${z.lat},${z.lng}`)).size).toBe(zones.length);
    expect(new Set(zones.map((z) => z.address)).size).toBe(zones.length);
    expect(zones[0]?.zoneNumber).toBe('1001');
    expect(zones[0]?.address).toMatch(/ Congress Ave$/);
  });

  it('places every zone in Austin, within 15 m of its street', () => {
    expectAll((z) => /^\d{4,5}$/.test(z.zoneNumber));
    expectAll((z) => z.lat >= 30.1 && z.lat <= 30.45 && z.lng >= -97.95 && z.lng <= -97.6);
    expectAll((z) => sixDecimals(z.lat) && sixDecimals(z.lng));
    expectAll((z) => distanceToStreetsM(z) < 15);
    expectAll((z) => z.city === 'Austin' && z.state === 'TX' && /^787\d\d$/.test(z.zip));
    expectAll((z) => /^\d+ \S.*$/.test(z.address));
    expectAll((z) => z.name.trim().length > 0);
  });

  it('keeps rates, stays and capacities plausible for the kind of zone', () => {
    expectAll((z) => within(z.rateCents, RATE[z.kind]));
    expectAll((z) => within(z.maxStayMinutes, STAY[z.kind]));
    expectAll((z) => within(z.capacity, CAPACITY[z.kind]));
  });

  it('writes paid days as ascending ISO weekdays and paid hours as HH:MM (always paid = 00:00-24:00)', () => {
    expectAll(
      (z) => z.paidDays.length > 0 && z.paidDays.every((d, i) => within(d, [1, 7]) && d > (z.paidDays[i - 1] ?? 0)),
    );
    expectAll(
      (z) => HHMM.test(z.paidFrom) && (HHMM.test(z.paidUntil) || (z.paidUntil === '24:00' && z.paidFrom === '00:00')),
    );
  });

  it('is deterministic, and a zone number means the same zone whatever the count', () => {
    expect(generateAustinZones()).toEqual(zones);
    const small = generateAustinZones(100);
    expect(small).toHaveLength(100);
    const byNumber = new Map(zones.map((z) => [z.zoneNumber, z]));
    for (const z of small) if (byNumber.has(z.zoneNumber)) expect(z).toEqual(byNumber.get(z.zoneNumber));
  });

  it('can produce the whole pool and refuses more', () => {
    expect(generateAustinZones(austinZonePoolSize())).toHaveLength(austinZonePoolSize());
    expect(() => generateAustinZones(austinZonePoolSize() + 1)).toThrow(RangeError);
  });
});
