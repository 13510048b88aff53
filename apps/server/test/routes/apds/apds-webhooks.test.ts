import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { ParkingSession, Quote } from '@parkit/contract';
import { queryRows } from '../../../src/db/client.ts';
import { createKey } from '../../../src/enforcement/index.ts';
import { webhookSender } from '../../../src/apds/index.ts';
import { defaultOperatorId, insertZones } from '../../../src/zones/index.ts';
import { as, buildTestApp, registerAndSignIn } from '../../helpers.ts';
import { newOperator } from '../../operator-helpers.ts';
import { addVehicle, addZone, credit, pay, quote, startSession, zoneAt } from '../../parking-helpers.ts';
import { loadApds } from '../../support/apds-validator.ts';
import { accepted, verifySignature, webhookReceiver } from '../../support/webhook-receiver.ts';

/**
 * /apds/webhooks (docs/apds.md#webhooks) on PGlite and PostgreSQL: subscriptions against the APDS
 * document, the operator's scope, and deliveries to a receiver on this machine that fails each
 * event's first two tries: every event arrives once, signed, in order, with the APDS EventData
 * shape. Dead letters and the crash test are in apds-webhooks-dead.test.ts and
 * apds-webhooks-crash.test.ts.
 */
const { app, database } = await buildTestApp({ ADDRESS_RATE_LIMIT_SCALE: 1000, APDS_WEBHOOK_PRIVATE_URLS: true });
const { db } = database;
const apds = await loadApds();
const A = await defaultOperatorId(db);
const B = await newOperator(db, 'Webhook operator B');
const keyA = (await createKey(db, A, 'webhooks A')).key;
const keyB = (await createKey(db, B, 'webhooks B')).key;
const zone1 = await addZone(db, 'WH1');
const zone2 = await addZone(db, 'WH2');
await insertZones(db, B, [zoneAt('WHB', '1 Oak St', { lat: 32.78, lng: -96.8 })]);
const [{ id: zoneB } = { id: 0 }] = await queryRows<{ id: number }>(
  db,
  sql`select id from zones where zone_number = 'WHB'`,
);

// Each event's first two tries fail (500, then 503); the third is taken.
const receiver = await webhookReceiver((_path, before) => [500, 503][before] ?? 200);
const send = webhookSender({ currency: 'USD', privateOk: true, log: app.log });

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, key: string | null, payload?: object) =>
  app.inject({ method, url, headers: key ? { 'x-operator-key': key } : {}, ...(payload ? { payload } : {}) });
const count = async (table: string) =>
  Number((await queryRows<{ n: number }>(db, sql`select count(*)::int as n from ${sql.raw(table)}`))[0]!.n);

/** Runs the job until nothing is waiting, each run an hour after the last (every back-off is due). */
async function drain(runs = 10) {
  for (let i = 0; i < runs && (await count(`apds_webhook_deliveries where status = 'pending'`)) > 0; i++)
    await send(db, new Date(Date.now() + i * 3_600_000));
}

async function subscribe(key: string, body: object) {
  const res = await call('POST', '/apds/webhooks', key, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ id: string; secret: string }>();
}

describe('APDS webhooks: subscriptions', () => {
  it('bad input is a 400 and writes nothing', async () => {
    const good = { endpoint: `${receiver.url}/x`, topics: ['SessionCreated'] };
    const bad: [object, string][] = [
      [{}, 'endpoint'],
      [{ ...good, endpoint: 'not a url' }, 'endpoint'],
      [{ ...good, endpoint: 'ftp://example.org/x' }, 'endpoint'],
      [{ ...good, topics: [] }, 'topics'],
      [{ ...good, topics: ['SessionStarted'] }, 'topics'],
      [{ ...good, topics: ['SessionCreated', 'SessionCreated'] }, 'topics'],
      // The document's topics ParkIt never publishes are refused, not accepted and left silent.
      [{ ...good, topics: ['SessionCreated', 'ObservationUpdated'] }, 'topics.1'],
      [{ ...good, topics: ['ObservationDeleted'] }, 'topics.0'],
      [{ ...good, topics: ['ObservationCreated'] }, 'topics.0'],
      [{ ...good, hierarchyElements: [{ className: 'Place', id: `zone-${zoneB}` }] }, 'hierarchyElements'],
      [{ ...good, hierarchyElements: [{ className: 'Place', id: `operator-${B}` }] }, 'hierarchyElements'],
      // The campus alone, without its children: no session happens there.
      [{ ...good, hierarchyElements: [{ className: 'Place', id: `operator-${A}` }] }, 'hierarchyElements'],
      [{ ...good, includeChildrenEvents: 'yes' }, 'includeChildrenEvents'],
    ];
    for (const [body, field] of bad) {
      const res = await call('POST', '/apds/webhooks', keyA, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(res.json().errors)).toContain(field);
    }
    const notSent = await call('POST', '/apds/webhooks', keyA, { ...good, topics: ['ObservationUpdated'] });
    expect(notSent.json().errors[0].message).toContain('ParkIt does not send this topic');
    expect(await count('apds_webhooks')).toBe(0);
    expect((await call('POST', '/apds/webhooks', null, good)).statusCode).toBe(401);
  });

  it('create, get, update, list and delete answer as the APDS document says', async () => {
    const body = {
      endpoint: `${receiver.url}/crud`,
      topics: ['SessionCreated', 'AssignedRightCreated'],
      hierarchyElements: [{ className: 'Place', id: `zone-${zone1}` }],
    };
    expect(apds.request('post-webhooks', body).errors).toEqual([]);
    const res = await call('POST', '/apds/webhooks', keyA, body);
    expect(apds.response('post-webhooks', 200, res.json()).errors).toEqual([]);
    const { id, secret } = res.json<{ id: string; secret: string }>();
    expect(secret).toMatch(/^whsec_[\w-]{43}$/);
    const got = await call('GET', `/apds/webhooks/${id}`, keyA);
    expect(apds.response('get-webhooks-id', 200, got.json()).errors).toEqual([]);
    expect(got.json()).toMatchObject({ ...body, id, includeChildrenEvents: false });
    expect(got.body).not.toContain(secret);
    const unsent = await call('PUT', `/apds/webhooks/${id}`, keyA, { ...body, topics: ['ObservationDeleted'] });
    expect(unsent.statusCode, unsent.body).toBe(400);
    expect((await call('GET', `/apds/webhooks/${id}`, keyA)).json()).toMatchObject(body);
    const changed = { endpoint: `${receiver.url}/crud2`, topics: ['SessionUpdated'] };
    const put = await call('PUT', `/apds/webhooks/${id}`, keyA, changed);
    expect(put.statusCode, put.body).toBe(200);
    expect(apds.response('put-webhooks-id', 200, put.json()).errors).toEqual([]);
    expect((await call('GET', `/apds/webhooks/${id}`, keyA)).json()).toMatchObject(changed);
    const list = await call('GET', '/apds/webhooks', keyA);
    expect(list.json().data.map((w: { id: string }) => w.id)).toEqual([id]);
    expect((await call('GET', '/apds/webhooks', keyB)).json().data).toEqual([]);
    const del = await call('DELETE', `/apds/webhooks/${id}`, keyA);
    expect(del.statusCode).toBe(200);
    expect(apds.response('delete-webhooks-id', 200, del.json()).errors).toEqual([]);
    const gone = await call('GET', `/apds/webhooks/${id}`, keyA);
    expect(gone.statusCode).toBe(404);
    expect(apds.response('get-webhooks-id', 200, {}).errors).not.toEqual([]);
  });

  it('another operator’s subscription is a 404 to every operation, and changes nothing', async () => {
    const { id } = await subscribe(keyA, { endpoint: `${receiver.url}/mine`, topics: ['SessionCreated'] });
    const before = await queryRows(db, sql`select * from apds_webhooks order by id`);
    const put = { endpoint: `${receiver.url}/stolen`, topics: ['SessionUpdated'] };
    const eventId = '00000000-0000-4000-8000-000000000000';
    for (const [method, url, payload] of [
      ['GET', `/apds/webhooks/${id}`],
      ['PUT', `/apds/webhooks/${id}`, put],
      ['DELETE', `/apds/webhooks/${id}`],
      ['GET', `/apds/webhooks/${id}/dead-letters`],
      ['POST', `/apds/webhooks/${id}/dead-letters/${eventId}/replay`],
    ] as const) {
      const res = await call(method, url, keyB, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json()).toEqual({ status: 'error', code: 404, message: 'Not found' });
    }
    expect(await queryRows(db, sql`select * from apds_webhooks order by id`)).toEqual(before);
    expect((await call('DELETE', `/apds/webhooks/${id}`, keyA)).statusCode).toBe(200);
  });
});

describe('APDS webhooks: deliveries', () => {
  it('a receiver failing each event’s first two tries gets every event once, signed, in order', async () => {
    const all = await subscribe(keyA, {
      endpoint: `${receiver.url}/all`,
      topics: ['SessionCreated', 'SessionUpdated'],
    });
    const zoned = await subscribe(keyA, {
      endpoint: `${receiver.url}/zone2`,
      topics: ['SessionCreated'],
      hierarchyElements: [{ className: 'Place', id: `zone-${zone2}` }],
    });
    const other = await subscribe(keyB, {
      endpoint: `${receiver.url}/b`,
      topics: ['SessionCreated', 'SessionUpdated'],
      hierarchyElements: [{ className: 'Campus', id: `operator-${B}` }],
      includeChildrenEvents: true,
    });
    const driver = await registerAndSignIn(app);
    await credit(db, driver.memberId, 100_00);
    const s1 = await startSession(app, driver, {
      zoneId: zone1,
      vehicleId: await addVehicle(app, driver, 'WH 1'),
      minutes: 60,
    });
    const s2 = await startSession(app, driver, {
      zoneId: zone2,
      vehicleId: await addVehicle(app, driver, 'WH 2'),
      minutes: 60,
    });
    const q = await quote(app, driver, { SessionId: s1.SessionId, DurationMinutes: 30 });
    expect((await pay(app, driver, 'Extend', { QuoteId: q.json<Quote>().QuoteId })).statusCode).toBe(200);
    const stop = await as(app, driver, {
      method: 'POST',
      url: '/api/Parking/Stop',
      payload: { SessionId: s2.SessionId },
    });
    expect(stop.statusCode, stop.body).toBe(200);
    // A job's bookkeeping is not a change of the APDS Session: no event.
    const waiting = await count('apds_webhook_deliveries');
    await db.execute(sql`update parking_sessions set reminder_sent_at = now() where id = ${s1.SessionId}`);
    expect(await count('apds_webhook_deliveries')).toBe(waiting);

    await drain();
    expect(await count('apds_webhook_deliveries')).toBe(0);
    const id = (s: ParkingSession) => `session-${s.SessionId}`;
    expect(accepted(receiver.hits, '/all').map((e) => [e.topic, e.objectId])).toEqual([
      ['SessionCreated', id(s1)],
      ['SessionCreated', id(s2)],
      ['SessionUpdated', id(s1)],
      ['SessionUpdated', id(s2)],
    ]);
    expect(accepted(receiver.hits, '/zone2').map((e) => [e.topic, e.objectId])).toEqual([['SessionCreated', id(s2)]]);
    expect(receiver.hits.filter((h) => h.path === '/b')).toEqual([]);

    for (const [path, secret] of [
      ['/all', all.secret],
      ['/zone2', zoned.secret],
    ] as const) {
      const hits = receiver.hits.filter((h) => h.path === path);
      for (const e of accepted(receiver.hits, path)) {
        const tries = hits.filter((h) => h.headers['x-parkit-event-id'] === e.eventId);
        // Three tries, the same event each time, and only the third taken: once.
        expect(tries.map((h) => [h.status, h.headers['x-parkit-delivery-attempt']])).toEqual([
          [500, '1'],
          [503, '2'],
          [200, '3'],
        ]);
        expect(new Set(tries.map((h) => h.body)).size).toBe(1);
      }
      for (const h of hits) {
        expect(verifySignature(secret, h.body, h.headers['x-parkit-signature'])).toBe(true);
        expect(verifySignature(other.secret, h.body, h.headers['x-parkit-signature'])).toBe(false);
        const event = JSON.parse(h.body);
        expect(apds.callback('placeEvent', event).errors).toEqual([]);
        const session = apds.response('get-sessions-id', 200, event.data[0]);
        expect(session.errors).toEqual([]);
        expect(session.ambiguities.filter((a) => !/^\/identifiedCredentials\/\d+ \[0,\d(,\d)*\]$/.test(a))).toEqual([]);
      }
    }
    // One change, one event id, whichever subscriptions it reaches.
    const created2 = (p: string) => accepted(receiver.hits, p).find((e) => e.objectId === id(s2))!.eventId;
    expect(created2('/all')).toBe(created2('/zone2'));
    const ended = JSON.parse(receiver.hits.filter((h) => h.path === '/all').at(-1)!.body);
    expect(ended).toMatchObject({ eventSubscriptionId: all.id, topic: 'SessionUpdated' });
    expect(ended.data[0].actualEnd).toBeDefined();
  });

  it('a session’s event keeps none of the driver’s private columns: phone, member, vehicle, saved card and its customer', async () => {
    await subscribe(keyA, { endpoint: `${receiver.url}/private`, topics: ['SessionCreated', 'SessionUpdated'] });
    const driver = await registerAndSignIn(app);
    await credit(db, driver.memberId, 100_00);
    const s = await startSession(app, driver, {
      zoneId: zone1,
      vehicleId: await addVehicle(app, driver, 'WH 9'),
      minutes: 60,
    });
    // As a Quick Park session that saved its typed card (0057, 0058), changed as an Extend changes it.
    await db.execute(
      sql`update parking_sessions set guest_phone = '5125550199', card_ref = 'pm_private', card_customer_ref = 'cus_private',
            card_forget_at = now(), ends_at = ends_at + interval '15 minutes' where id = ${s.SessionId}`,
    );
    const rows = await queryRows<{ topic: string; keys: string[] }>(
      db,
      sql`select topic, array(select jsonb_object_keys(data)) as keys from apds_webhook_deliveries
          where object_id = ${s.SessionId} and topic like 'Session%' order by id`,
    );
    expect(rows.map((r) => r.topic)).toEqual(expect.arrayContaining(['SessionCreated', 'SessionUpdated']));
    for (const r of rows) {
      expect(r.keys).toContain('plate');
      for (const secret of [
        'guest_phone',
        'member_id',
        'vehicle_id',
        'card_ref',
        'card_customer_ref',
        'card_forget_at',
      ])
        expect(r.keys, `${r.topic} ${secret}`).not.toContain(secret);
    }
    await drain();
  });

  it('an assigned right a partner creates reaches the subscriptions that take AssignedRightCreated, once, as the document’s AssignedRight', async () => {
    const sub = await subscribe(keyA, { endpoint: `${receiver.url}/rights`, topics: ['AssignedRightCreated'] });
    const sessionsOnly = await subscribe(keyA, {
      endpoint: `${receiver.url}/sessions-only`,
      topics: ['SessionCreated'],
    });
    const right = {
      id: 'partner-right-1',
      version: 1,
      rightHolder: {
        credentials: [
          {
            identifier: { className: 'LicensePlate', id: 'WH 9' },
            issuer: [{ language: 'en', string: 'TX' }],
            type: 'licensePlate',
          },
        ],
      },
      rightSpecification: { id: `zone-${zone1}`, version: 1, className: 'RightSpecification' },
      expiry: new Date(Date.now() + 3_600_000).toISOString(),
    };
    const made = await call('POST', '/apds/rights/assigned', keyA, right);
    expect(made.statusCode, made.body).toBe(201);
    // The same create again is the same right: no second event.
    expect((await call('POST', '/apds/rights/assigned', keyA, right)).statusCode).toBe(201);
    await drain();
    expect(accepted(receiver.hits, '/rights').map((e) => [e.topic, e.objectId])).toEqual([
      ['AssignedRightCreated', 'partner-right-1'],
    ]);
    expect(receiver.hits.filter((h) => h.path === '/sessions-only')).toEqual([]);
    for (const h of receiver.hits.filter((x) => x.path === '/rights')) {
      expect(verifySignature(sub.secret, h.body, h.headers['x-parkit-signature'])).toBe(true);
      expect(verifySignature(sessionsOnly.secret, h.body, h.headers['x-parkit-signature'])).toBe(false);
      const event = JSON.parse(h.body);
      expect(apds.callback('placeEvent', event).errors).toEqual([]);
      expect(apds.response('read-assigned_right', 200, event.data[0]).errors).toEqual([]);
      expect(event.data[0]).toMatchObject({ id: 'partner-right-1', rightHolder: right.rightHolder });
      expect(h.body).not.toContain('request_hash');
    }
  });

  it('a right’s next version and its delete reach the subscriptions that take AssignedRightUpdated and AssignedRightDeleted', async () => {
    const changes = await subscribe(keyA, {
      endpoint: `${receiver.url}/right-changes`,
      topics: ['AssignedRightUpdated', 'AssignedRightDeleted'],
    });
    // Limited to zone 2: it hears the right that moves there, and its delete there.
    await subscribe(keyA, {
      endpoint: `${receiver.url}/right-changes-zone2`,
      topics: ['AssignedRightUpdated', 'AssignedRightDeleted'],
      hierarchyElements: [{ className: 'Place', id: `zone-${zone2}` }],
    });
    const url = '/apds/rights/assigned/partner-right-1';
    const before = (await call('GET', url, keyA)).json();
    const next = {
      ...before,
      version: 2,
      rightHolder: {
        credentials: [
          {
            identifier: { className: 'LicensePlate', id: 'WH 10' },
            issuer: [{ language: 'en', string: 'TX' }],
            type: 'licensePlate',
          },
        ],
      },
      rightSpecification: { id: `zone-${zone2}`, version: 1, className: 'RightSpecification' },
    };
    const updated = await call('PUT', url, keyA, next);
    expect(updated.statusCode, updated.body).toBe(200);
    // Refused updates write no event: a stale version, a bad body.
    expect((await call('PUT', url, keyA, next)).statusCode).toBe(409);
    expect((await call('PUT', url, keyA, { ...next, version: 3, expiry: 'soon' })).statusCode).toBe(400);
    // A change that keeps the version (the retention job's anonymisation) is no event.
    await db.execute(sql`update apds_assigned_rights set updated_at = now() where apds_id = 'partner-right-1'`);
    expect((await call('DELETE', url, keyA)).statusCode).toBe(200);
    await drain();

    expect(accepted(receiver.hits, '/right-changes').map((e) => [e.topic, e.objectId])).toEqual([
      ['AssignedRightUpdated', 'partner-right-1'],
      ['AssignedRightDeleted', 'partner-right-1'],
    ]);
    expect(accepted(receiver.hits, '/right-changes-zone2').map((e) => e.topic)).toEqual([
      'AssignedRightUpdated',
      'AssignedRightDeleted',
    ]);
    // The create-only subscription heard the create alone.
    expect(accepted(receiver.hits, '/rights').map((e) => e.topic)).toEqual(['AssignedRightCreated']);
    const events = receiver.hits
      .filter((h) => h.path === '/right-changes' && h.status < 300)
      .map((h) => {
        expect(verifySignature(changes.secret, h.body, h.headers['x-parkit-signature'])).toBe(true);
        expect(h.body).not.toContain('request_hash');
        return JSON.parse(h.body);
      });
    for (const event of events) {
      expect(apds.callback('placeEvent', event).errors).toEqual([]);
      expect(apds.response('read-assigned_right', 200, event.data[0]).errors).toEqual([]);
    }
    // Both carry the right's second version: the new content, and then the right as it was deleted.
    expect(events.map((e) => e.data[0])).toEqual([updated.json().assignedRight, updated.json().assignedRight]);
  });
});
