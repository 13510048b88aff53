import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_NEARBY_RADIUS_M, type Operator, type Zone } from '@parkit/contract';
import { queryRows } from '../../../src/db/client.ts';
import { operators, zones } from '../../../src/db/schema/index.ts';
import { defaultOperatorId } from '../../../src/zones/operator-repository.ts';
import {
  EARTH_CUBE_RADIUS_M,
  earthPoint,
  MEAN_EARTH_RADIUS_M,
  mercator,
  metresOfChord,
} from '../../../src/zones/earth.ts';
import { formatClock, localTime } from '../../../src/zones/paid-hours.ts';
import { insertZones, nearbyQuery } from '../../../src/zones/zone-repository.ts';
import { as, buildTestApp, registerAndSignIn } from '../../helpers.ts';
import { CENTRE, zoneAt } from '../../parking-helpers.ts';

const { app, database } = await buildTestApp();
const db = database.db;
const me = await registerAndSignIn(app);

const R = 6_371_008.8;
const rad = (d: number) => (d * Math.PI) / 180;

/** Haversine distance in metres, the test's own reference for the server's great-circle distances. */
function haversine(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const h =
    Math.sin(rad(b.lat - a.lat) / 2) ** 2 +
    Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(rad(b.lng - a.lng) / 2) ** 2;
  return 2 * R * Math.asin(Math.sqrt(h));
}

/** The point `metres` away from CENTRE on a bearing (spherical destination formula). */
function offset(metres: number, bearingDeg: number): { lat: number; lng: number } {
  const d = metres / R;
  const b = rad(bearingDeg);
  const lat1 = rad(CENTRE.lat);
  const lat2 = Math.asin(Math.sin(lat1) * Math.cos(d) + Math.cos(lat1) * Math.sin(d) * Math.cos(b));
  const lng2 =
    rad(CENTRE.lng) +
    Math.atan2(Math.sin(b) * Math.sin(d) * Math.cos(lat1), Math.cos(d) - Math.sin(lat1) * Math.sin(lat2));
  return { lat: (lat2 * 180) / Math.PI, lng: (lng2 * 180) / Math.PI };
}

const zone = zoneAt;

// Distances chosen away from the radii asked about below, so rounding never decides a test.
const RING = [37, 120, 260, 410, 640, 905, 1250, 1600, 1850, 2300, 3100, 4500, 7000, 12_000, 30_000];
const ringZones = RING.map((m, i) => zone(String(2001 + i), `${100 + i * 2} Ring Rd`, offset(m, (i * 137) % 360)));

// Paid hours around the current Chicago time: one zone paid now, one paid only later.
const nowLocal = localTime(new Date(), 'America/Chicago');
const wrap = (m: number) => ((m % 1440) + 1440) % 1440;
const paidNowUntil = wrap(nowLocal.minute + 60) || 1440;
const paidLaterFrom = wrap(nowLocal.minute + 60);
const paidLaterUntil = wrap(nowLocal.minute + 120) || 1440;

const named = [
  zone('1001', '117 Congress Ave', offset(300, 10), { name: 'Congress Ave 100 block (west side)' }),
  zone('10010', '901 Congress Ave', offset(1100, 5)),
  zone('1002', '410 Congress Ave', offset(700, 15)),
  zone('1003', '230 W 2nd St', offset(520, 250), {
    name: 'Republic Square Garage',
    kind: 'garage',
    rateCents: 900,
    maxStayMinutes: 1440,
    capacity: 400,
  }),
  zone('3001', '500 E 6th St', offset(800, 80), {
    paidFromMinute: wrap(nowLocal.minute - 60),
    paidUntilMinute: paidNowUntil,
  }),
  zone('3002', '502 E 6th St', offset(820, 80), { paidFromMinute: paidLaterFrom, paidUntilMinute: paidLaterUntil }),
  zone('3003', '504 E 6th St', offset(840, 80), { paidDays: [] }),
  zone('4001', '50% Off_Lot \\ Annex', offset(5000, 200), { name: 'Odd characters' }),
  zone('4002', '7 Offxlot Way', offset(6000, 200), { name: 'Wildcard bait' }),
];
const operatorId = await defaultOperatorId(db);
await insertZones(db, operatorId, [...ringZones, ...named]);

// Another operator's zone right at the centre: never shown to this operator's members.
const [other] = await db
  .insert(operators)
  .values({ name: 'Elsewhere', city: 'Dallas', state: 'TX', lat: 32.78, lng: -96.8, timezone: 'America/Chicago' })
  .returning();
await insertZones(db, other!.id, [zone('2001', '1 Centre St', CENTRE)]);

const get = (url: string) => as(app, me, { method: 'GET', url });
const nearby = (q: string) => get(`/api/Parking/Zones/Nearby?${q}`);
const search = (q: string) => get(`/api/Parking/Zones/Search?${q}`);
const all = [...ringZones, ...named];
const position = `lat=${CENTRE.lat}&lng=${CENTRE.lng}`;

describe('earth geometry', () => {
  it('matches the earthdistance extension (ll_to_earth, earth_distance)', async () => {
    const a = { lat: 30.2672, lng: -97.7431 };
    const b = offset(1500, 40);
    const [row] = await queryRows<{ x: number; y: number; z: number; d: number }>(
      db,
      sql`select cube_ll_coord(p, 1) as x, cube_ll_coord(p, 2) as y, cube_ll_coord(p, 3) as z,
        earth_distance(p, ll_to_earth(${b.lat}::float8, ${b.lng}::float8)) as d
        from (select ll_to_earth(${a.lat}::float8, ${a.lng}::float8) as p) s`,
    );
    const [x, y, z] = earthPoint(a.lat, a.lng);
    expect(
      [Number(row!.x), Number(row!.y), Number(row!.z)]
        .map((v, i) => v - [x, y, z][i]!)
        .every((e) => Math.abs(e) < 1e-6),
    ).toBe(true);
    // earth_distance is on the sphere of earth(); ours is on the mean radius: the same angle.
    const [bx, by, bz] = earthPoint(b.lat, b.lng);
    const ours = metresOfChord(Math.hypot(x - bx, y - by, z - bz));
    expect(ours / Number(row!.d)).toBeCloseTo(MEAN_EARTH_RADIUS_M / EARTH_CUBE_RADIUS_M, 9);
  });

  it('keeps each zone on the Mercator plane as mercator() puts it (the nearby index, earth.ts)', async () => {
    const rows = await queryRows<{ lat: number; lng: number; x: number; y: number }>(
      db,
      sql`select lat, lng, mercator[0] as x, mercator[1] as y from zones`,
    );
    expect(rows.length).toBeGreaterThan(10);
    for (const r of rows) {
      const [x, y] = mercator(Number(r.lat), Number(r.lng));
      expect(Math.abs(Number(r.x) - x)).toBeLessThan(1e-12);
      expect(Math.abs(Number(r.y) - y)).toBeLessThan(1e-12);
    }
  });
});

describe('the nearby query', () => {
  it('is a k-nearest scan of the GiST index, not a table scan', async () => {
    const plan = await db.transaction(async (tx) => {
      // A table of a few rows is cheaper to scan: make the planner show whether the index can serve.
      await tx.execute(sql`set local enable_seqscan = off`);
      const q = nearbyQuery(tx, { operatorId, ...CENTRE, radiusM: 2000, limit: 20 });
      return (await queryRows<Record<string, string>>(tx, sql`explain ${q}`))
        .map((r) => Object.values(r)[0])
        .join('\n');
    });
    expect(plan).toMatch(/Index Scan using zones_operator_mercator_idx/);
    expect(plan).toMatch(/Index Cond: .*operator_id/);
    expect(plan).toMatch(/Order By: .*<->/);
    expect(plan).toMatch(/Index Cond: .*<@/);
    expect(plan).not.toMatch(/Sort/);
  });
});

describe('GET /api/Parking/Operator', () => {
  it("gives the member's operator and its city centre", async () => {
    const res = await get('/api/Parking/Operator');
    expect(res.statusCode).toBe(200);
    expect(res.json<Operator>()).toEqual({
      ClientId: operatorId,
      Name: 'Austin Parking (demo)',
      City: 'Austin',
      State: 'TX',
      Latitude: 30.2672,
      Longitude: -97.7431,
      Timezone: 'America/Chicago',
    });
  });
});

describe('GET /api/Parking/Zones/Nearby', () => {
  it('lists the zones within 2 km nearest first, by true distance', async () => {
    const res = await nearby(`${position}&limit=100`);
    expect(res.statusCode).toBe(200);
    const body = res.json<Zone[]>();
    const expected = all
      .map((z) => ({ n: z.zoneNumber, d: haversine(CENTRE, z) }))
      .filter((z) => z.d <= 2000)
      .sort((a, b) => a.d - b.d);
    expect(body.map((z) => z.ZoneNumber)).toEqual(expected.map((z) => z.n));
    for (const [i, z] of body.entries()) {
      expect(Math.abs(z.DistanceMeters! - expected[i]!.d)).toBeLessThanOrEqual(Math.max(1, expected[i]!.d * 0.005));
      if (i > 0) expect(z.DistanceMeters!).toBeGreaterThanOrEqual(body[i - 1]!.DistanceMeters!);
    }
    expect(body.some((z) => z.ClientId !== operatorId)).toBe(false);
  });

  it('shows rate, maximum stay and the operator with each zone', async () => {
    const [first] = (await nearby(`${position}&limit=1`)).json<Zone[]>();
    expect(first).toMatchObject({
      ZoneNumber: '2001',
      RatePerHour: 2.5,
      MaxStayMinutes: 120,
      Capacity: 12,
      Kind: 'street',
      OperatorName: 'Austin Parking (demo)',
      Timezone: 'America/Chicago',
      PaidFrom: '00:00',
      PaidUntil: '24:00',
    });
    expect(first!.DistanceMeters).toBe(37);
  });

  it('keeps to the radius and the limit', async () => {
    const within500 = (await nearby(`${position}&radius=500`)).json<Zone[]>();
    expect(within500.map((z) => z.ZoneNumber)).toEqual(['2001', '2002', '2003', '1001', '2004']);
    const three = (await nearby(`${position}&radius=10000&limit=3`)).json<Zone[]>();
    expect(three.map((z) => z.ZoneNumber)).toEqual(['2001', '2002', '2003']);
    const wide = (await nearby(`${position}&radius=10000&limit=100`)).json<Zone[]>();
    // Everything but the rings past the cap (12 km and 30 km away).
    expect(wide).toHaveLength(all.length - RING.filter((m) => m > MAX_NEARBY_RADIUS_M).length);
    expect(wide.every((z) => z.DistanceMeters! <= MAX_NEARBY_RADIUS_M)).toBe(true);
    expect((await nearby('lat=0&lng=0')).json()).toEqual([]);
  });

  it('says whether payment is required now, from the paid hours in the operator time zone', async () => {
    const body = (await nearby(`${position}&radius=900&limit=100`)).json<Zone[]>();
    const byNumber = new Map(body.map((z) => [z.ZoneNumber, z]));
    expect(byNumber.get('3001')).toMatchObject({ PaymentRequiredNow: true, PaidUntilNow: formatClock(paidNowUntil) });
    expect(byNumber.get('3002')).toMatchObject({
      PaymentRequiredNow: false,
      PaidUntilNow: null,
      PaidFrom: formatClock(paidLaterFrom),
    });
    expect(byNumber.get('3003')).toMatchObject({ PaymentRequiredNow: false, PaidUntilNow: null, PaidDays: [] });
    // Paid around the clock: paid now, with no end in the next 24 hours.
    expect(byNumber.get('2001')).toMatchObject({ PaymentRequiredNow: true, PaidUntilNow: null });
  });

  it('refuses a radius past 10 km (MAX_NEARBY_RADIUS_M), saying so, and answers 10 km itself', async () => {
    for (const radius of [MAX_NEARBY_RADIUS_M + 1, 50_000]) {
      const res = await nearby(`${position}&radius=${radius}`);
      expect(res.statusCode).toBe(400);
      expect(res.json<{ errors: { field: string; message: string }[] }>().errors).toContainEqual(
        expect.objectContaining({ field: 'radius', message: 'radius must be at most 10 km' }),
      );
    }
    expect((await nearby(`${position}&radius=${MAX_NEARBY_RADIUS_M}`)).statusCode).toBe(200);
  });

  it.each([
    ['lat=91&lng=0', 'lat'],
    ['lat=-90.5&lng=0', 'lat'],
    ['lat=0&lng=180.1', 'lng'],
    ['lat=0&lng=-181', 'lng'],
    ['lat=NaN&lng=0', 'lat'],
    ['lat=abc&lng=0', 'lat'],
    ['lat=&lng=0', 'lat'],
    ['lat=Infinity&lng=0', 'lat'],
    ['lat=1&lat=2&lng=0', 'lat'],
    ['lng=0', 'lat'],
    ['lat=0', 'lng'],
    [`${position}&radius=10001`, 'radius'],
    [`${position}&radius=0`, 'radius'],
    [`${position}&radius=abc`, 'radius'],
    [`${position}&radius=1.5`, 'radius'],
    [`${position}&limit=101`, 'limit'],
    [`${position}&limit=0`, 'limit'],
    [`${position}&limit=ten`, 'limit'],
  ])('refuses %s with 400 naming %s', async (query, field) => {
    const res = await nearby(query);
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.json<{ errors: { field: string }[] }>().errors.map((e) => e.field)).toContain(field);
  });
});

describe('GET /api/Parking/Zones/Search', () => {
  const numbers = async (q: string) => (await search(q)).json<Zone[]>().map((z) => z.ZoneNumber);

  it('finds a zone number exactly, before numbers that start with it', async () => {
    expect(await numbers('q=1001')).toEqual(['1001', '10010']);
    expect(await numbers('q=%201002%20')).toEqual(['1002']);
    expect(await numbers('q=100')).toEqual(['1001', '10010', '1002', '1003']);
    expect(await numbers('q=999')).toEqual([]);
    // Another operator's 2001 is not found; this operator's is.
    const [found] = (await search('q=2001')).json<Zone[]>();
    expect(found).toMatchObject({ ZoneNumber: '2001', ClientId: operatorId, DistanceMeters: null });
  });

  it('finds a zone number with letters exactly, whatever the case, before the text matches', async () => {
    await insertZones(db, operatorId, [zone('PC-7A', '9 Lettered Lane', CENTRE)]);
    await insertZones(db, other!.id, [zone('PC-8B', '9 Lettered Lane', CENTRE)]);
    expect((await numbers('q=PC-7A'))[0]).toBe('PC-7A');
    expect((await numbers('q=pc-7a'))[0]).toBe('PC-7A');
    // Another operator's number is not found, and a prefix of one is not a number.
    expect(await numbers('q=PC-8B')).toEqual([]);
    expect(await numbers('q=PC-7')).not.toContain('PC-7A');
  });

  it('finds addresses and names by prefix, whatever the case', async () => {
    expect((await numbers('q=117%20congress'))[0]).toBe('1001');
    expect((await numbers('q=CONGRESS')).sort()).toEqual(['1001', '10010', '1002']);
    expect(await numbers('q=republic')).toEqual(['1003']);
  });

  it('tolerates a typo', async () => {
    expect((await numbers('q=Congres%20Ave')).slice(0, 3).sort()).toEqual(['1001', '10010', '1002']);
    expect((await numbers('q=Republik'))[0]).toBe('1003');
  });

  it('puts the nearest first when given a position', async () => {
    const body = (await search(`q=congress&${position}`)).json<Zone[]>();
    expect(body.map((z) => z.ZoneNumber)).toEqual(['1001', '1002', '10010']);
    expect(body.map((z) => z.DistanceMeters)).toEqual([300, 700, 1100]);
  });

  it('treats SQL and LIKE wildcards as plain text', async () => {
    expect((await numbers(`q=${encodeURIComponent('50% off')}`))[0]).toBe('4001');
    // As a wildcard, _ would also match 4002's "Offxlot".
    expect(await numbers(`q=${encodeURIComponent('off_lot')}`)).toEqual(['4001']);
    expect((await numbers(`q=${encodeURIComponent('lot \\ annex')}`))[0]).toBe('4001');
    for (const q of ['%', '_', '\\', '%%%', 'c%s']) expect(await numbers(`q=${encodeURIComponent(q)}`)).toEqual([]);
    expect(await numbers(`q=${encodeURIComponent("x' OR '1'='1")}`)).toEqual([]);
    expect(await numbers(`q=${encodeURIComponent("'); DROP TABLE zones; --")}`)).toEqual([]);
    expect(await numbers(`q=${'a'.repeat(100)}`)).toEqual([]);
    expect((await nearby(position)).statusCode).toBe(200);
  });

  it.each([
    ['', 'q'],
    ['q=', 'q'],
    ['q=%20%20', 'q'],
    ['q=a{101}', 'q'],
    ['q=a{10000}', 'q'],
    ['q=abc%00def', 'q'],
    ['q=tab%09here', 'q'],
    ['q=main&lat=30', 'lng'],
    ['q=main&lat=95&lng=0', 'lat'],
    ['q=main&limit=101', 'limit'],
  ])('refuses %s with 400 naming %s', async (query, field) => {
    // a{n}: n letters, spelled out here so the test name stays short.
    const res = await search(query.replace(/a\{(\d+)\}/, (_, n: string) => 'a'.repeat(Number(n))));
    expect(res.statusCode).toBe(400);
    expect(res.json<{ errors: { field: string }[] }>().errors.map((e) => e.field)).toContain(field);
  });

  it('never fails on any text', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 120, unit: 'binary' }), async (q) => {
        const res = await search(`q=${encodeURIComponent(q)}&${position}`);
        expect([200, 400]).toContain(res.statusCode);
      }),
      { numRuns: 60 },
    );
    for (const raw of ['%FF', '%ED%A0%80', '%', '%%41', '%E2%82'])
      expect((await search(`q=a${raw}`)).statusCode).toBeLessThan(500);
  });
});

describe('GET /api/Parking/Zones/:id', () => {
  it('gives one zone of the member’s operator', async () => {
    const [first] = (await search('q=1003')).json<Zone[]>();
    const res = await get(`/api/Parking/Zones/${first!.ZoneId}`);
    expect(res.statusCode).toBe(200);
    expect(res.json<Zone>()).toMatchObject({
      ZoneNumber: '1003',
      Name: 'Republic Square Garage',
      Kind: 'garage',
      RatePerHour: 9,
      DistanceMeters: null,
    });
  });

  it('answers 404 for an unknown zone or one of another operator', async () => {
    expect((await get('/api/Parking/Zones/999999')).statusCode).toBe(404);
    const [theirs] = await db.select({ id: zones.id }).from(zones).where(eq(zones.operatorId, other!.id));
    const res = await get(`/api/Parking/Zones/${theirs!.id}`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Not found' });
  });

  it.each(['abc', '0', '-1', '1.5', '99999999999'])('refuses id %s with 400', async (id) => {
    const res = await get(`/api/Parking/Zones/${id}`);
    expect(res.statusCode).toBe(400);
    expect(res.json<{ errors: { field: string }[] }>().errors[0]?.field).toBe('id');
  });
});

describe('access', () => {
  const urls = [
    '/api/Parking/Operator',
    `/api/Parking/Zones/Nearby?${position}`,
    '/api/Parking/Zones/Search?q=1001',
    '/api/Parking/Zones/1',
  ];

  it.each(urls)('lets a guest (no token) browse the default operator: %s', async (url) => {
    const res = await app.inject({ method: 'GET', url });
    expect([200, 404]).toContain(res.statusCode);
    if (url.endsWith('/Operator')) expect(res.json<Operator>().ClientId).toBe(operatorId);
  });

  it('shows a guest the same zones as a member of the default operator', async () => {
    const guest = await app.inject({ method: 'GET', url: '/api/Parking/Zones/Search?q=1001' });
    const member = await get('/api/Parking/Zones/Search?q=1001');
    expect(guest.json()).toEqual(member.json());
  });

  it.each(urls)('answers 401 to a token that is not valid: %s', async (url) => {
    const res = await app.inject({ method: 'GET', url, headers: { authorization: 'Bearer not-a-token' } });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: 'Unauthorized' });
  });

  it('documents the routes in the OpenAPI document', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json<{ paths: object }>().paths)).toEqual(
      expect.arrayContaining(['/api/Parking/Zones/Nearby', '/api/Parking/Zones/Search', '/api/Parking/Zones/{id}']),
    );
  });
});
