import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../../src/db/client.ts';
import { createKey } from '../../../src/enforcement/index.ts';
import { WEBHOOK_DEFAULTS, webhookSender } from '../../../src/apds/index.ts';
import { defaultOperatorId } from '../../../src/zones/index.ts';
import { DEAD_EVENT_DAYS, pruneExpired } from '../../../src/infra/jobs/prune.ts';
import { buildTestApp, registerAndSignIn } from '../../helpers.ts';
import { newOperator } from '../../operator-helpers.ts';
import { addVehicle, addZone, credit, startSession } from '../../parking-helpers.ts';
import { accepted, webhookReceiver } from '../../support/webhook-receiver.ts';

/**
 * The dead-letter list of /apds/webhooks (docs/apds.md#webhooks), on PGlite and PostgreSQL: an
 * event whose every attempt fails is dead after WEBHOOK_DEFAULTS.maxAttempts, stops blocking the
 * subscription's next events, is listed for its operator only, and is sent again by a replay. An
 * endpoint that resolves to this machine is never called without APDS_WEBHOOK_PRIVATE_URLS.
 */
const { app, database } = await buildTestApp({ ADDRESS_RATE_LIMIT_SCALE: 1000, APDS_WEBHOOK_PRIVATE_URLS: true });
const { db } = database;
const A = await defaultOperatorId(db);
const keyA = (await createKey(db, A, 'dead A')).key;
const keyB = (await createKey(db, await newOperator(db, 'Dead letters B'), 'dead B')).key;
const zone = await addZone(db, 'WHD1');
const driver = await registerAndSignIn(app);
await credit(db, driver.memberId, 100_00);

let up = false;
const receiver = await webhookReceiver(() => (up ? 200 : 500));
const send = webhookSender({ currency: 'USD', privateOk: true, log: app.log });
const call = (method: 'GET' | 'POST' | 'DELETE', url: string, key: string, payload?: object) =>
  app.inject({ method, url, headers: { 'x-operator-key': key }, ...(payload ? { payload } : {}) });
const later = (hours: number) => new Date(Date.now() + hours * 3_600_000);

describe('APDS webhooks: the dead-letter list', () => {
  it('after the last failed attempt an event is dead, listed, no longer blocking, and replayable', async () => {
    const sub = (
      await call('POST', '/apds/webhooks', keyA, { endpoint: `${receiver.url}/dead`, topics: ['SessionCreated'] })
    ).json<{ id: string }>();
    const first = await startSession(app, driver, {
      zoneId: zone,
      vehicleId: await addVehicle(app, driver, 'DL 1'),
      minutes: 60,
    });
    const second = await startSession(app, driver, {
      zoneId: zone,
      vehicleId: await addVehicle(app, driver, 'DL 2'),
      minutes: 60,
    });
    // Each run two hours after the last: every back-off (at most an hour) has passed.
    for (let i = 0; i < WEBHOOK_DEFAULTS.maxAttempts; i++) await send(db, later(2 * i));
    // Only the head was tried while it lived: the second event waited behind the first, and
    // was tried (and failed) in the tick that set the first dead.
    const tried = receiver.hits.map((h) => JSON.parse(h.body).data[0].id as string);
    expect(tried).toEqual([
      ...Array(WEBHOOK_DEFAULTS.maxAttempts).fill(`session-${first.SessionId}`),
      `session-${second.SessionId}`,
    ]);

    const dead = await call('GET', `/apds/webhooks/${sub.id}/dead-letters`, keyA);
    expect(dead.statusCode, dead.body).toBe(200);
    expect(dead.json().data).toEqual([
      {
        eventId: receiver.hits[0]!.headers['x-parkit-event-id'],
        topic: 'SessionCreated',
        eventTime: expect.any(String),
        objectId: `session-${first.SessionId}`,
        attempts: WEBHOOK_DEFAULTS.maxAttempts,
        lastError: 'http 500',
      },
    ]);
    expect((await call('GET', `/apds/webhooks/${sub.id}/dead-letters`, keyB)).statusCode).toBe(404);

    // The next event is the head now, and goes once the endpoint is back.
    up = true;
    await send(db, later(20));
    expect(accepted(receiver.hits, '/dead').map((e) => e.objectId)).toEqual([`session-${second.SessionId}`]);

    const eventId = dead.json().data[0].eventId as string;
    const replayUrl = `/apds/webhooks/${sub.id}/dead-letters/${eventId}/replay`;
    expect((await call('POST', replayUrl, keyB)).statusCode).toBe(404);
    const replayed = await call('POST', replayUrl, keyA);
    expect(replayed.statusCode, replayed.body).toBe(200);
    expect(replayed.json()).toEqual({ status: 'ok', code: 200, message: 'Queued again' });
    await send(db, later(21));
    expect(accepted(receiver.hits, '/dead').map((e) => e.objectId)).toEqual([
      `session-${second.SessionId}`,
      `session-${first.SessionId}`,
    ]);
    expect((await call('GET', `/apds/webhooks/${sub.id}/dead-letters`, keyA)).json().data).toEqual([]);
    // Replayed and delivered: nothing left to replay.
    expect((await call('POST', replayUrl, keyA)).statusCode).toBe(404);
    expect((await call('DELETE', `/apds/webhooks/${sub.id}`, keyA)).statusCode).toBe(200);
  });

  it('without APDS_WEBHOOK_PRIVATE_URLS an endpoint on this machine is never called, whatever its name', async () => {
    const strict = webhookSender({ currency: 'USD', privateOk: false, log: app.log });
    // Written past the API's check (which refuses them), as a name that resolves here later would be.
    const port = new URL(receiver.url).port;
    const endpoints = [`https://localhost:${port}/x`, `https://127.0.0.1:${port}/x`, `http://[::1]:${port}/x`];
    for (const endpoint of endpoints)
      await db.execute(
        sql`insert into apds_webhooks (operator_id, endpoint, topics, secret) values (${A}, ${endpoint}, '{SessionCreated}', 'whsec_x')`,
      );
    const hitsBefore = receiver.hits.length;
    await startSession(app, driver, { zoneId: zone, vehicleId: await addVehicle(app, driver, 'DL 3'), minutes: 60 });
    for (let i = 0; i < WEBHOOK_DEFAULTS.maxAttempts; i++) await strict(db, later(30 + 2 * i));
    expect(receiver.hits.length).toBe(hitsBefore);
    const errors = await queryRows<{ status: string; last_error: string }>(
      db,
      sql`select status, last_error from apds_webhook_deliveries order by id`,
    );
    expect(errors).toEqual(endpoints.map(() => ({ status: 'dead', last_error: 'private-address' })));
  });

  it('the prune job deletes an event dead for DEAD_EVENT_DAYS, and nothing still waiting', async () => {
    const states = () =>
      queryRows<{ status: string; n: number }>(
        db,
        sql`select status, count(*)::int as n from apds_webhook_deliveries group by status order by status`,
      );
    await db.execute(
      sql`update apds_webhook_deliveries set status = 'pending' where id = (select min(id) from apds_webhook_deliveries)`,
    );
    expect(await states()).toEqual([
      { status: 'dead', n: 2 },
      { status: 'pending', n: 1 },
    ]);
    await pruneExpired(db, later(24 * (DEAD_EVENT_DAYS - 1)));
    expect((await states()).map((s) => s.n)).toEqual([2, 1]);
    await pruneExpired(db, later(24 * (DEAD_EVENT_DAYS + 1)));
    expect(await states()).toEqual([{ status: 'pending', n: 1 }]);
  });
});
