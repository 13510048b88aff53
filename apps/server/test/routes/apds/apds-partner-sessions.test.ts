import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../../src/db/client.ts';
import { zones } from '../../../src/db/schema/index.ts';
import { createKey } from '../../../src/enforcement/index.ts';
import { webhookSender } from '../../../src/apds/index.ts';
import { insertZones } from '../../../src/zones/index.ts';
import { buildTestApp, registerAndSignIn } from '../../helpers.ts';
import { newOperator } from '../../operator-helpers.ts';
import { concurrently, statusCounts } from '../../concurrency.ts';
import { addVehicle, addZone, credit, startSession, zoneAt } from '../../parking-helpers.ts';
import { loadApds } from '../../support/apds-validator.ts';
import { accepted, verifySignature, webhookReceiver } from '../../support/webhook-receiver.ts';

/**
 * The Sessions a third party registers (docs/apds.md#partner-sessions): POST /apds/sessions keeps
 * the Session beside the rights its segments create, GET /apds/sessions/{id} answers it and GET
 * /apds/sessions lists it after the operator's parking sessions, each answer checked against the
 * APDS document; DELETE removes it, and subscribers get SessionCreated and SessionDeleted. Another
 * operator's key finds nothing. Runs on PGlite and on PostgreSQL.
 */
const { app, database } = await buildTestApp({ ADDRESS_RATE_LIMIT_SCALE: 1000, APDS_WEBHOOK_PRIVATE_URLS: true });
const { db } = database;
const apds = await loadApds();

const B = await newOperator(db, 'APDS partner sessions B');
const zone = await addZone(db, 'PSS1');
const other = await addZone(db, 'PSS2');
await insertZones(db, B, [zoneAt('PSSB', '9 Elm St', { lat: 32.78, lng: -96.8 })]);
const A = (await db.select({ operatorId: zones.operatorId }).from(zones).where(eq(zones.id, zone)))[0]!.operatorId;
const keyA = (await createKey(db, A, 'partner sessions A')).key;
const keyB = (await createKey(db, B, 'partner sessions B')).key;

const now = Date.now();
const iso = (ms: number) => new Date(ms).toISOString();
const credentials = (plate: string) => [
  {
    identifier: { className: 'LicensePlate', id: plate },
    issuer: [{ language: 'en', string: 'TX' }],
    type: 'licensePlate',
  },
];
/** A Session of one segment whose right is inline, in `zoneId`, for `plate`, started a minute ago. */
const session = (id: string, plate: string, zoneId = zone, extra: object = {}) => ({
  id,
  version: 1,
  actualStart: iso(now - 60_000),
  initiator: { id: 'partner-app', version: 1, className: 'Application' },
  identifiedCredentials: credentials(plate),
  segments: [
    {
      id: `${id}-seg-1`,
      version: 1,
      actualStart: iso(now - 60_000),
      actualEnd: iso(now + 30 * 60_000),
      assignedRight: {
        id: `${id}-right`,
        version: 1,
        rightHolder: { credentials: credentials(plate) },
        rightSpecification: { id: `zone-${zoneId}`, version: 1, className: 'RightSpecification' },
        issueMethod: 'electronic',
      },
      validationType: ['licensePlate'],
    },
  ],
  ...extra,
});
const send = (body: object, key = keyA) =>
  app.inject({ method: 'POST', url: '/apds/sessions', headers: { 'x-operator-key': key }, payload: body });
const get = (url: string, key = keyA) => app.inject({ method: 'GET', url, headers: { 'x-operator-key': key } });
const kept = async () =>
  (await queryRows<{ n: number }>(db, sql`select count(*)::int as n from apds_partner_sessions`))[0]!.n;

/** The document's overlapping oneOfs (support/apds-validator.ts): a holder's credential matches each branch. */
const KNOWN_AMBIGUITY = /rightHolder\/credentials\/\d+ \[0,\d(,\d)*\]$/;
function expectValid(operationId: string, body: unknown) {
  const check = apds.response(operationId, 200, body);
  expect(check.errors, operationId).toEqual([]);
  expect(check.ambiguities.filter((a) => !KNOWN_AMBIGUITY.test(a))).toEqual([]);
}

describe('APDS Sessions registered by a third party', () => {
  it('keeps the Session: GET answers it as sent, with its segment’s right as created', async () => {
    const body = session('partner-kept-1', 'PSS 100');
    const res = await send(body);
    expect(res.statusCode, res.body).toBe(200);
    const one = await get('/apds/sessions/partner-kept-1');
    expect(one.statusCode, one.body).toBe(200);
    expectValid('get-sessions-id', one.json());
    const right = res.json().assignedRights[0];
    expect(one.json()).toEqual({ ...body, segments: [{ ...body.segments[0], assignedRight: right }] });
    expect(right).toMatchObject({ id: 'partner-kept-1-right', expiry: iso(now + 30 * 60_000) });
    // The same Session again is the same Session.
    expect((await send(body)).statusCode).toBe(200);
    expect((await get('/apds/sessions/partner-kept-1')).json()).toEqual(one.json());
  });

  it('lists registered Sessions after the parking sessions, with the list’s filters', async () => {
    await send(session('partner-list-1', 'PSS 201'));
    await send(session('partner-list-2', 'PSS 202', other));
    const all = await get('/apds/sessions');
    expect(all.statusCode).toBe(200);
    expectValid('get-sessions', all.json());
    const ids = all.json().data.map((s: { id: string }) => s.id);
    expect(ids).toEqual(expect.arrayContaining(['partner-list-1', 'partner-list-2']));
    expect(all.json().meta.total).toBe(ids.length);
    const idsOf = async (q: string) => (await get(`/apds/sessions?${q}`)).json().data.map((s: { id: string }) => s.id);
    expect(await idsOf(`place=zone-${other}`)).toEqual(['partner-list-2']);
    expect(await idsOf('credential_id=PSS201')).toEqual(['partner-list-1']);
    expect(await idsOf('credential_id=partner-list-2')).toEqual(['partner-list-2']);
    expect(await idsOf(`start_after=${Math.floor(now / 1000)}`)).toEqual([]);
    expect(await idsOf(`end_before=${Math.floor(now / 1000)}`)).not.toContain('partner-list-1');
    // One offset runs over both: the second page starts where the first ended.
    const page = await get(`/apds/sessions?offset=${ids.length - 1}`);
    expect(page.json().data.map((s: { id: string }) => s.id)).toEqual([ids.at(-1)]);
  });

  it('another operator’s key finds none of them', async () => {
    await send(session('partner-hidden-1', 'PSS 300'));
    expect((await get('/apds/sessions/partner-hidden-1', keyB)).statusCode).toBe(404);
    const ofB = (await get('/apds/sessions', keyB)).json().data.map((s: { id: string }) => s.id);
    expect(ofB).not.toContain('partner-hidden-1');
    // Nor can it register one in A's zone.
    const before = await kept();
    expect((await send(session('partner-hidden-2', 'PSS 301'), keyB)).statusCode).toBe(400);
    expect(await kept()).toBe(before);
  });

  it('refuses other content under a kept id (409) and ParkIt’s own id form (400), writing nothing', async () => {
    expect((await send(session('partner-conflict-1', 'PSS 400'))).statusCode).toBe(200);
    const before = await kept();
    const rights = async () =>
      (await queryRows<{ n: number }>(db, sql`select count(*)::int as n from apds_assigned_rights`))[0]!.n;
    const rightsBefore = await rights();
    const changed = session('partner-conflict-1', 'PSS 400', zone, { actualEnd: iso(now + 60_000) });
    // Its segment's right is new: refused with the Session, it is not kept either.
    changed.segments[0]!.assignedRight.id = 'partner-conflict-1-right-2';
    const res = await send(changed);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ status: 'error', code: 409, errors: [{ field: 'id' }] });
    const reserved = await send(session('session-12', 'PSS 401'));
    expect(reserved.statusCode).toBe(400);
    expect(reserved.json()).toMatchObject({ errors: [{ field: 'id' }] });
    expect(await kept()).toBe(before);
    expect(await rights()).toBe(rightsBefore);
  });

  it('10 parallel registrations of one Session keep one, and ten of one id with other content keep one', async () => {
    const same = await concurrently(10, () => send(session('partner-race-1', 'PSS 500')));
    expect(statusCounts(same)).toEqual({ 200: 10 });
    const racing = await concurrently(10, (i) =>
      send({ ...session('partner-race-2', 'PSS 501'), actualStart: iso(now - 60_000 - i * 1000) }),
    );
    expect(statusCounts(racing)).toEqual({ 200: 1, 409: 9 });
    const stored = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from apds_partner_sessions where apds_id in ('partner-race-1', 'partner-race-2')`,
    );
    expect(stored[0]!.n).toBe(2);
  });

  it('DELETE removes a registered Session (its rights stay); not another operator’s, nor ParkIt’s own', async () => {
    await send(session('partner-delete-1', 'PSS 600'));
    const del = (id: string, key = keyA) =>
      app.inject({ method: 'DELETE', url: `/apds/sessions/${id}`, headers: { 'x-operator-key': key } });
    expect((await del('partner-delete-1', keyB)).statusCode).toBe(404);
    expect((await get('/apds/sessions/partner-delete-1')).statusCode).toBe(200);

    const gone = await del('partner-delete-1');
    expect(gone.statusCode, gone.body).toBe(200);
    expect(gone.json()).toEqual({ status: 'ok', code: 200, message: 'Deleted' });
    expect((await get('/apds/sessions/partner-delete-1')).statusCode).toBe(404);
    expect((await get('/apds/sessions')).json().data.map((x: { id: string }) => x.id)).not.toContain(
      'partner-delete-1',
    );
    expect((await del('partner-delete-1')).statusCode).toBe(404);
    expect((await get('/apds/rights/assigned/partner-delete-1-right')).statusCode).toBe(200);

    // A parking session of the operator's: it ends with Stop, and is not deleted here.
    const driver = await registerAndSignIn(app);
    const vehicle = await addVehicle(app, driver, 'PSS601');
    await credit(db, driver.memberId, 5000);
    const parked = await startSession(app, driver, { zoneId: zone, vehicleId: vehicle, minutes: 30 });
    const ours = await del(`session-${parked.SessionId}`);
    expect(ours.statusCode).toBe(409);
    expect(ours.json()).toMatchObject({ status: 'error', code: 409, errors: [{ field: 'id' }] });
    expect((await get(`/apds/sessions/session-${parked.SessionId}`)).statusCode).toBe(200);
    expect((await del(`session-${parked.SessionId}`, keyB)).statusCode).toBe(404);
  });

  it('subscribers get SessionCreated and SessionDeleted for a registered Session, as it was answered, signed', async () => {
    const receiver = await webhookReceiver(() => 200);
    try {
      const sub = await app.inject({
        method: 'POST',
        url: '/apds/webhooks',
        headers: { 'x-operator-key': keyA },
        payload: { endpoint: `${receiver.url}/partner`, topics: ['SessionCreated', 'SessionDeleted'] },
      });
      expect(sub.statusCode, sub.body).toBe(200);
      const { secret } = sub.json<{ secret: string }>();
      await send(session('partner-events-1', 'PSS 700'));
      const answered = (await get('/apds/sessions/partner-events-1')).json();
      const del = await app.inject({
        method: 'DELETE',
        url: '/apds/sessions/partner-events-1',
        headers: { 'x-operator-key': keyA },
      });
      expect(del.statusCode).toBe(200);
      const sender = webhookSender({ currency: 'USD', privateOk: true, log: app.log });
      for (let i = 0; i < 5; i++) await sender(db, new Date(Date.now() + i * 3_600_000));
      expect(accepted(receiver.hits, '/partner').map((e) => e.topic)).toEqual(['SessionCreated', 'SessionDeleted']);
      for (const h of receiver.hits) {
        expect(verifySignature(secret, h.body, h.headers['x-parkit-signature'])).toBe(true);
        const event = JSON.parse(h.body);
        expect(apds.callback('placeEvent', event).errors).toEqual([]);
        expectValid('get-sessions-id', event.data[0]);
        expect(event.data[0]).toEqual(answered);
      }
    } finally {
      await receiver.close();
    }
  });
});
