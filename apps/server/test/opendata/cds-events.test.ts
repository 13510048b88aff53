import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { buildTestApp, registerAndSignIn, as, MANY_REQUESTS } from '../helpers.ts';
import { addVehicle, addZone, CENTRE, credit, pay, quote, startSession, zoneAt } from '../parking-helpers.ts';
import { newOperator } from '../operator-helpers.ts';
import { createKey, revokeKey } from '../../src/enforcement/index.ts';
import { defaultOperatorId, insertZones } from '../../src/zones/index.ts';
import { operators, zones } from '../../src/db/schema/index.ts';
import { CDS_MEDIA_TYPE, zoneCdsId, type CdsCurbEvent } from '../../src/opendata/index.ts';
import { expectCdsEvents } from './cds-schema.ts';

// The CDS Events API (docs/open-data.md#events): a session's park_start and park_end for the
// operator's CDS key only, validated against the JSON Schema written from events.md; both databases.
// decorations: the test tells the app's key cache of a revocation, as the Revoke route does (app.operatorKeys).
const { app, database } = await buildTestApp(MANY_REQUESTS, { decorations: true });
const { db } = database;
const A = await defaultOperatorId(db);
const B = await newOperator(db, 'Other Events Parking');
const driver = await registerAndSignIn(app);
await credit(db, driver.memberId, 20_000);
const zone1 = await addZone(db, 'E1');
const zone2 = await addZone(db, 'E2');
await insertZones(db, B, [zoneAt('EB1', '1 Other St', CENTRE)]);
const [bZone] = await db.select({ id: zones.id }).from(zones).where(eq(zones.zoneNumber, 'EB1'));
const keyA = (await createKey(db, A, 'city', 'cds')).key;
const keyB = (await createKey(db, B, 'city', 'cds')).key;
const enforcementKeyA = (await createKey(db, A, 'officer')).key;

const get = (url: string, key: string | null = keyA, headers: Record<string, string> = {}) =>
  app.inject({
    method: 'GET',
    url,
    headers: { ...(key === null ? {} : { authorization: `Bearer ${key}` }), ...headers },
  });
const events = async (url: string, key = keyA) => {
  const res = await get(url, key);
  expect(res.statusCode, res.body).toBe(200);
  expectCdsEvents('EventsAnswer', res.json());
  return res.json<{ data: { events: CdsCurbEvent[] }; links: { next: string | null; last: string } }>();
};
const ofSession = (list: CdsCurbEvent[], sessionCdsId: string) =>
  list.filter((e) => e.event_session_id === sessionCdsId);

const t0 = Date.now() - 1;
const vehicle = await addVehicle(app, driver, 'CDS-101');
const s = await startSession(app, driver, { zoneId: zone1, vehicleId: vehicle, minutes: 60 });
const q = await quote(app, driver, { SessionId: s.SessionId, DurationMinutes: 30 });
expect((await pay(app, driver, 'Extend', { QuoteId: q.json<{ QuoteId: string }>().QuoteId })).statusCode).toBe(200);
const stop = await as(app, driver, { method: 'POST', url: '/api/Parking/Stop', payload: { SessionId: s.SessionId } });
expect(stop.statusCode, stop.body).toBe(200);
const other = await startSession(app, driver, {
  zoneId: zone2,
  vehicleId: await addVehicle(app, driver, 'CDS-202'),
  minutes: 30,
});
const t1 = Date.now() + 1;

describe('GET /cds/events/events', () => {
  it('gives a started, extended and stopped session as park_end above park_start (newest first), with the spec’s fields', async () => {
    const body = await events(`/cds/events/events?start_time=${t0}&end_time=${t1}`);
    expect(body).toMatchObject({ version: '1.0', currency: 'USD', time_zone: 'America/Chicago' });
    const list = body.data.events;
    const sessionId = list.find((e) => e.curb_zone_id === zoneCdsId(zone1))!.event_session_id;
    const mine = ofSession(list, sessionId);
    expect(mine.map((e) => e.event_type)).toEqual(['park_end', 'park_start']);
    const [end, start] = mine as [CdsCurbEvent, CdsCurbEvent];
    expect(start).toMatchObject({
      event_purpose: 'vehicle_parking',
      curb_zone_id: zoneCdsId(zone1),
      data_source_type: 'payment',
      event_location: { type: 'Feature', geometry: { type: 'Point', coordinates: [CENTRE.lng, CENTRE.lat] } },
    });
    expect(start.event_publication_time).toBeGreaterThanOrEqual(start.event_time);
    expect(start.actual_cost).toBeUndefined();
    expect(end.event_time).toBeGreaterThanOrEqual(start.event_time);
    expect(end.data_source_device_id).toBe(start.data_source_device_id);
    // What the driver paid: the start and the extension, less Stop's refund.
    expect(end.actual_cost).toBeGreaterThan(0);
    expect(start.event_id).not.toBe(end.event_id);
    // Plates are not shown unless the operator shows them.
    expect(list.every((e) => e.vehicle_license_plate === undefined)).toBe(true);
    // The running session has its park_start only; everything is newest first.
    expect(list.filter((e) => e.curb_zone_id === zoneCdsId(zone2)).map((e) => e.event_type)).toEqual(['park_start']);
    const times = list.map((e) => e.event_time);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(other.SessionId).toBeGreaterThan(s.SessionId);
  });

  it('gives the same ids on every call, and pages without losing or repeating an event', async () => {
    const all = (await events(`/cds/events/events?start_time=${t0}&end_time=${t1}`)).data.events;
    const again = (await events(`/cds/events/events?start_time=${t0}&end_time=${t1}`)).data.events;
    expect(again.map((e) => e.event_id)).toEqual(all.map((e) => e.event_id));
    expect(all).toHaveLength(3);
    const seen: string[] = [];
    let url: string | null = `/cds/events/events?start_time=${t0}&end_time=${t1}&page[size]=1`;
    while (url) {
      const page = await events(url.replace(/^https?:\/\/[^/]+/, ''));
      seen.push(...page.data.events.map((e) => e.event_id));
      url = page.links.next;
    }
    expect(seen).toEqual(all.map((e) => e.event_id));
  });

  it('filters by curb zone and time window; an area or space has no events', async () => {
    const z2 = (await events(`/cds/events/events?curb_zone_id=${zoneCdsId(zone2)}&start_time=${t0}`)).data.events;
    expect(z2.map((e) => e.event_type)).toEqual(['park_start']);
    expect((await events(`/cds/events/events?start_time=${t1}`)).data.events).toEqual([]);
    expect((await events(`/cds/events/events?end_time=${t0}`)).data.events).toEqual([]);
    const area = await events(`/cds/events/events?curb_area_id=${zoneCdsId(zone1)}`);
    expect(area.data.events).toEqual([]);
  });

  it('shows plates only when the operator shows them', async () => {
    await db.update(operators).set({ showPlates: true }).where(eq(operators.id, A));
    try {
      const list = (await events(`/cds/events/events?start_time=${t0}&end_time=${t1}`)).data.events;
      expect(new Set(list.map((e) => e.vehicle_license_plate))).toEqual(new Set(['CDS-101', 'CDS-202']));
    } finally {
      await db.update(operators).set({ showPlates: false }).where(eq(operators.id, A));
    }
  });

  it('answers 401 without the operator’s live CDS key, and 404 for another operator’s zone', async () => {
    for (const key of [null, 'nonsense', enforcementKeyA, `${keyA.slice(0, -1)}x`])
      expect((await get('/cds/events/events', key)).statusCode, String(key)).toBe(401);
    expect((await get('/cds/events/events', null, { authorization: keyA })).statusCode).toBe(401);
    // B's key sees none of A's sessions, and A's key not B's zone.
    expect((await events(`/cds/events/events?start_time=${t0}`, keyB)).data.events).toEqual([]);
    expect((await get(`/cds/events/events?curb_zone_id=${zoneCdsId(bZone!.id)}`)).statusCode).toBe(404);
    expect((await get(`/cds/events/events?curb_zone_id=${zoneCdsId(zone1)}`, keyB)).statusCode).toBe(404);
    const revoked = await createKey(db, A, 'old', 'cds');
    expect((await get('/cds/events/status', revoked.key)).statusCode).toBe(200);
    expect(await revokeKey(db, A, revoked.prefix, 'cds')).toBe(true);
    // Committed: as the Revoke route does, this process forgets the key it used a moment ago.
    app.operatorKeys.forget(revoked.prefix);
    expect((await get('/cds/events/status', revoked.key)).statusCode).toBe(401);
    // A CDS key is not an enforcement key either.
    const check = await app.inject({
      method: 'GET',
      url: '/api/Enforcement/Check?zone=E1&plate=CDS101&state=TX',
      headers: { 'x-operator-key': keyA },
    });
    expect(check.statusCode).toBe(401);
  });

  it('refuses bad parameters with field errors, and an Accept it cannot meet with 406', async () => {
    const bad = async (query: string, field: string) => {
      const res = await get(`/cds/events/events?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json<{ errors: { field: string }[] }>().errors.map((e) => e.field)).toContain(field);
    };
    await bad('start_time=yesterday', 'start_time');
    await bad('end_time=-5', 'end_time');
    await bad(`start_time=${t1}&end_time=${t0}`, 'start_time');
    await bad('curb_zone_id=nope', 'curb_zone_id');
    await bad('page[size]=0', 'page[size]');
    await bad('colour=red', 'colour');
    expect((await get('/cds/events/events', keyA, { accept: 'application/vnd.cds+json;version=2.0' })).statusCode).toBe(
      406,
    );
    const ok = await get('/cds/events/events', keyA, { accept: CDS_MEDIA_TYPE });
    expect(ok.headers['content-type']).toBe(CDS_MEDIA_TYPE);
  });
});

describe('GET /cds/events/status', () => {
  it('gives the operator’s payments as its one data source', async () => {
    const res = await get('/cds/events/status');
    expect(res.statusCode).toBe(200);
    expectCdsEvents('StatusAnswer', res.json());
    const status = res.json<{ data: { status: { data_source_type: string; data_source_device_id: string }[] } }>().data
      .status;
    expect(status).toHaveLength(1);
    expect(status[0]!.data_source_type).toBe('payment');
    const list = (await events(`/cds/events/events?start_time=${t0}`)).data.events;
    expect(list[0]!.data_source_device_id).toBe(status[0]!.data_source_device_id);
    expect((await get(`/cds/events/status?curb_zone_id=${zoneCdsId(bZone!.id)}`)).statusCode).toBe(404);
  });
});
