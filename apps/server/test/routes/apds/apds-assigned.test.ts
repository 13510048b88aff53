import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../../src/db/client.ts';
import { apdsAssignedRights, zones } from '../../../src/db/schema/index.ts';
import { createKey, rightToPark, rightsOfZones } from '../../../src/enforcement/index.ts';
import { subscribe } from '../../../src/apds/index.ts';
import { insertZones } from '../../../src/zones/index.ts';
import { buildTestApp } from '../../helpers.ts';
import { newOperator } from '../../operator-helpers.ts';
import { concurrently, statusCounts } from '../../concurrency.ts';
import { addZone, zoneAt } from '../../parking-helpers.ts';
import { loadApds } from '../../support/apds-validator.ts';

/**
 * APDS assigned rights (docs/apds.md#assigned-rights): a third party with an operator's key
 * creates a right in the register, reads it back, and the plate check honours it until its end.
 * Every answer is checked against the APDS document itself. Runs on PGlite and on PostgreSQL.
 */
const { app, database } = await buildTestApp({ ADDRESS_RATE_LIMIT_SCALE: 1000 });
const { db } = database;
const apds = await loadApds();

const B = await newOperator(db, 'APDS assigned B');
const zone = await addZone(db, 'ASG1');
await insertZones(db, B, [zoneAt('ASGB', '9 Elm St', { lat: 32.78, lng: -96.8 })]);
const [zoneOfB] = await db.select().from(zones).where(eq(zones.zoneNumber, 'ASGB'));
const A = (await db.select({ operatorId: zones.operatorId }).from(zones).where(eq(zones.id, zone)))[0]!.operatorId;
const keyA = (await createKey(db, A, 'partner app A')).key;
const keyRace = (await createKey(db, A, 'partner app A, race')).key;
const keyB = (await createKey(db, B, 'partner app B')).key;
const keyUpdate = (await createKey(db, A, 'partner app A, updates')).key;

const hour = 3_600_000;
const rightBody = (id: string, plate: string, startMs: number, endMs: number, extra: object = {}) => ({
  id,
  version: 1,
  rightHolder: {
    credentials: [
      {
        identifier: { className: 'LicensePlate', id: plate },
        issuer: [{ language: 'en', string: 'TX' }],
        type: 'licensePlate',
      },
    ],
  },
  rightSpecification: { id: `zone-${zone}`, version: 1, className: 'RightSpecification' },
  issuanceTime: new Date(startMs).toISOString(),
  expiry: new Date(endMs).toISOString(),
  issueMethod: 'electronic',
  plannedUses: [{ startTime: new Date(startMs).toISOString() }],
  ...extra,
});

const post = (body: unknown, key = keyA, idempotencyKey?: string) =>
  app.inject({
    method: 'POST',
    url: '/apds/rights/assigned',
    headers: { 'x-operator-key': key, ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) },
    payload: body as object,
  });
const get = (url: string, key = keyA) => app.inject({ method: 'GET', url, headers: { 'x-operator-key': key } });
const put = (id: string, body: unknown, key = keyUpdate, idempotencyKey?: string) =>
  app.inject({
    method: 'PUT',
    url: `/apds/rights/assigned/${id}`,
    headers: { 'x-operator-key': key, ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) },
    payload: body as object,
  });
const del = (id: string, key = keyUpdate) =>
  app.inject({ method: 'DELETE', url: `/apds/rights/assigned/${id}`, headers: { 'x-operator-key': key } });
const plateCheck = (plate: string, key = keyUpdate) =>
  app.inject({
    method: 'GET',
    url: `/api/Enforcement/Check?zone=ASG1&plate=${plate}&state=TX`,
    headers: { 'x-operator-key': key },
  });

/** The document's overlapping oneOfs (support/apds-validator.ts): a holder's credential matches each branch. */
const KNOWN_AMBIGUITY = /^(\/data\/\d+|\/assignedRight)?\/rightHolder\/credentials\/\d+ \[0,\d(,\d)*\]$/;

function expectValid(operationId: string, status: number, body: unknown) {
  expect(apds.declares(operationId, status), `${operationId} ${status} is in the APDS document`).toBe(true);
  const check = apds.response(operationId, status, body);
  expect(check.errors, `${operationId} ${status}`).toEqual([]);
  expect(check.ambiguities.filter((a) => !KNOWN_AMBIGUITY.test(a))).toEqual([]);
}

/**
 * Bodies a create and an update refuse, each with the field its 400 names; `id(i)` names the i-th
 * (a create's own id, or an update's path id), `version` the body's version.
 */
function badBodies(id: (i: number) => string, version = 1): Array<[unknown, string]> {
  const now = Date.now();
  const body = (i: number, plate: string, startMs: number, endMs: number, extra: object = {}) =>
    rightBody(id(i), plate, startMs, endMs, { version, ...extra });
  return [
    [{ id: 'x' }, 'version'],
    [rightBody('bad id!', 'ASG 1', now, now + hour, { version }), 'id'],
    [
      body(3, 'ASG 1', now, now + hour, { rightSpecification: { id: `zone-${zoneOfB!.id}`, version: 1 } }),
      'rightSpecification.id',
    ],
    [
      body(4, 'ASG 1', now, now + hour, { rightSpecification: { id: 'policy-1', version: 1 } }),
      'rightSpecification.id',
    ],
    [body(5, 'ASG 1', now, now - hour), 'expiry'],
    [body(6, 'ASG 1', now, now + hour, { expiry: undefined, plannedUses: undefined }), 'expiry'],
    [body(7, 'ASG 1', now, now + 500 * 24 * hour), 'expiry'],
    [body(8, 'ASG 1', now, now + hour, { expiry: 'tomorrow' }), 'expiry'],
    [
      body(9, 'ASG 1', now, now + hour, {
        rightHolder: {
          credentials: [
            { identifier: { className: 'Card', id: '1' }, issuer: [{ language: 'en', string: 'x' }], type: 'rfid' },
          ],
        },
      }),
      'rightHolder.credentials',
    ],
    [body(10, '***', now, now + hour), 'rightHolder.credentials'],
  ];
}

const res400Message = (res: { json: () => { errors: Array<{ message: string }> } }) => res.json().errors[0]!.message;

const rows = async () => (await db.select({ n: sql<number>`count(*)::int` }).from(apdsAssignedRights))[0]!.n;

describe('APDS assigned rights', () => {
  it('the document has the operations served', () => {
    expect(apds.operationIds()).toEqual(
      expect.arrayContaining([
        'create-assigned_right',
        'list-assigned_rights',
        'read-assigned_right',
        'update-assigned_right',
        'delete-assigned_right',
      ]),
    );
  });

  it('creates a right (an APDS AssignedRight) and answers it; a repeat answers the same right', async () => {
    const now = Date.now();
    const body = rightBody('partner-1', 'asg 101', now - hour, now + hour);
    // The document's create body is oneOf [AssignedRight, ReferenceToQuote]; the second's
    // ReferenceQuoteNew has only optional properties, so every object matches it too and no
    // AssignedRight passes that oneOf as published: the body is checked against the AssignedRight
    // branch (the read's schema), the only form ParkIt takes.
    const asSent = apds.response('read-assigned_right', 200, body);
    expect(asSent.errors).toEqual([]);
    expect(asSent.ambiguities.filter((a) => !KNOWN_AMBIGUITY.test(a))).toEqual([]);
    const res = await post(body, keyA, 'key-1');
    expect(res.statusCode, res.body).toBe(201);
    expectValid('create-assigned_right', 201, res.json());
    expect(res.headers.location).toBe('/apds/rights/assigned/partner-1');
    const right = res.json().assignedRight;
    expect(right).toMatchObject({
      id: 'partner-1',
      rightSpecification: { id: `zone-${zone}`, version: 1 },
      expiry: new Date(now + hour).toISOString(),
      plannedUses: [{ startTime: new Date(now - hour).toISOString(), endTime: new Date(now + hour).toISOString() }],
    });

    const again = await post(body, keyA, 'key-1');
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().assignedRight).toEqual(right);
    // The id alone is the handle too.
    expect((await post(body)).json().assignedRight).toEqual(right);
    expect(await rows()).toBe(1);
    // Times left out are the first create's, not each repeat's.
    const untimed = { ...body, id: 'partner-untimed', issuanceTime: undefined, plannedUses: undefined };
    const first = await post(untimed);
    await new Promise((r) => setTimeout(r, 5));
    expect((await post(untimed)).json().assignedRight).toEqual(first.json().assignedRight);
    await db.delete(apdsAssignedRights).where(eq(apdsAssignedRights.apdsId, 'partner-untimed'));

    const one = await get('/apds/rights/assigned/partner-1');
    expect(one.statusCode).toBe(200);
    expectValid('read-assigned_right', 200, one.json());
    expect(one.json()).toEqual(right);
  });

  it('refuses a conflicting repeat with a 409 and writes nothing', async () => {
    const now = Date.now();
    const changed = await post(rightBody('partner-1', 'OTHER 1', now, now + hour));
    expect(changed.statusCode).toBe(409);
    expect(changed.json()).toMatchObject({ status: 'error', code: 409, errors: [{ field: 'id' }] });
    const reused = await post(rightBody('partner-2', 'ASG 102', now, now + hour), keyA, 'key-1');
    expect(reused.statusCode).toBe(409);
    expect(reused.json().errors[0].field).toBe('Idempotency-Key');
    expect(await rows()).toBe(1);
  });

  it('refuses bad input with a clear 400 in the document’s ResponseStatus, and writes nothing', async () => {
    for (const [body, field] of badBodies((i) => `p-${i}`)) {
      const res = await post(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expectValid('create-assigned_right', 400, res.json());
      expect(res.json()).toMatchObject({ status: 'error', code: 400 });
      expect(res.json().errors[0].field, res.body).toBe(field);
      expect(res.json().message).not.toBe('');
    }
    expect(await rows()).toBe(1);
  });

  it('lists the operator’s rights by the document’s filters; another operator’s key sees none (404 by id)', async () => {
    const list = await get('/apds/rights/assigned');
    expect(list.statusCode).toBe(200);
    expectValid('list-assigned_rights', 200, list.json());
    expect(list.json().data.map((r: { id: string }) => r.id)).toEqual(['partner-1']);
    expect(list.json().meta).toMatchObject({ total: 1, offset: 0 });
    const byPlate = await get('/apds/rights/assigned?credential_id=ASG-101');
    expect(byPlate.json().data).toHaveLength(1);
    expect((await get('/apds/rights/assigned?credential_id=NOPE1')).json().data).toEqual([]);
    expect((await get(`/apds/rights/assigned?right_spec=zone-${zone}`)).json().data).toHaveLength(1);
    expect((await get(`/apds/rights/assigned?place=zone-${zoneOfB!.id}`)).json().data).toEqual([]);
    expect((await get('/apds/rights/assigned?credential_type=rfid')).json().data).toEqual([]);
    const later = Math.floor(Date.now() / 1000) + 2 * 3600;
    expect((await get(`/apds/rights/assigned?end_after=${later}`)).json().data).toEqual([]);
    expect((await get(`/apds/rights/assigned?end_before=${later}`)).json().data).toHaveLength(1);

    const ofB = await get('/apds/rights/assigned', keyB);
    expectValid('list-assigned_rights', 200, ofB.json());
    expect(ofB.json().data).toEqual([]);
    const hidden = await get('/apds/rights/assigned/partner-1', keyB);
    expect(hidden.statusCode).toBe(404);
    expectValid('read-assigned_right', 404, hidden.json());
    expect((await app.inject({ method: 'GET', url: '/apds/rights/assigned' })).statusCode).toBe(401);
    expect((await post(rightBody('p-11', 'ASG 1', Date.now(), Date.now() + hour), 'pk_notakey')).statusCode).toBe(401);
  });

  it('the plate check honours the right, by its kind and id, until its end; the officers’ download lists it', async () => {
    const check = await app.inject({
      method: 'GET',
      url: `/api/Enforcement/Check?zone=ASG1&plate=asg-101&state=CA`,
      headers: { 'x-operator-key': keyA },
    });
    expect(check.statusCode, check.body).toBe(200);
    const right = (await get('/apds/rights/assigned/partner-1')).json();
    expect(check.json()).toMatchObject({
      Paid: true,
      Right: { Kind: 'assigned-right', Id: 'partner-1', EndsAt: right.expiry },
    });
    const end = new Date(right.expiry);
    expect(await rightToPark(db, { zoneId: zone, plate: 'ASG101', at: new Date(end.getTime() - 1000) })).toEqual({
      kind: 'assigned-right',
      id: 'partner-1',
      endsAt: right.expiry,
    });
    expect(await rightToPark(db, { zoneId: zone, plate: 'ASG101', at: end })).toBeNull();
    expect(await rightToPark(db, { zoneId: zone, plate: 'ASG102', at: new Date() })).toBeNull();

    // A right whose window has passed covers nothing now.
    const past = await post(rightBody('partner-past', 'ASG 103', Date.now() - 3 * hour, Date.now() - hour));
    expect(past.statusCode).toBe(201);
    const late = await app.inject({
      method: 'GET',
      url: `/api/Enforcement/Check?zone=ASG1&plate=ASG103&state=TX`,
      headers: { 'x-operator-key': keyA },
    });
    expect(late.json()).toMatchObject({ Paid: false, Right: null });

    const download = await rightsOfZones(db, A, [zone], new Date(), 100);
    expect(download.Rights.filter((r) => r.Kind === 'assigned-right')).toEqual([
      {
        ZoneId: zone,
        Kind: 'assigned-right',
        Id: 'partner-1',
        PlateNumber: 'ASG101',
        PlateState: null,
        StartsAt: right.plannedUses[0].startTime,
        EndsAt: right.expiry,
      },
    ]);
  });

  it('10 parallel creates with one Idempotency-Key write one right', async () => {
    const now = Date.now();
    const body = rightBody('partner-race', 'ASG 200', now, now + hour);
    const results = await concurrently(10, () => post(body, keyRace, 'race-key'));
    expect(statusCounts(results)).toEqual({ 201: 10 });
    expect(new Set(results.map((r) => JSON.stringify(r.json().assignedRight))).size).toBe(1);
    const stored = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from apds_assigned_rights where idempotency_key = 'race-key'`,
    );
    expect(stored[0]!.n).toBe(1);
    // Ten different bodies racing for one key: one wins, the others are told so.
    const racing = await concurrently(10, (i) =>
      post(rightBody(`partner-race-${i}`, 'ASG 201', now, now + hour), keyRace, 'race-key-2'),
    );
    expect(statusCounts(racing)).toEqual({ 201: 1, 409: 9 });
  });

  it('POST /apds/sessions: a session’s inline right is kept and honoured; an unknown one refuses the whole session', async () => {
    const now = Date.now();
    const inline = (id: string, plate: string) => {
      const { expiry: _e, plannedUses: _p, issuanceTime: _i, ...right } = rightBody(id, plate, now, now);
      return right;
    };
    const session = (segments: object[]) => ({
      id: 'partner-session-1',
      version: 1,
      actualStart: new Date(now - 60_000).toISOString(),
      initiator: { id: 'partner-app', version: 1, className: 'Application' },
      identifiedCredentials: inline('x', 'ASG 300').rightHolder.credentials,
      segments,
    });
    const segment = (assignedRight: object) => ({
      id: 'seg-1',
      version: 1,
      actualStart: new Date(now - 60_000).toISOString(),
      actualEnd: new Date(now + 30 * 60_000).toISOString(),
      assignedRight,
      validationType: ['licensePlate'],
    });
    const send = (body: object) =>
      app.inject({ method: 'POST', url: '/apds/sessions', headers: { 'x-operator-key': keyA }, payload: body });

    const before = await rows();
    const refused = await send(
      session([segment(inline('sess-right-0', 'ASG 299')), segment({ id: 'nobody', version: 1 })]),
    );
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      status: 'error',
      code: 400,
      errors: [{ field: 'segments.1.assignedRight.id' }],
    });
    expect(await rows()).toBe(before);

    const body = session([segment(inline('sess-right-1', 'ASG 300')), segment({ id: 'partner-1', version: 1 })]);
    const res = await send(body);
    expect(res.statusCode, res.body).toBe(200);
    expectValid('post-sessions', 200, res.json());
    const [created, named] = res.json().assignedRights;
    expect(created).toMatchObject({
      id: 'sess-right-1',
      expiry: new Date(now + 30 * 60_000).toISOString(),
      plannedUses: [{ startTime: new Date(now - 60_000).toISOString() }],
    });
    expect(named.id).toBe('partner-1');
    expect((await send(body)).json().assignedRights).toEqual(res.json().assignedRights);
    expect(await rows()).toBe(before + 1);

    const check = await app.inject({
      method: 'GET',
      url: `/api/Enforcement/Check?zone=ASG1&plate=ASG300&state=TX`,
      headers: { 'x-operator-key': keyA },
    });
    expect(check.json()).toMatchObject({ Paid: true, Right: { Kind: 'assigned-right', Id: 'sess-right-1' } });
  });

  it('PUT replaces a right with its next version; the plate check honours the new content at once', async () => {
    const now = Date.now();
    expect((await post(rightBody('upd-1', 'UPD 1', now - hour, now + hour), keyUpdate)).statusCode).toBe(201);
    expect((await plateCheck('UPD1')).json()).toMatchObject({ Paid: true, Right: { Id: 'upd-1' } });

    const next = rightBody('upd-1', 'UPD 2', now - hour, now + 2 * hour, { version: 2, issueMethod: 'permit' });
    // The document's update body is the create's oneOf: checked against its AssignedRight branch.
    expect(apds.response('read-assigned_right', 200, next).errors).toEqual([]);
    const res = await put('upd-1', next);
    expect(res.statusCode, res.body).toBe(200);
    expectValid('update-assigned_right', 200, res.json());
    expect(res.json()).toMatchObject({ status: 'ok', code: 200, message: 'Updated' });
    expect(res.json().assignedRight).toMatchObject({
      id: 'upd-1',
      version: 2,
      issueMethod: 'permit',
      expiry: new Date(now + 2 * hour).toISOString(),
      rightHolder: { credentials: [{ identifier: { id: 'UPD 2' } }] },
    });
    expect((await get('/apds/rights/assigned/upd-1', keyUpdate)).json()).toEqual(res.json().assignedRight);
    expect((await plateCheck('UPD1')).json()).toMatchObject({ Paid: false, Right: null });
    expect((await plateCheck('UPD2')).json()).toMatchObject({
      Paid: true,
      Right: { Kind: 'assigned-right', Id: 'upd-1', EndsAt: new Date(now + 2 * hour).toISOString() },
    });
    // A create repeating the first content is now other content; one repeating the new is this right.
    expect((await post(rightBody('upd-1', 'UPD 1', now - hour, now + hour), keyUpdate)).statusCode).toBe(409);
    const again = await post(next, keyUpdate);
    expect(again.statusCode).toBe(201);
    expect(again.json().assignedRight).toEqual(res.json().assignedRight);
  });

  it('PUT with a version that is not the next one is a 409 (the document’s message) and changes nothing', async () => {
    const before = (await get('/apds/rights/assigned/upd-1', keyUpdate)).json();
    expect(before.version).toBe(2);
    const now = Date.now();
    for (const version of [1, 2, 4]) {
      const res = await put('upd-1', rightBody('upd-1', 'UPD 9', now, now + hour, { version }));
      expect(res.statusCode, `version ${version}`).toBe(409);
      expectValid('update-assigned_right', 409, res.json());
      expect(res.json()).toMatchObject({
        status: 'error',
        code: 409,
        message: 'Outdated version number provided',
        errors: [{ field: 'version' }],
      });
    }
    expect((await get('/apds/rights/assigned/upd-1', keyUpdate)).json()).toEqual(before);
    expect((await plateCheck('UPD9')).json()).toMatchObject({ Paid: false, Right: null });
  });

  it('PUT refuses bad input with the create’s 400s, and changes nothing', async () => {
    const before = (await get('/apds/rights/assigned/upd-1', keyUpdate)).json();
    const count = await rows();
    const now = Date.now();
    const cases: Array<[unknown, string]> = [
      ...badBodies(() => 'upd-1', 3),
      [rightBody('upd-other', 'UPD 3', now, now + hour, { version: 3 }), 'id'],
    ];
    for (const [body, field] of cases) {
      const res = await put('upd-1', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expectValid('update-assigned_right', 400, res.json());
      expect(res.json()).toMatchObject({ status: 'error', code: 400 });
      expect(res.json().errors[0].field, res.body).toBe(field);
      // The same words as the create's refusal of the same body.
      if (field === 'id') continue;
      const created = await post({ ...(body as object), id: 'upd-create-twin' }, keyUpdate);
      expect(res.json().errors, res.body).toEqual(created.json().errors);
    }
    expect(res400Message(await put('upd-1', rightBody('upd-other', 'UPD 3', now, now + hour, { version: 3 })))).toBe(
      'The id in the body must be the id in the path',
    );
    expect((await get('/apds/rights/assigned/upd-1', keyUpdate)).json()).toEqual(before);
    expect(await rows()).toBe(count);
    // Nothing moved the version on: the next one is still 3.
    expect((await put('upd-1', rightBody('upd-1', 'UPD 2', now, now + hour, { version: 3 }))).statusCode).toBe(200);
  });

  it('another operator’s id is a 404 to PUT and DELETE, as a missing one is, and changes nothing', async () => {
    const before = (await get('/apds/rights/assigned/upd-1', keyUpdate)).json();
    const now = Date.now();
    // B's body is valid for B (its own zone), so only the id decides.
    const ofB = (id: string, version: number) =>
      rightBody(id, 'UPD 7', now, now + hour, {
        version,
        rightSpecification: { id: `zone-${zoneOfB!.id}`, version: 1 },
      });
    const missing = await put('nobody', ofB('nobody', 2), keyB);
    expect(missing.statusCode).toBe(404);
    expectValid('update-assigned_right', 404, missing.json());
    for (const version of [before.version, before.version + 1]) {
      const foreign = await put('upd-1', ofB('upd-1', version), keyB);
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json()).toEqual(missing.json());
    }
    const missingDelete = await del('nobody', keyB);
    expect(missingDelete.statusCode).toBe(404);
    expectValid('delete-assigned_right', 404, missingDelete.json());
    const foreignDelete = await del('upd-1', keyB);
    expect(foreignDelete.statusCode).toBe(404);
    expect(foreignDelete.json()).toEqual(missingDelete.json());
    expect((await get('/apds/rights/assigned/upd-1', keyUpdate)).json()).toEqual(before);
    expect((await plateCheck('UPD2')).json()).toMatchObject({ Paid: true, Right: { Id: 'upd-1' } });
    expect((await app.inject({ method: 'DELETE', url: '/apds/rights/assigned/upd-1' })).statusCode).toBe(401);
  });

  it('DELETE removes the right: the read is a 404 and the plate check no longer honours it', async () => {
    const res = await del('upd-1');
    expect(res.statusCode, res.body).toBe(200);
    expectValid('delete-assigned_right', 200, res.json());
    expect(res.json()).toEqual({ status: 'ok', code: 200, message: 'Deleted' });
    const gone = await get('/apds/rights/assigned/upd-1', keyUpdate);
    expect(gone.statusCode).toBe(404);
    expectValid('read-assigned_right', 404, gone.json());
    expect((await plateCheck('UPD2')).json()).toMatchObject({ Paid: false, Right: null });
    expect(await rightToPark(db, { zoneId: zone, plate: 'UPD2', at: new Date() })).toBeNull();
    const download = await rightsOfZones(db, A, [zone], new Date(), 100);
    expect(download.Rights.filter((r) => r.Id === 'upd-1')).toEqual([]);
    expect((await get('/apds/rights/assigned?credential_id=UPD2', keyUpdate)).json().data).toEqual([]);
    // Gone is gone: a second delete and an update are 404s.
    expect((await del('upd-1')).statusCode).toBe(404);
    const now = Date.now();
    expect((await put('upd-1', rightBody('upd-1', 'UPD 2', now, now + hour, { version: 4 }))).statusCode).toBe(404);
  });

  it('two PUTs of one version at once: exactly one is written, the other is a 409', async () => {
    const now = Date.now();
    expect((await post(rightBody('upd-race', 'UPD 50', now, now + hour), keyRace)).statusCode).toBe(201);
    for (const version of [2, 3, 4]) {
      const results = await concurrently(2, (i) =>
        put('upd-race', rightBody('upd-race', `UPD ${version}${i}`, now, now + hour, { version }), keyRace),
      );
      expect(statusCounts(results)).toEqual({ 200: 1, 409: 1 });
      const winner = results.find((r) => r.statusCode === 200)!.json().assignedRight;
      expect(winner.version).toBe(version);
      expect((await get('/apds/rights/assigned/upd-race', keyRace)).json()).toEqual(winner);
    }
  });

  it('PUT with an Idempotency-Key: its retry answers the first 200 again, with no second version nor event', async () => {
    const key = (await createKey(db, A, 'partner app A, idempotent updates')).key;
    // A subscription, so that each written version is an event in the outbox.
    await subscribe(db, A, { endpoint: 'http://127.0.0.1:9/rights', topics: ['AssignedRightUpdated'] }, true);
    const events = async () =>
      (
        await queryRows<{ n: number }>(
          db,
          sql`select count(*)::int as n from apds_webhook_deliveries where topic = 'AssignedRightUpdated'`,
        )
      )[0]!.n;
    const stored = async () =>
      (
        await queryRows<{ version: number; updated_at: string }>(
          db,
          sql`select version, updated_at::text from apds_assigned_rights where apds_id = 'upd-key'`,
        )
      )[0];
    const now = Date.now();
    expect((await post(rightBody('upd-key', 'UPK 1', now, now + hour), key)).statusCode).toBe(201);
    const next = rightBody('upd-key', 'UPK 2', now, now + 2 * hour, { version: 2 });
    const first = await put('upd-key', next, key, 'right-put-1');
    expect(first.statusCode, first.body).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const written = await stored();
    expect(written!.version).toBe(2);
    const eventsAfterFirst = await events();
    expect(eventsAfterFirst).toBeGreaterThan(0);

    const retry = await put('upd-key', next, key, 'right-put-1');
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expectValid('update-assigned_right', 200, retry.json());
    expect(retry.json()).toEqual(first.json());
    expect(await stored()).toEqual(written);
    expect(await events()).toBe(eventsAfterFirst);
    // Without the key the retry is the stale version it is.
    const unkeyed = await put('upd-key', next, key);
    expect(unkeyed.statusCode).toBe(409);
    expect(unkeyed.json().errors).toEqual([{ field: 'version', message: 'Outdated version number provided' }]);
    // The same key with another body (or another right's path) is a 422, and changes nothing.
    for (const [id, body] of [
      ['upd-key', { ...next, issueMethod: 'permit' }],
      ['upd-1', { ...next, id: 'upd-1' }],
    ] as const) {
      const reused = await put(id, body, key, 'right-put-1');
      expect(reused.statusCode, reused.body).toBe(422);
      expect(reused.json()).toMatchObject({
        status: 'error',
        code: 422,
        errors: [
          { field: 'Idempotency-Key', message: 'This Idempotency-Key was already used for a different request' },
        ],
      });
    }
    expect(await stored()).toEqual(written);
    expect(await events()).toBe(eventsAfterFirst);
    // A refusal is not kept under the key: the key's next try runs again.
    const stale = rightBody('upd-key', 'UPK 3', now, now + hour, { version: 2 });
    expect((await put('upd-key', stale, key, 'right-put-2')).statusCode).toBe(409);
    const fixed = await put('upd-key', { ...stale, version: 3 }, key, 'right-put-3');
    expect(fixed.statusCode).toBe(200);
    expect(fixed.json().assignedRight.version).toBe(3);
  });
});
