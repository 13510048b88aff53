import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { operators, parkingSessions, zones } from '../../../src/db/schema/index.ts';
import { createKey } from '../../../src/enforcement/index.ts';
import { defaultOperatorId, insertZones } from '../../../src/zones/index.ts';
import { as, buildTestApp, registerAndSignIn } from '../../helpers.ts';
import { newOperator, signedInOwner } from '../../operator-helpers.ts';
import { addVehicle, addZone, CENTRE, credit, startSession, zoneAt } from '../../parking-helpers.ts';
import { loadApds } from '../../support/apds-validator.ts';

/**
 * Every answer of /apds/ against the APDS OpenAPI document itself (docs/apds.md), with real data:
 * zones, a price policy, a session started the real way (quote, start), another operator's zone
 * and session. Runs on PGlite and on PostgreSQL.
 */
const { app, database } = await buildTestApp({ ADDRESS_RATE_LIMIT_SCALE: 1000 });
const { db } = database;
const apds = await loadApds();

const A = await defaultOperatorId(db);
const B = await newOperator(db, 'APDS operator B');
const owner = await signedInOwner(app, db, A);
const policed = await addZone(db, 'APDS1');
const preset = await addZone(db, 'APDS2', { kind: 'garage' });
const curbed = await addZone(db, 'APDS3');
await db
  .update(zones)
  .set({
    curb: {
      type: 'Polygon',
      coordinates: [
        [
          [CENTRE.lng, CENTRE.lat],
          [CENTRE.lng + 0.0005, CENTRE.lat],
          [CENTRE.lng + 0.0005, CENTRE.lat + 0.0005],
          [CENTRE.lng, CENTRE.lat],
        ],
      ],
    },
  })
  .where(eq(zones.id, curbed));
await insertZones(db, B, [zoneAt('APDSB', '9 Elm St', { lat: 32.78, lng: -96.8 })]);
const body = {
  Spans: [
    {
      Id: 'day',
      Name: 'Daytime',
      Days: [1, 2, 3, 4, 5],
      From: '08:00',
      Until: '18:00',
      Rate: [
        { FromMinute: 0, CentsPerHour: 200 },
        { FromMinute: 60, CentsPerHour: 400 },
      ],
      MaxSessionCents: 2000,
    },
    { Id: 'rest', Name: 'Other times', Rate: [{ FromMinute: 0, CentsPerHour: 100 }] },
  ],
  MaxStayMinutes: 240,
};
const created = await as(app, owner, {
  method: 'POST',
  url: `/api/Operator/${A}/Policies`,
  payload: { Name: 'APDS downtown', Body: body },
});
expect(created.statusCode, created.body).toBe(201);
const policyId = created.json<{ PolicyId: number }>().PolicyId;
const assigned = await as(app, owner, {
  method: 'POST',
  url: `/api/Operator/${A}/Policies/${policyId}/Zones`,
  payload: { ZoneIds: [policed] },
});
expect(assigned.statusCode, assigned.body).toBe(200);

const driver = await registerAndSignIn(app);
await credit(db, driver.memberId, 100_00);
const vehicleId = await addVehicle(app, driver, 'APDS 123');
const session = await startSession(app, driver, { zoneId: preset, vehicleId, minutes: 60 });
const [zoneOfB] = await db.select().from(zones).where(eq(zones.zoneNumber, 'APDSB'));
const [sessionOfB] = await db
  .insert(parkingSessions)
  .values({
    memberId: driver.memberId,
    operatorId: B,
    zoneId: zoneOfB!.id,
    vehicleMake: 'TOYOTA',
    vehicleModel: 'CAMRY',
    plate: 'BEE 42',
    plateState: 'TX',
    startedAt: new Date(Date.now() - 3_600_000),
    endsAt: new Date(),
    endedAt: new Date(),
    durationMinutes: 60,
    initialMinutes: 60,
    rateCents: 200,
    parkingCents: 200,
    feeCents: 0,
    paidVia: 'Wallet',
    status: 'ended',
  })
  .returning({ id: parkingSessions.id });
const keyA = (await createKey(db, A, 'APDS test A')).key;
const keyB = (await createKey(db, B, 'APDS test B')).key;

const get = (url: string, key?: string) =>
  app.inject({ method: 'GET', url, headers: key ? { 'x-operator-key': key } : {} });

/** The only oneOf ambiguities the document's draft forces (support/apds-validator.ts). */
const KNOWN_AMBIGUITY = /^(\/data\/\d+)?(\/identifiedCredentials\/\d+|\/placeBoundedZone\/\d+)? \[0,\d(,\d)*\]$/;

async function expectValid(operationId: string, url: string, key?: string, status = 200) {
  const res = await get(url, key);
  expect(res.statusCode, res.body).toBe(status);
  expect(apds.declares(operationId, status), `${operationId} ${status} is in the APDS document`).toBe(true);
  const check = apds.response(operationId, status, res.json());
  expect(check.errors, `${url} against ${operationId} ${status}`).toEqual([]);
  expect(check.ambiguities.filter((a) => !KNOWN_AMBIGUITY.test(a))).toEqual([]);
  return res.json();
}

describe('APDS answers validate against the APDS OpenAPI document', () => {
  it('loads the document with the operations we serve, and the one erratum (support/apds-validator.ts)', () => {
    expect(apds.errata).toBeGreaterThan(0);
    expect(apds.operationIds()).toEqual(
      expect.arrayContaining([
        'get-places',
        'get-places-id',
        'get-rates',
        'get-rates-id',
        'list-rights-specs',
        'get-rights-specs-id',
        'get-sessions',
        'get-sessions-id',
        'post-quotes',
        // Served behind the operator key; their answers are checked in apds-assigned.test.ts and
        // apds-partner-sessions.test.ts.
        'create-assigned_right',
        'list-assigned_rights',
        'read-assigned_right',
        'update-assigned_right',
        'delete-assigned_right',
        'post-sessions',
        'put-sessions-id',
        'delete-sessions-id',
      ]),
    );
  });

  it('the validator refuses what breaks the document (it can fail)', () => {
    const bad = apds.response('get-rates', 200, {
      meta: { referenceInstant: -1, offset: 0, pageSize: 1, total: 0 },
      data: [{ id: 'x', version: 0, rateTableName: [] }],
    });
    expect(bad.errors.join('\n')).toMatch(/referenceInstant|minimum|required/);
    const badSession = apds.response('get-sessions-id', 200, { id: 'session-1', version: 1, actualStart: 'yesterday' });
    expect(badSession.errors.join('\n')).toMatch(/date-time|required/);
  });

  it('GET /apds/places: operators as campuses, zones as parking places with their point, address and curb', async () => {
    const list = await expectValid('get-places', '/apds/places');
    const ids = list.data.map((p: { id: string }) => p.id);
    expect(ids).toEqual(
      expect.arrayContaining([`operator-${A}`, `operator-${B}`, `zone-${policed}`, `zone-${preset}`]),
    );
    expect(list.meta.total).toBe(list.data.length);
    const zone = list.data.find((p: { id: string }) => p.id === `zone-${curbed}`);
    expect(zone).toMatchObject({
      type: 'parkingPlace',
      layer: 1,
      parentId: { id: `operator-${A}` },
      operatorDefinedReference: [{ language: 'en', string: 'APDS3' }],
      indicativePlacePointLocation: [{ type: 'Point', coordinates: [CENTRE.lng, CENTRE.lat] }],
      placeBoundedZone: [{ type: 'MultiPolygon' }],
      timeZone: 'America/Chicago',
    });
    const near = await expectValid(
      'get-places',
      `/apds/places?latitude=32.78&longitude=-96.8&radius=200&type=parkingPlace`,
    );
    expect(near.data.map((p: { id: string }) => p.id)).toEqual([`zone-${zoneOfB!.id}`]);
    const garages = await expectValid('get-places', '/apds/places?structure_type=offStreetStructure');
    expect(garages.data.map((p: { id: string }) => p.id)).toEqual([`zone-${preset}`]);
    await expectValid('get-places', `/apds/places?name=apds3`);
    await expectValid('get-places-id', `/apds/places/zone-${policed}`);
    const campus = await expectValid('get-places-id', `/apds/places/operator-${A}`);
    expect(campus.type).toBe('campus');
    expect((await get('/apds/places/zone-999999')).statusCode).toBe(404);
  });

  it('GET /apds/rates: the policy in force as a RateTable, a zone without one as its preset', async () => {
    const list = await expectValid('get-rates', '/apds/rates');
    const policy = list.data.find((r: { id: string }) => r.id === `policy-${policyId}`);
    expect(policy.rateLineCollections).toHaveLength(2);
    expect(policy.rateLineCollections[0]).toMatchObject({
      applicableCurrency: 'USD',
      maxValueCollection: 20,
      maxTime: 'PT240M',
      rateLines: [
        { sequence: 1, value: 0.03, incrementPeriod: 'PT1M', durationStart: 'PT0M', durationEnd: 'PT60M' },
        { sequence: 2, value: 0.07, incrementPeriod: 'PT1M', durationStart: 'PT60M' },
      ],
    });
    expect(list.data.map((r: { id: string }) => r.id)).toContain(`preset-zone-${preset}`);
    await expectValid('get-rates-id', `/apds/rates/policy-${policyId}`);
    await expectValid('get-rates-id', `/apds/rates/preset-zone-${preset}`);
    await expectValid('get-rates-id', '/apds/rates/policy-999999', undefined, 404);
  });

  it('GET /apds/rights/specs: a paid session in each zone, priced by its rate table', async () => {
    const list = await expectValid('list-rights-specs', '/apds/rights/specs');
    const spec = list.data.find((s: { id: string }) => s.id === `zone-${policed}`);
    expect(spec).toMatchObject({
      type: 'oneTimeUseParking',
      hierarchyElements: [{ id: `zone-${policed}` }],
      rateEligibility: [{ rateTable: { id: `policy-${policyId}`, version: 1 } }],
    });
    const one = await expectValid('list-rights-specs', `/apds/rights/specs?place=zone-${preset}`);
    expect(one.data.map((s: { id: string }) => s.id)).toEqual([`zone-${preset}`]);
    await expectValid('get-rights-specs-id', `/apds/rights/specs/zone-${preset}`);
    await expectValid('get-rights-specs-id', '/apds/rights/specs/zone-999999', undefined, 404);
  });

  it('POST /apds/quotes: the request is an APDS QuoteRightRequest; the answer the engine’s price', async () => {
    // One clock reading: two would make the period a millisecond longer than 60 minutes, priced as 61.
    const now = Date.now();
    const request = {
      id: 'q-1',
      version: 1,
      requestTime: new Date(now).toISOString(),
      periodStart: new Date(now + 60_000).toISOString(),
      periodEnd: new Date(now + 61 * 60_000).toISOString(),
      referencedRightSpecifications: [
        { rightSpecificationId: { id: `zone-${preset}`, version: 1 } },
        { rightSpecificationId: { id: 'zone-999999', version: 1 } },
      ],
    };
    expect(apds.request('post-quotes', request).errors).toEqual([]);
    const res = await app.inject({ method: 'POST', url: '/apds/quotes', payload: request });
    expect(res.statusCode, res.body).toBe(200);
    const check = apds.response('post-quotes', 200, res.json());
    expect(check.errors).toEqual([]);
    expect(check.ambiguities).toEqual([]);
    const [ours, unknown] = res.json().data;
    // 60 minutes at the preset's $2.50 an hour, every day.
    expect(ours.options[0].financialQuote.value).toEqual({ currencyType: 'USD', currencyValue: 2.5 });
    expect(ours.options[0].identifiers[0].rateTableId.id).toBe(`preset-zone-${preset}`);
    expect(unknown).toMatchObject({ reason: 'noMatchingSpecification', options: [] });

    const tooLong = await app.inject({
      method: 'POST',
      url: '/apds/quotes',
      payload: { ...request, periodEnd: new Date(now + 10 * 3_600_000).toISOString() },
    });
    expect(tooLong.json().data[0].reason).toBe('rightSpecificationNotAvailableAtRequestedTimes');
    const backwards = await app.inject({
      method: 'POST',
      url: '/apds/quotes',
      payload: { ...request, periodEnd: request.periodStart },
    });
    expect(backwards.statusCode).toBe(400);
  });

  it('GET /apds/sessions: the key’s operator’s sessions, plates only where the operator shows them', async () => {
    const list = await expectValid('get-sessions', '/apds/sessions', keyA);
    expect(list.data.map((s: { id: string }) => s.id)).toEqual([`session-${session.SessionId}`]);
    const s = list.data[0];
    expect(s.hierachyElement.id).toBe(`zone-${preset}`);
    expect(s.segments[0].assignedRight).toMatchObject({
      rightSpecification: { id: `zone-${preset}` },
      totalMinutes: 60,
      totalRightValue: { currencyType: 'USD', currencyValue: 2.5 },
    });
    expect(JSON.stringify(list)).not.toContain('APDS 123');
    expect(s.identifiedCredentials[0].type).toBe('electronicID');

    await db.update(operators).set({ showPlates: true }).where(eq(operators.id, A));
    const shown = await expectValid('get-sessions-id', `/apds/sessions/session-${session.SessionId}`, keyA);
    expect(shown.identifiedCredentials[0]).toMatchObject({
      type: 'licensePlate',
      identifier: { className: 'LicensePlate', id: 'APDS 123' },
    });
    const byPlate = await expectValid('get-sessions', '/apds/sessions?credential_id=APDS123', keyA);
    expect(byPlate.data).toHaveLength(1);
    await db.update(operators).set({ showPlates: false }).where(eq(operators.id, A));
    const hidden = await expectValid('get-sessions', '/apds/sessions?credential_id=APDS123', keyA);
    expect(hidden.data).toHaveLength(0);

    const since = Math.floor(Date.now() / 1000) + 3600;
    expect((await expectValid('get-sessions', `/apds/sessions?start_after=${since}`, keyA)).data).toEqual([]);
    expect((await expectValid('get-sessions', `/apds/sessions?place=zone-${policed}`, keyA)).data).toEqual([]);
  });

  it('guard: another operator’s key sees none of the first operator’s sessions; no key is a 401', async () => {
    const ofB = await expectValid('get-sessions', '/apds/sessions', keyB);
    expect(ofB.data.map((s: { id: string }) => s.id)).toEqual([`session-${sessionOfB!.id}`]);
    await expectValid('get-sessions-id', `/apds/sessions/session-${session.SessionId}`, keyB, 404);
    await expectValid('get-sessions-id', `/apds/sessions/session-${sessionOfB!.id}`, keyA, 404);
    expect((await expectValid('get-sessions', `/apds/sessions?place=zone-${preset}`, keyB)).data).toEqual([]);
    expect((await get('/apds/sessions')).statusCode).toBe(401);
    expect((await get(`/apds/sessions/session-${session.SessionId}`)).statusCode).toBe(401);
    expect((await get('/apds/sessions', 'pk_notakey')).statusCode).toBe(401);
  });

  it('refuses bad input with a 400', async () => {
    expect((await get('/apds/places?latitude=north')).statusCode).toBe(400);
    expect((await get('/apds/sessions?start_after=-5', keyA)).statusCode).toBe(400);
    expect((await app.inject({ method: 'POST', url: '/apds/quotes', payload: { id: 'x' } })).statusCode).toBe(400);
  });
});
