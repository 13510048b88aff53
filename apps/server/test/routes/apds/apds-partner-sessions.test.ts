import { eq, sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
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

describe('PUT /apds/sessions/{id}: a registered Session’s next version', () => {
  // A key of its own per test: each sends more than a key's minute allows (KEY_LIMIT).
  let keyP = '';
  beforeEach(async () => {
    keyP = (await createKey(db, A, 'partner sessions A, updates')).key;
  });
  const sendP = (body: object) => send(body, keyP);
  const getP = (url: string) => get(url, keyP);
  const put = (id: string, body: object, key = keyP, idempotencyKey?: string) =>
    app.inject({
      method: 'PUT',
      url: `/apds/sessions/${id}`,
      headers: { 'x-operator-key': key, ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) },
      payload: body,
    });
  /** Each answer of the PUT against the document's put-sessions-id, at its status. */
  function expectAnswer(status: number, body: unknown) {
    expect(apds.declares('put-sessions-id', status), `put-sessions-id ${status} is in the APDS document`).toBe(true);
    const check = apds.response('put-sessions-id', status, body);
    expect(check.errors, `put-sessions-id ${status}`).toEqual([]);
    expect(check.ambiguities).toEqual([]);
  }
  const rightsCount = async () =>
    (await queryRows<{ n: number }>(db, sql`select count(*)::int as n from apds_assigned_rights`))[0]!.n;
  const row = async (id: string) =>
    (
      await queryRows<{ version: number; updated_at: string; zone_id: number }>(
        db,
        sql`select version, updated_at::text, zone_id from apds_partner_sessions where apds_id = ${id}`,
      )
    )[0];
  /**
   * The Session `id` as registered by `session()`, at `version`, ended at `endMs`; its segment's
   * inline right at `rightVersion` (the right's window ends with the segment) in `zoneId`.
   */
  const next = (id: string, plate: string, version: number, endMs: number, rightVersion = version, zoneId = zone) => {
    const body = session(id, plate, zoneId, { version, actualEnd: iso(endMs) });
    body.segments[0]!.actualEnd = iso(endMs);
    body.segments[0]!.assignedRight.version = rightVersion;
    return body;
  };

  it('the document has the operation', () => {
    expect(apds.operationIds()).toContain('put-sessions-id');
  });

  it('replaces the Session: GET answers the new version; the segment’s right is its next version too', async () => {
    const first = session('partner-put-1', 'PSU 100');
    expect((await sendP(first)).statusCode).toBe(200);
    const body = next('partner-put-1', 'PSU 100', 2, now + 90 * 60_000);
    // The document's update body is the create's oneOf (whose ReferenceQuoteExtension every object
    // matches): checked against its Session branch.
    expectValid('get-sessions-id', body);
    const res = await put('partner-put-1', body);
    expect(res.statusCode, res.body).toBe(200);
    expectAnswer(200, res.json());
    expect(res.json()).toMatchObject({ status: 'ok', code: 200, message: 'Updated' });
    const one = await getP('/apds/sessions/partner-put-1');
    expect(one.json()).toEqual(res.json().session);
    expect(one.json()).toMatchObject({ version: 2, actualEnd: iso(now + 90 * 60_000) });
    const right = res.json().assignedRights[0];
    expect(right).toMatchObject({ id: 'partner-put-1-right', version: 2, expiry: iso(now + 90 * 60_000) });
    expect(one.json().segments[0].assignedRight).toEqual(right);
    expect((await getP('/apds/rights/assigned/partner-put-1-right')).json()).toEqual(right);
    // The list's end filter reads the new end.
    const endsAfter = await getP(
      `/apds/sessions?credential_id=partner-put-1&end_after=${Math.floor(now / 1000) + 3600}`,
    );
    expect(endsAfter.json().data.map((s: { id: string }) => s.id)).toEqual(['partner-put-1']);
    // A registration repeating the first content is now other content; one repeating the new is this Session.
    expect((await sendP(first)).statusCode).toBe(409);
    expect((await sendP(body)).statusCode).toBe(200);
    expect((await getP('/apds/sessions/partner-put-1')).json()).toEqual(one.json());
  });

  it('the same body again, and any version but the next, is a 409 (the document’s message) and changes nothing', async () => {
    const before = (await getP('/apds/sessions/partner-put-1')).json();
    const kept = await row('partner-put-1');
    const rights = await rightsCount();
    const again = await put('partner-put-1', next('partner-put-1', 'PSU 100', 2, now + 90 * 60_000));
    expect(again.statusCode).toBe(409);
    expectAnswer(409, again.json());
    expect(again.json()).toMatchObject({
      status: 'error',
      code: 409,
      message: 'Outdated version number provided',
      errors: [{ field: 'version' }],
    });
    for (const version of [1, 4]) {
      // A new right in the segment: refused with the Session, it is not kept either.
      const body = next('partner-put-1', 'PSU 101', version, now + 60 * 60_000, 1);
      body.segments[0]!.assignedRight.id = `partner-put-1-right-v${version}`;
      const res = await put('partner-put-1', body);
      expect(res.statusCode, `version ${version}`).toBe(409);
      expect(res.json().errors).toEqual([{ field: 'version', message: 'Outdated version number provided' }]);
    }
    // The segment's right at a version that is not its next: a 409 naming it.
    const staleRight = await put('partner-put-1', next('partner-put-1', 'PSU 100', 3, now + 100 * 60_000, 4));
    expect(staleRight.statusCode).toBe(409);
    expect(staleRight.json().errors).toEqual([
      { field: 'segments.0.assignedRight.version', message: 'Outdated version number provided' },
    ]);
    expect((await getP('/apds/sessions/partner-put-1')).json()).toEqual(before);
    expect(await row('partner-put-1')).toEqual(kept);
    expect(await rightsCount()).toBe(rights);
  });

  it('refuses bad input with the registration’s 400s, and changes nothing', async () => {
    const before = (await getP('/apds/sessions/partner-put-1')).json();
    const kept = await row('partner-put-1');
    const rights = await rightsCount();
    const ofB = (await queryRows<{ id: number }>(db, sql`select id from zones where zone_number = 'PSSB'`))[0]!.id;
    const named = next('partner-put-1', 'PSU 100', 3, now + 90 * 60_000);
    (named.segments[0] as { assignedRight: object }).assignedRight = { id: 'nobody-s-right', version: 1 };
    const cases: Array<[object, string]> = [
      [
        { ...next('partner-put-1', 'PSU 100', 3, now + 90 * 60_000), identifiedCredentials: [] },
        'identifiedCredentials',
      ],
      [{ ...next('partner-put-1', 'PSU 100', 3, now + 90 * 60_000), actualStart: 'today' }, 'actualStart'],
      [next('partner-put-1', 'PSU 100', 3, now + 90 * 60_000, 3, ofB), 'rightSpecification.id'],
      [named, 'segments.0.assignedRight.id'],
    ];
    for (const [body, field] of cases) {
      const res = await put('partner-put-1', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expectAnswer(400, res.json());
      expect(res.json()).toMatchObject({ status: 'error', code: 400 });
      expect(res.json().errors[0].field, res.body).toBe(field);
      // The same words as the registration's refusal of the same body.
      const registered = await sendP({ ...body, id: 'partner-put-twin', version: 1 });
      expect(res.json().errors, res.body).toEqual(registered.json().errors);
    }
    const otherId = await put('partner-put-1', next('partner-put-2', 'PSU 100', 3, now + 90 * 60_000));
    expect(otherId.statusCode).toBe(400);
    expect(otherId.json().errors).toEqual([{ field: 'id', message: 'The id in the body must be the id in the path' }]);
    expect((await getP('/apds/sessions/partner-put-1')).json()).toEqual(before);
    expect(await row('partner-put-1')).toEqual(kept);
    expect(await rightsCount()).toBe(rights);
  });

  it('ParkIt’s own session is a 409; another operator’s key and an unknown id are a 404; nothing changes', async () => {
    const before = (await getP('/apds/sessions/partner-put-1')).json();
    const rights = await rightsCount();
    const unknown = await put('partner-put-nobody', next('partner-put-nobody', 'PSU 102', 2, now + 60 * 60_000));
    expect(unknown.statusCode).toBe(404);
    expectAnswer(404, unknown.json());
    expect(unknown.json()).toEqual({ status: 'error', code: 404, message: 'Not found' });
    // B's body is valid for B (its own zone), so only the id decides.
    const ofB = (await queryRows<{ id: number }>(db, sql`select id from zones where zone_number = 'PSSB'`))[0]!.id;
    for (const version of [before.version, before.version + 1]) {
      const foreign = await put(
        'partner-put-1',
        next('partner-put-1', 'PSU 103', version, now + 60 * 60_000, 1, ofB),
        keyB,
      );
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json()).toEqual(unknown.json());
    }
    // Its inline rights were new: written before the id was found missing, and undone with it.
    expect(await rightsCount()).toBe(rights);

    const driver = await registerAndSignIn(app);
    const vehicle = await addVehicle(app, driver, 'PSU104');
    await credit(db, driver.memberId, 5000);
    const parked = await startSession(app, driver, { zoneId: zone, vehicleId: vehicle, minutes: 30 });
    const ours = `session-${parked.SessionId}`;
    const own = await put(ours, next(ours, 'PSU 104', 2, now + 60 * 60_000));
    expect(own.statusCode).toBe(409);
    expectAnswer(409, own.json());
    expect(own.json()).toMatchObject({ status: 'error', code: 409, errors: [{ field: 'id' }] });
    expect((await put(ours, next(ours, 'PSU 104', 2, now + 60 * 60_000), keyB)).statusCode).toBe(404);
    expect((await getP(`/apds/sessions/${ours}`)).json()).toMatchObject({ id: ours, version: 1 });
    expect((await getP('/apds/sessions/partner-put-1')).json()).toEqual(before);
    expect(await rightsCount()).toBe(rights);
    expect((await app.inject({ method: 'PUT', url: '/apds/sessions/partner-put-1', payload: before })).statusCode).toBe(
      401,
    );
  });

  it('PUTs of one version at once: exactly one is written, the others are 409s', async () => {
    expect((await sendP(session('partner-put-race', 'PSU 200'))).statusCode).toBe(200);
    // Version 2 changes the Session alone (its segment's right is the same right again); version 3
    // moves the right to its next version too.
    const bodies = (version: number, i: number) =>
      version === 2
        ? { ...session('partner-put-race', 'PSU 200'), version, actualEnd: iso(now + (60 + i) * 60_000) }
        : next('partner-put-race', 'PSU 200', version, now + (90 + i) * 60_000, 2);
    for (const version of [2, 3]) {
      const results = await concurrently(4, (i) => put('partner-put-race', bodies(version, i)));
      expect(statusCounts(results)).toEqual({ 200: 1, 409: 3 });
      const winner = results.find((r) => r.statusCode === 200)!.json().session;
      expect(winner.version).toBe(version);
      expect((await getP('/apds/sessions/partner-put-race')).json()).toEqual(winner);
    }
  });

  it('an Idempotency-Key: the retry of a written PUT answers its 200 again; another body with the key is a 422', async () => {
    expect((await sendP(session('partner-put-key', 'PSU 300'))).statusCode).toBe(200);
    const body = next('partner-put-key', 'PSU 300', 2, now + 60 * 60_000);
    const first = await put('partner-put-key', body, keyP, 'put-key-1');
    expect(first.statusCode, first.body).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const kept = await row('partner-put-key');
    const retry = await put('partner-put-key', body, keyP, 'put-key-1');
    expect(retry.statusCode).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expectAnswer(200, retry.json());
    expect(retry.json()).toEqual(first.json());
    // No second version: the row is as the first try left it.
    expect(await row('partner-put-key')).toEqual(kept);
    // Without the key the same retry is the stale version it is.
    expect((await put('partner-put-key', body)).statusCode).toBe(409);
    const reused = await put('partner-put-key', { ...body, actualEnd: iso(now + 61 * 60_000) }, keyP, 'put-key-1');
    expect(reused.statusCode).toBe(422);
    expect(reused.json()).toMatchObject({ status: 'error', code: 422, errors: [{ field: 'Idempotency-Key' }] });
    // The key is the operator's: another operator's same key is another key (and its 404).
    const ofB = (await queryRows<{ id: number }>(db, sql`select id from zones where zone_number = 'PSSB'`))[0]!.id;
    const bodyOfB = next('partner-put-key', 'PSU 300', 2, now + 60 * 60_000, 2, ofB);
    expect((await put('partner-put-key', bodyOfB, keyB, 'put-key-1')).statusCode).toBe(404);
    expect(await row('partner-put-key')).toEqual(kept);

    // Retries of one key at once: one writes, the others answer its answer.
    const third = next('partner-put-key', 'PSU 300', 3, now + 70 * 60_000);
    const results = await concurrently(4, () => put('partner-put-key', third, keyP, 'put-key-2'));
    expect(statusCounts(results)).toEqual({ 200: 4 });
    expect(results.filter((r) => r.headers['idempotent-replayed'] === 'true')).toHaveLength(3);
    for (const r of results) expect(r.json()).toEqual(results[0]!.json());
    expect((await row('partner-put-key'))!.version).toBe(3);
  });

  it('subscribers get SessionUpdated once, its data the new version as answered, signed; refused and replayed PUTs send none', async () => {
    const receiver = await webhookReceiver(() => 200);
    try {
      const subscribe = async (path: string, extra: object = {}) => {
        const res = await app.inject({
          method: 'POST',
          url: '/apds/webhooks',
          headers: { 'x-operator-key': keyP },
          payload: { endpoint: `${receiver.url}${path}`, topics: ['SessionUpdated'], ...extra },
        });
        expect(res.statusCode, res.body).toBe(200);
        return res.json<{ secret: string }>().secret;
      };
      const secret = await subscribe('/updated');
      // Limited to the zone the Session moves into: it hears the update there.
      await subscribe('/updated-other', { hierarchyElements: [{ className: 'Place', id: `zone-${other}` }] });
      await sendP(session('partner-put-events', 'PSU 400'));
      const moved = next('partner-put-events', 'PSU 400', 2, now + 60 * 60_000, 2, other);
      const res = await put('partner-put-events', moved, keyP, 'put-events-1');
      expect(res.statusCode, res.body).toBe(200);
      expect((await put('partner-put-events', moved, keyP, 'put-events-1')).headers['idempotent-replayed']).toBe(
        'true',
      );
      expect((await put('partner-put-events', moved)).statusCode).toBe(409);
      expect((await put('partner-put-events', { ...moved, version: 3, actualStart: 'soon' })).statusCode).toBe(400);
      const answered = (await getP('/apds/sessions/partner-put-events')).json();
      const sender = webhookSender({ currency: 'USD', privateOk: true, log: app.log });
      for (let i = 0; i < 5; i++) await sender(db, new Date(Date.now() + i * 3_600_000));
      const updated = accepted(receiver.hits, '/updated');
      expect(updated.map((e) => [e.topic, e.objectId])).toEqual([['SessionUpdated', 'partner-put-events']]);
      expect(accepted(receiver.hits, '/updated-other').map((e) => e.topic)).toEqual(['SessionUpdated']);
      for (const h of receiver.hits.filter((x) => x.path === '/updated')) {
        expect(verifySignature(secret, h.body, h.headers['x-parkit-signature'])).toBe(true);
        const event = JSON.parse(h.body);
        expect(apds.callback('placeEvent', event).errors).toEqual([]);
        expectValid('get-sessions-id', event.data[0]);
        expect(event.data[0]).toEqual(answered);
        expect(event.data[0]).toEqual(res.json().session);
      }
    } finally {
      await receiver.close();
    }
  });
});
