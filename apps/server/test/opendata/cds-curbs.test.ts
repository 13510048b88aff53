import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { MESSAGES, type PolicyBodyInput } from '@parkit/contract';
import { buildTestApp, MANY_REQUESTS } from '../helpers.ts';
import { CENTRE, zoneAt } from '../parking-helpers.ts';
import { newOperator } from '../operator-helpers.ts';
import { defaultOperatorId, insertZones } from '../../src/zones/index.ts';
import { assignPolicy, savePolicyVersion } from '../../src/pricing/index.ts';
import { COMMAND_LINE } from '../../src/operators/index.ts';
import { zones } from '../../src/db/schema/index.ts';
import { CDS_MEDIA_TYPE, type CdsCurbZone, type CdsPolicy } from '../../src/opendata/index.ts';
import { expectCds } from './cds-schema.ts';

// The Curb Data Specification's Curbs API (docs/open-data.md): every answer validated against the
// JSON Schema written from the CDS documents; filters, paging, caching, bad queries; both databases.
const { app, database } = await buildTestApp(MANY_REQUESTS);
const { db } = database;
const A = await defaultOperatorId(db);
const B = await newOperator(db, 'Other Curbs Parking');

const east = { lat: CENTRE.lat, lng: CENTRE.lng + 0.01 }; // about 1 km east
await insertZones(db, A, [
  zoneAt('C1', '100 Congress Ave', CENTRE),
  {
    ...zoneAt('C2', '200 Lavaca St', { lat: CENTRE.lat + 0.001, lng: CENTRE.lng }),
    curb: {
      type: 'LineString',
      coordinates: [
        [CENTRE.lng, CENTRE.lat + 0.001],
        [CENTRE.lng + 0.0005, CENTRE.lat + 0.001],
      ],
    },
  },
  {
    ...zoneAt('C3', '300 East 6th St', east),
    curb: {
      type: 'Polygon',
      coordinates: [
        [
          [east.lng, east.lat],
          [east.lng + 0.0004, east.lat],
          [east.lng + 0.0004, east.lat + 0.0002],
          [east.lng, east.lat + 0.0002],
          [east.lng, east.lat],
        ],
      ],
    },
  },
  zoneAt('C4', '400 Retired Rd', CENTRE),
]);
await insertZones(db, B, [zoneAt('B1', '1 Other St', CENTRE)]);
await new Promise((r) => setTimeout(r, 20));
const [retiredRow] = await db
  .update(zones)
  .set({ retiredAt: new Date() })
  .where(eq(zones.zoneNumber, 'C4'))
  .returning({ at: zones.retiredAt });
/** A moment when C4 was valid, just before its retirement. */
const beforeRetired = retiredRow!.at!.getTime() - 5;
const zoneId = async (n: string) =>
  (await db.select({ id: zones.id }).from(zones).where(eq(zones.zoneNumber, n)))[0]!.id;

/** Weekdays 08:00-18:00, 10 free minutes, $2 the first hour then $3, permits exempt, EVs $1; nights 22:00-02:00 $1. */
const body: PolicyBodyInput = {
  Spans: [
    {
      Id: 'day',
      Name: 'Weekdays',
      Days: [1, 2, 3, 4, 5],
      From: '08:00',
      Until: '18:00',
      Rate: [
        { FromMinute: 0, CentsPerHour: 200 },
        { FromMinute: 60, CentsPerHour: 300 },
      ],
      FreeMinutes: 10,
      IncrementMinutes: 15,
      MaxSessionCents: 1500,
      MaxStayMinutes: 180,
      NoReturnMinutes: 60,
      UserClasses: [
        { UserClass: 'permit', Exempt: true },
        { UserClass: 'ev', Exempt: false, Rate: [{ FromMinute: 0, CentsPerHour: 100 }] },
      ],
    },
    {
      Id: 'night',
      Name: 'Nights',
      Days: [5, 6],
      From: '22:00',
      Until: '02:00',
      StartDate: '2026-01-01',
      EndDate: '2027-12-31',
      Holidays: 'except',
      Rate: [{ FromMinute: 0, CentsPerHour: 100 }],
    },
  ],
  MaxStayMinutes: 240,
};
const saved = await savePolicyVersion(db, A, null, { Name: 'CDS test', Body: body }, new Date(), COMMAND_LINE);
await assignPolicy(db, A, [await zoneId('C1'), await zoneId('C2'), await zoneId('C3')], saved.PolicyId, COMMAND_LINE);

const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });
async function cds<T>(url: string, kind: Parameters<typeof expectCds>[0]) {
  const res = await get(url);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toBe(CDS_MEDIA_TYPE);
  const json = res.json<{ data: T; links?: { next: string | null } }>();
  expectCds(kind, json);
  return { res, json };
}
const zonesOf = async (q: string) =>
  (await cds<{ zones: CdsCurbZone[] }>(`/cds/curbs/zones?operator=${A}&${q}`, 'ZonesAnswer')).json.data.zones;

describe('Curb Zones', () => {
  it('publishes every zone valid now, with its geometry as a Polygon and its policies', async () => {
    const { json } = await cds<{ zones: CdsCurbZone[] }>(`/cds/curbs/zones?operator=${A}`, 'ZonesAnswer');
    expect(json).toMatchObject({ version: '1.0', time_zone: 'America/Chicago', currency: 'USD' });
    const list = json.data.zones;
    expect(list.map((z) => z.user_zone_id)).toEqual(['C1', 'C2', 'C3']);
    for (const z of list) expect(z.geometry!.type).toBe('Polygon');
    // The polygon curb as it is; the line as a strip around it; the point as a square around it.
    expect(list[2]!.geometry!.coordinates[0]![1]).toEqual([east.lng + 0.0004, east.lat]);
    expect(list[1]!.geometry!.coordinates[0]).toHaveLength(5);
    expect(list[0]!.street_name).toBe('Congress Ave');
    expect(list[0]!.num_spaces).toBe(12);
    const policies = (await cds<{ policies: CdsPolicy[] }>(`/cds/curbs/policies?operator=${A}`, 'PoliciesAnswer')).json
      .data.policies;
    const ids = new Set(policies.map((p) => p.curb_policy_id));
    for (const z of list) for (const id of z.curb_policy_ids) expect(ids.has(id)).toBe(true);
    // The same ids on every read (derived from the version; no id is random).
    expect((await zonesOf('')).map((z) => z.curb_zone_id)).toEqual(list.map((z) => z.curb_zone_id));
  });

  it('maps a policy span to CDS fields one to one', async () => {
    const [c1] = await zonesOf('');
    const res = await cds<{ policies: CdsPolicy[] }>(
      `/cds/curbs/policies?ids=${c1!.curb_policy_ids.join(',')}`,
      'PoliciesAnswer',
    );
    const byPriority = [...res.json.data.policies].sort((a, b) => a.priority - b.priority);
    expect(byPriority.map((p) => p.rules[0]!.user_classes ?? [])).toEqual([['permit'], ['electric'], [], [], []]);
    const day = byPriority[2]!;
    expect(day.time_spans).toEqual([
      { days_of_week: ['mon', 'tue', 'wed', 'thu', 'fri'], time_of_day_start: '08:00', time_of_day_end: '18:00' },
    ]);
    expect(day.rules[0]).toEqual({
      activity: 'parking',
      max_stay: 180,
      max_stay_unit: 'minute',
      no_return: 60,
      no_return_unit: 'minute',
      rate: [
        { rate: 0, rate_unit: 'minute', increment_duration: 15, end_duration: 10, maximum_fee: 1500 },
        {
          rate: 3,
          rate_unit: 'minute',
          increment_duration: 15,
          start_duration: 10,
          end_duration: 60,
          maximum_fee: 1500,
        },
        { rate: 5, rate_unit: 'minute', increment_duration: 15, start_duration: 60, maximum_fee: 1500 },
      ],
    });
    expect(byPriority[0]!.rules[0]!.rate).toEqual([{ rate: 0, rate_unit: 'hour' }]);
    const night = byPriority[3]!;
    expect(night.time_spans).toHaveLength(2);
    expect(night.time_spans![0]).toMatchObject({
      days_of_week: ['fri', 'sat'],
      time_of_day_start: '22:00',
      designated_period: 'holidays',
      designated_period_except: true,
    });
    expect(night.time_spans![1]).toMatchObject({ days_of_week: ['sat', 'sun'], time_of_day_end: '02:00' });
    expect(night.time_spans![0]!.start_date).toBe(Date.parse('2026-01-01T06:00:00Z'));
    expect(night.time_spans![0]!.end_date).toBe(Date.parse('2028-01-01T06:00:00Z'));
    expect(night.rules[0]!.rate).toEqual([{ rate: 100, rate_unit: 'hour' }]);
    // The rest of the week: free, with the policy's maximum stay, last.
    expect(byPriority[4]).toMatchObject({ rules: [{ activity: 'parking', max_stay: 240, max_stay_unit: 'minute' }] });
    expect(byPriority[4]!.time_spans).toBeUndefined();
  });

  it('filters by bounding box, by point and radius (nearest first), by time, and leaves out geometry', async () => {
    const box = (d: number, at = CENTRE) =>
      `min_lat=${at.lat - d}&min_lng=${at.lng - d}&max_lat=${at.lat + d}&max_lng=${at.lng + d}`;
    expect((await zonesOf(box(0.0002))).map((z) => z.user_zone_id)).toEqual(['C1']);
    expect((await zonesOf(box(0.002))).map((z) => z.user_zone_id)).toEqual(['C1', 'C2']);
    expect(
      (await zonesOf(box(0.0001, { lat: east.lat + 0.0001, lng: east.lng + 0.0002 }))).map((z) => z.user_zone_id),
    ).toEqual(['C3']);
    // 200 m: C1 and C2 (C2's strip is about 110 m north), C2 after C1.
    expect((await zonesOf(`lat=${CENTRE.lat}&lng=${CENTRE.lng}&radius=20000`)).map((z) => z.user_zone_id)).toEqual([
      'C1',
      'C2',
    ]);
    expect((await zonesOf(`lat=${east.lat}&lng=${east.lng}&radius=200000`)).map((z) => z.user_zone_id)).toEqual([
      'C3',
      'C2',
      'C1',
    ]);
    expect(await zonesOf('time=1000')).toEqual([]);
    // The retired zone was valid before its retirement.
    expect((await zonesOf(`time=${beforeRetired}`)).map((z) => z.user_zone_id)).toContain('C4');
    for (const z of await zonesOf('include_geometry=false')) expect(z.geometry).toBeUndefined();
    expect(await zonesOf('area=98bd30e9-14cc-4e71-bee2-7bab0f28b2bd')).toEqual([]);
  });

  it('pages with JSON:API links, next null on the last page', async () => {
    const first = await cds<{ zones: CdsCurbZone[] }>(`/cds/curbs/zones?operator=${A}&page[size]=2`, 'ZonesAnswer');
    expect(first.json.data.zones).toHaveLength(2);
    const next = new URL(first.json.links!.next!);
    expect(next.searchParams.get('page[number]')).toBe('2');
    const second = await cds<{ zones: CdsCurbZone[] }>(next.pathname + next.search, 'ZonesAnswer');
    expect(second.json.data.zones.map((z) => z.user_zone_id)).toEqual(['C3']);
    expect(second.json.links!.next).toBeNull();
  });

  it('fetches one zone; 404 for an unknown id, a retired zone unless show_historic, or a time outside it', async () => {
    const [c1] = await zonesOf('');
    const one = await cds<CdsCurbZone>(`/cds/curbs/zones/${c1!.curb_zone_id}`, 'ZoneAnswer');
    expect(one.json.data).toEqual(c1);
    expect((await get('/cds/curbs/zones/98bd30e9-14cc-4e71-bee2-7bab0f28b2bd')).statusCode).toBe(404);
    expect((await get(`/cds/curbs/zones/${c1!.curb_zone_id}?time=1000`)).statusCode).toBe(404);
    const retired = (await zonesOf(`time=${beforeRetired}`)).find((z) => z.user_zone_id === 'C4')!;
    expect((await get(`/cds/curbs/zones/${retired.curb_zone_id}`)).statusCode).toBe(404);
    const historic = await cds<CdsCurbZone>(
      `/cds/curbs/zones/${retired.curb_zone_id}?show_historic=true`,
      'ZoneAnswer',
    );
    expect(historic.json.data.end_date).toBeGreaterThan(historic.json.data.start_date);
  });

  it('fetches one policy; 404 for an unknown one', async () => {
    const [c1] = await zonesOf('');
    const one = await cds<CdsPolicy>(`/cds/curbs/policies/${c1!.curb_policy_ids[0]}`, 'PolicyAnswer');
    expect(one.json.data.curb_policy_id).toBe(c1!.curb_policy_ids[0]);
    expect((await get('/cds/curbs/policies/98bd30e9-14cc-4e71-bee2-7bab0f28b2bd')).statusCode).toBe(404);
  });

  it('answers areas and spaces as empty lists', async () => {
    expect((await cds<{ areas: [] }>('/cds/curbs/areas', 'AreasAnswer')).json.data.areas).toEqual([]);
    expect((await cds<{ spaces: [] }>('/cds/curbs/spaces', 'SpacesAnswer')).json.data.spaces).toEqual([]);
  });
});

describe('caching', () => {
  it('sends ETag and Last-Modified, 304 on If-None-Match or If-Modified-Since, a new ETag after a change', async () => {
    const url = `/cds/curbs/zones?operator=${A}`;
    const res = await get(url);
    const etag = res.headers.etag as string;
    const modified = res.headers['last-modified'] as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    // An API answer's headers (data, never a page), with its own caching; an error is never stored.
    expect(res.headers['cache-control']).toBe('public, max-age=60, must-revalidate');
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect((await get('/cds/curbs/zones?lat=1')).headers['cache-control']).toBe('no-store');
    expect(Date.parse(modified)).toBeGreaterThan(0);
    expect(Math.floor(res.json<{ last_updated: number }>().last_updated / 1000) * 1000).toBe(Date.parse(modified));
    const again = await get(url, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect((await get(url, { 'if-modified-since': modified })).statusCode).toBe(304);
    expect((await get(url, { 'if-none-match': '"other"' })).statusCode).toBe(200);
    expect(
      (await get(url, { 'if-modified-since': new Date(Date.parse(modified) - 1000).toUTCString() })).statusCode,
    ).toBe(200);
    // A change: the zone's policy back to its preset.
    await assignPolicy(db, A, [await zoneId('C1')], null, COMMAND_LINE);
    const changed = await get(url, { 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expectCds('ZonesAnswer', changed.json());
    await assignPolicy(db, A, [await zoneId('C1')], saved.PolicyId, COMMAND_LINE);
  });
});

describe('bad queries', () => {
  it.each([
    ['/cds/curbs/zones?min_lat=1', 'min_lat, min_lng, max_lat and max_lng go together'],
    ['/cds/curbs/zones?lat=30&lng=-97', 'lat, lng and radius go together'],
    ['/cds/curbs/zones?lat=91&lng=0&radius=1', 'lat must be between -90 and 90'],
    ['/cds/curbs/zones?min_lat=2&min_lng=0&max_lat=1&max_lng=1', 'min_lat must not be above max_lat'],
    ['/cds/curbs/zones?time=yesterday', 'time must be milliseconds since 1970'],
    ['/cds/curbs/zones?include_geometry=maybe', 'include_geometry must be true or false'],
    ['/cds/curbs/zones?page[size]=0', 'page[size] is at least 1'],
    ['/cds/curbs/zones?area=12', 'Must be a UUID'],
    ['/cds/curbs/zones/not-a-uuid', 'Must be a UUID'],
    ['/cds/curbs/policies?ids=abc', 'ids must be UUIDs separated by commas'],
  ])('%s: 400 saying what is wrong', async (url, message) => {
    const res = await get(`${url}${url.includes('?') ? '&' : '?'}operator=${A}`);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json<{ message: string }>().message).toContain(message);
  });

  it('refuses an unknown parameter, naming it', async () => {
    const res = await get(`/cds/curbs/zones?operator=${A}&bbox=1,2,3,4`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      message: MESSAGES.unknownParameter,
      errors: [{ field: 'bbox', message: MESSAGES.unknownParameter }],
    });
  });

  it('406 for another CDS version; the CDS type at 1.0, JSON or a wildcard are fine', async () => {
    const url = `/cds/curbs/zones?operator=${A}`;
    expect((await get(url, { accept: 'application/vnd.cds+json;version=2.0' })).statusCode).toBe(406);
    expect((await get(url, { accept: 'text/html' })).statusCode).toBe(406);
    for (const accept of [CDS_MEDIA_TYPE, 'application/vnd.cds+json;version=1.0.1', '*/*', 'application/json'])
      expect((await get(url, { accept })).statusCode).toBe(200);
  });
});
