import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { as, buildTestApp, MANY_REQUESTS, registerAndSignIn } from '../helpers.ts';
import { addVehicle, addZone, credit, startSession } from '../parking-helpers.ts';
import { newOperator } from '../operator-helpers.ts';
import { createKey } from '../../src/enforcement/index.ts';
import { defaultOperatorId } from '../../src/zones/index.ts';
import { CDS_CSV_MEDIA_TYPE, sessionEventId, zoneCdsId } from '../../src/opendata/index.ts';
import { expectCdsCsv } from './cds-schema.ts';

// The CDS Metrics API (docs/open-data.md#metrics): Session rows and hourly Aggregates as CSV, for
// the operator's CDS key only, each row validated against the schema written from metrics.md.
const { app, database } = await buildTestApp(MANY_REQUESTS);
const { db } = database;
const A = await defaultOperatorId(db);
const B = await newOperator(db, 'Other Metrics Parking');
const driver = await registerAndSignIn(app);
await credit(db, driver.memberId, 20_000);
const zone = await addZone(db, 'M1', { capacity: 4 });
const keyA = (await createKey(db, A, 'city', 'cds')).key;
const keyB = (await createKey(db, B, 'city', 'cds')).key;

const s = await startSession(app, driver, {
  zoneId: zone,
  vehicleId: await addVehicle(app, driver, 'MET-1'),
  minutes: 60,
});
expect(
  (await as(app, driver, { method: 'POST', url: '/api/Parking/Stop', payload: { SessionId: s.SessionId } })).statusCode,
).toBe(200);
// Moved to a whole past hour (the rollups follow, by their trigger): 30 minutes from hh:10.
const hourStart = Math.floor(Date.now() / 3_600_000) * 3_600_000 - 3 * 3_600_000;
await db.execute(
  sql`update parking_sessions set started_at = to_timestamp(${(hourStart + 600_000) / 1000}),
        ends_at = to_timestamp(${(hourStart + 2_400_000) / 1000}), ended_at = to_timestamp(${(hourStart + 2_400_000) / 1000})
      where id = ${s.SessionId}`,
);

const get = (url: string, key: string | null = keyA, headers: Record<string, string> = {}) =>
  app.inject({
    method: 'GET',
    url,
    headers: { ...(key === null ? {} : { authorization: `Bearer ${key}` }), ...headers },
  });

describe('GET /cds/metrics/sessions', () => {
  it('gives each session as a Session row with its events’ ids, as CSV', async () => {
    const res = await get('/cds/metrics/sessions');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe(CDS_CSV_MEDIA_TYPE);
    const rows = expectCdsCsv('Session', res.body);
    const row = rows.find((r) => r.event_id_start === sessionEventId(s.SessionId, 'park_start'))!;
    expect(row).toMatchObject({
      session_type: 'parking',
      event_id_end: sessionEventId(s.SessionId, 'park_end'),
      event_time_start: hourStart + 600_000,
      event_time_end: hourStart + 2_400_000,
      curb_zone_id: zoneCdsId(zone),
    });
    const none = await get(`/cds/metrics/sessions?end_time=${hourStart}`);
    expect(expectCdsCsv('Session', none.body)).toEqual([]);
    expect(expectCdsCsv('Session', (await get('/cds/metrics/sessions', keyB)).body)).toEqual([]);
  });
});

describe('GET /cds/metrics/aggregates', () => {
  it('reads the hour’s sessions, dwell and occupancy from the rollups', async () => {
    const res = await get(`/cds/metrics/aggregates?curb_place_type=zone&curb_place_id=${zoneCdsId(zone)}`);
    expect(res.statusCode, res.body).toBe(200);
    const rows = expectCdsCsv('Aggregate', res.body);
    const value = (m: string) => rows.find((r) => r.metric_type === m)?.value;
    expect(value('total_sessions')).toBe(1);
    expect(value('turnover')).toBe(1);
    expect(value('average_dwell_time')).toBe(30);
    // 30 minutes of one car in a zone of 4 spaces: 12.5% of the hour.
    expect(value('occupancy_percent')).toBe(12.5);
    const only = expectCdsCsv('Aggregate', (await get('/cds/metrics/aggregates?metric_type=turnover')).body);
    expect(new Set(only.map((r) => r.metric_type))).toEqual(new Set(['turnover']));
  });

  it('refuses bad parameters, other operators’ zones, missing keys and other media types', async () => {
    const bad = async (query: string, field: string) => {
      const res = await get(`/cds/metrics/aggregates?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json<{ errors: { field: string }[] }>().errors.map((e) => e.field)).toContain(field);
    };
    await bad('metric_type=speed', 'metric_type');
    await bad(`curb_place_id=${zoneCdsId(zone)}`, 'curb_place_id');
    await bad('start_time=0&end_time=99999999999', 'start_time');
    await bad('curb_place_type=street&curb_place_id=' + zoneCdsId(zone), 'curb_place_type');
    expect(
      (await get(`/cds/metrics/sessions?curb_place_type=zone&curb_place_id=${zoneCdsId(zone)}`, keyB)).statusCode,
    ).toBe(404);
    expect((await get('/cds/metrics/sessions', null)).statusCode).toBe(401);
    expect((await get('/cds/metrics/aggregates', 'pk_wrong')).statusCode).toBe(401);
    expect(
      (await get('/cds/metrics/sessions', keyA, { accept: 'application/vnd.cds+json;version=1.0' })).statusCode,
    ).toBe(406);
  });
});
