import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { PUSH_MESSAGES, type PushMessage } from '@parkit/contract';
import { queryRows } from '../../../src/db/client.ts';
import { MAX_ATTEMPTS } from '../../../src/infra/push/push-sender.ts';
import { as, buildTestApp, registerAndSignIn, type SignedIn } from '../../helpers.ts';
import { addVehicle, addZone, credit, startSession } from '../../parking-helpers.ts';
import {
  browserKeys,
  checkVapid,
  decryptPush,
  fakePushService,
  type BrowserKeys,
} from '../../push/fake-push-service.ts';

/**
 * Reminders that reach a closed app (infra/push/README.md): the subscription routes, the
 * reminder settings, and the push job sending to a stand-in push service whose received body
 * decrypts, with the browser's keys, to the reminder.
 */

const service = await fakePushService();
afterAll(() => service.close());
const logs: string[] = [];
const { app, database } = await buildTestApp(
  { WEB_PUSH_CA: service.ca },
  {
    logStream: new Writable({
      write(chunk: Buffer, _enc, done) {
        logs.push(chunk.toString());
        done();
      },
    }),
    decorations: true,
  },
);
const db = database.db;
const zone = await addZone(db, '8201', { maxStayMinutes: 240 });
const MIN = 60_000;

let endpoints = 0;
const newEndpoint = (prefix = 'push') => `${service.origin}/${prefix}/${(endpoints += 1)}-${'x'.repeat(20)}`;

async function subscribe(who: SignedIn, endpoint: string, keys: BrowserKeys, Language?: 'en' | 'hi' | 'es') {
  return as(app, who, {
    method: 'POST',
    url: '/api/Push/Subscription',
    payload: { endpoint, expirationTime: null, keys: keys.json, ...(Language ? { Language } : {}) },
  });
}

const subscriptionsOf = async (memberId: number) =>
  (
    await queryRows<{ endpoint: string }>(
      db,
      sql`select endpoint from push_subscriptions where member_id = ${memberId} order by id`,
    )
  ).map((r) => r.endpoint);

/** Moves a session so that it ends `minutes` from `now`. */
async function endIn(id: number, minutes: number, now: Date) {
  const endsAt = new Date(now.getTime() + minutes * MIN);
  await db.execute(
    sql`update parking_sessions set ends_at = ${endsAt}, started_at = ${endsAt}::timestamptz - make_interval(mins => duration_minutes) where id = ${id}`,
  );
}

const sentTo = (endpoint: string) => service.requests.filter((r) => r.path === new URL(endpoint).pathname);

async function parkingDriver(settings: Record<string, unknown>) {
  const who = await registerAndSignIn(app);
  await credit(db, who.memberId, 10_000);
  const saved = await as(app, who, { method: 'POST', url: '/api/Account/Reminders', payload: settings });
  expect(saved.statusCode).toBe(200);
  const session = await startSession(app, who, { zoneId: zone, vehicleId: await addVehicle(app, who), minutes: 60 });
  return { who, session };
}

describe('the VAPID key and subscriptions', () => {
  it('publishes the VAPID public key: a 65-byte uncompressed P-256 point', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/Push/PublicKey' });
    expect(res.statusCode).toBe(200);
    const key = Buffer.from(res.json<{ PublicKey: string }>().PublicKey, 'base64url');
    expect(key).toHaveLength(65);
    expect(key[0]).toBe(4);
  });

  it('saves a subscription for the signed-in member, and refuses bad ones, storing nothing', async () => {
    const who = await registerAndSignIn(app);
    const keys = browserKeys();
    const endpoint = newEndpoint();
    const ok = await subscribe(who, endpoint, keys);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ message: PUSH_MESSAGES.subscribed });
    // Posted again (the app does at each start): still one row.
    expect((await subscribe(who, endpoint, keys)).statusCode).toBe(200);
    expect(await subscriptionsOf(who.memberId)).toEqual([endpoint]);

    const bad: [Record<string, unknown>, string][] = [
      [{ endpoint: 'http://127.0.0.1/push/1', keys: keys.json }, 'endpoint'],
      [{ endpoint: 'not a url', keys: keys.json }, 'endpoint'],
      [{ endpoint: newEndpoint(), keys: { ...keys.json, p256dh: 'AAAA' } }, 'keys.p256dh'],
      [
        { endpoint: newEndpoint(), keys: { ...keys.json, auth: keys.auth.subarray(0, 8).toString('base64url') } },
        'keys.auth',
      ],
      [{ endpoint: newEndpoint(), keys: { ...keys.json, auth: 'a+b/c==' } }, 'keys.auth'],
      [{ endpoint: newEndpoint() }, 'keys'],
      [{ endpoint: newEndpoint(), keys: keys.json, Language: 'fr' }, 'Language'],
    ];
    for (const [payload, field] of bad) {
      const res = await as(app, who, { method: 'POST', url: '/api/Push/Subscription', payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json<{ errors: { field: string }[] }>().errors.map((e) => e.field)).toContain(field);
    }
    expect(await subscriptionsOf(who.memberId)).toEqual([endpoint]);
    expect((await app.inject({ method: 'POST', url: '/api/Push/Subscription', payload: {} })).statusCode).toBe(401);
  });

  it('keeps one member’s subscription from another: deleting it is a 404, posting it moves it', async () => {
    const a = await registerAndSignIn(app);
    const b = await registerAndSignIn(app);
    const endpoint = newEndpoint();
    expect((await subscribe(a, endpoint, browserKeys())).statusCode).toBe(200);
    const del = (who: SignedIn) =>
      as(app, who, { method: 'POST', url: '/api/Push/Subscription/Delete', payload: { endpoint } });
    const refused = await del(b);
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toMatchObject({ message: PUSH_MESSAGES.notSubscribed });
    expect(await subscriptionsOf(a.memberId)).toEqual([endpoint]);
    // b signs in on a's browser and turns push on: the browser's subscription is b's alone.
    expect((await subscribe(b, endpoint, browserKeys())).statusCode).toBe(200);
    expect(await subscriptionsOf(a.memberId)).toEqual([]);
    expect(await subscriptionsOf(b.memberId)).toEqual([endpoint]);
    expect((await del(a)).statusCode).toBe(404);
    const gone = await del(b);
    expect(gone.statusCode).toBe(200);
    expect(gone.json()).toEqual({ message: PUSH_MESSAGES.unsubscribed });
    expect(await subscriptionsOf(b.memberId)).toEqual([]);
  });
});

describe('leaving', () => {
  it('deleting the account forgets its subscriptions and reminder settings', async () => {
    const who = await registerAndSignIn(app);
    await subscribe(who, newEndpoint(), browserKeys());
    await as(app, who, { method: 'POST', url: '/api/Account/Reminders', payload: { PushReminders: true } });
    const res = await as(app, who, {
      method: 'POST',
      url: '/api/Account/Delete',
      payload: { Password: 'correct horse battery' },
      headers: { 'idempotency-key': `leave-${who.memberId}` },
    });
    expect(res.statusCode).toBe(200);
    expect(await subscriptionsOf(who.memberId)).toEqual([]);
    expect(await queryRows(db, sql`select member_id from reminder_settings where member_id = ${who.memberId}`)).toEqual(
      [],
    );
  });
});

describe('reminder settings', () => {
  it('are 10 minutes by SMS until saved, save one field at a time, and refuse other choices', async () => {
    const who = await registerAndSignIn(app);
    const get = async () => (await as(app, who, { method: 'GET', url: '/api/Account/Reminders' })).json<unknown>();
    expect(await get()).toEqual({ ReminderMinutes: 10, PushReminders: false, SmsReminders: true });
    const post = (payload: Record<string, unknown>) =>
      as(app, who, { method: 'POST', url: '/api/Account/Reminders', payload });
    expect((await post({ ReminderMinutes: 15 })).json()).toEqual({
      ReminderMinutes: 15,
      PushReminders: false,
      SmsReminders: true,
    });
    expect((await post({ PushReminders: true, SmsReminders: false })).statusCode).toBe(200);
    for (const payload of [{}, { ReminderMinutes: 20 }, { ReminderMinutes: '10' }, { PushReminders: 'yes' }]) {
      expect((await post(payload)).statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect(await get()).toEqual({ ReminderMinutes: 15, PushReminders: true, SmsReminders: false });
  });
});

describe('pushing the reminder', () => {
  it('sends the reminder at the chosen 30 minutes to each subscription, encrypted for that browser', async () => {
    const { who, session } = await parkingDriver({ ReminderMinutes: 30, PushReminders: true });
    const phone = browserKeys();
    const laptop = browserKeys();
    const tablet = browserKeys();
    const [e1, e2, e3] = [newEndpoint(), newEndpoint(), newEndpoint()];
    expect((await subscribe(who, e1, phone)).statusCode).toBe(200);
    expect((await subscribe(who, e2, laptop, 'hi')).statusCode).toBe(200);
    expect((await subscribe(who, e3, tablet, 'es')).statusCode).toBe(200);
    const now = new Date();
    await endIn(session.SessionId, 31, now);
    expect((await app.jobs.runOnce(now))['parking.reminders']).toBe(0);
    await endIn(session.SessionId, 29, now);
    const done = await app.jobs.runOnce(now);
    expect(done['parking.reminders']).toBe(1);
    expect(done['push.send']).toBe(3);

    const [toPhone] = sentTo(e1);
    expect(sentTo(e1)).toHaveLength(1);
    expect(toPhone!.headers['content-encoding']).toBe('aes128gcm');
    expect(Number(toPhone!.headers.ttl)).toBeGreaterThan(60);
    const publicKey = (await app.inject({ method: 'GET', url: '/api/Push/PublicKey' })).json<{ PublicKey: string }>();
    const vapid = checkVapid(toPhone!.headers.authorization as string);
    expect(vapid.k).toBe(publicKey.PublicKey);
    expect(vapid.claims).toMatchObject({ aud: service.origin });
    const message = JSON.parse(decryptPush(toPhone!.body, phone)) as PushMessage;
    expect(message).toEqual({
      title: 'ParkIt: your parking ends soon',
      body: expect.stringMatching(
        new RegExp(`^Your parking for ${session.PlateNumber} in zone 8201 ends at .+ \\(in 29 minutes\\)\\.$`),
      ),
      url: `/parkdetails?id=${session.SessionId}`,
      tag: `parking-${session.SessionId}`,
    });
    // The other browser asked for Hindi; the phone's key cannot open it.
    const [toLaptop] = sentTo(e2);
    expect(() => decryptPush(toLaptop!.body, phone)).toThrow();
    const hindi = JSON.parse(decryptPush(toLaptop!.body, laptop)) as PushMessage;
    expect(hindi.body).toContain('ज़ोन 8201');
    expect(hindi.body).toContain('29 मिनट में');
    // The tablet asked for Spanish.
    const spanish = JSON.parse(decryptPush(sentTo(e3)[0]!.body, tablet)) as PushMessage;
    expect(spanish.title).toBe('ParkIt: su estacionamiento termina pronto');
    expect(spanish.body).toMatch(
      new RegExp(
        `^Su estacionamiento de ${session.PlateNumber} en la zona 8201 termina a las .+ \\(en 29 minutos\\)\\.$`,
      ),
    );
    // Delivered: nothing left to send; the SMS went too (both channels on).
    expect(await queryRows(db, sql`select id from push_messages`)).toEqual([]);
    expect((await app.jobs.runOnce(now))['push.send']).toBe(0);
    const sms = await queryRows<{ body: string }>(
      db,
      sql`select body from outbox where recipient = ${who.phone} and body like '%ends at%'`,
    );
    expect(sms).toHaveLength(1);
  });

  it('pushes the end of the session, and sends no SMS when the driver turned SMS off', async () => {
    const { who, session } = await parkingDriver({ PushReminders: true, SmsReminders: false });
    const keys = browserKeys();
    const endpoint = newEndpoint();
    await subscribe(who, endpoint, keys);
    const now = new Date();
    await endIn(session.SessionId, -1, now);
    const done = await app.jobs.runOnce(now);
    expect(done['parking.expiry']).toBe(1);
    expect(done['push.send']).toBe(1);
    const message = JSON.parse(decryptPush(sentTo(endpoint)[0]!.body, keys)) as PushMessage;
    expect(message.title).toBe('ParkIt: your parking has ended');
    expect(message.body).toContain(`Your parking for ${session.PlateNumber} in zone 8201 ended at`);
    const sms = await queryRows(
      db,
      sql`select id from outbox where recipient = ${who.phone} and body like 'ParkIt: your parking%'`,
    );
    expect(sms).toEqual([]);
  });

  it('sends nothing by push to a driver who left push off', async () => {
    const { who, session } = await parkingDriver({ ReminderMinutes: 10 });
    const endpoint = newEndpoint();
    await subscribe(who, endpoint, browserKeys());
    const now = new Date();
    await endIn(session.SessionId, 9, now);
    expect((await app.jobs.runOnce(now))['parking.reminders']).toBe(1);
    expect(sentTo(endpoint)).toEqual([]);
  });

  it('removes a subscription the push service says is gone (410), with its messages', async () => {
    const { who, session } = await parkingDriver({ PushReminders: true });
    const gone = newEndpoint('gone');
    const kept = newEndpoint();
    service.answer(new URL(gone).pathname, 410);
    await subscribe(who, gone, browserKeys());
    await subscribe(who, kept, browserKeys());
    const now = new Date();
    await endIn(session.SessionId, 5, now);
    const done = await app.jobs.runOnce(now);
    expect(done['push.send']).toBe(1);
    expect(sentTo(gone)).toHaveLength(1);
    expect(await subscriptionsOf(who.memberId)).toEqual([kept]);
    expect(await queryRows(db, sql`select id from push_messages`)).toEqual([]);
  });

  it('tries a failed push again later, with the same body, until delivered or given up; logs no secret', async () => {
    const { who, session } = await parkingDriver({ PushReminders: true });
    const keys = browserKeys();
    const endpoint = newEndpoint('flaky');
    const path = new URL(endpoint).pathname;
    service.answer(path, 503);
    await subscribe(who, endpoint, keys);
    const now = new Date();
    await endIn(session.SessionId, 8, now);
    expect((await app.jobs.runOnce(now))['push.send']).toBe(0);
    expect(sentTo(endpoint)).toHaveLength(1);
    const [row] = await queryRows<{ attempts: number; next_attempt_at: string }>(
      db,
      sql`select attempts, next_attempt_at::text from push_messages`,
    );
    expect(row!.attempts).toBe(1);
    // Not again within the back-off (30 s), then again after it.
    expect((await app.jobs.runOnce(new Date(now.getTime() + 20_000)))['push.send']).toBe(0);
    expect(sentTo(endpoint)).toHaveLength(1);
    service.answer(path, 201);
    expect((await app.jobs.runOnce(new Date(now.getTime() + 31_000)))['push.send']).toBe(1);
    expect(sentTo(endpoint)).toHaveLength(2);
    expect(JSON.parse(decryptPush(sentTo(endpoint)[1]!.body, keys))).toMatchObject({
      tag: `parking-${session.SessionId}`,
    });
    expect(await queryRows(db, sql`select id from push_messages`)).toEqual([]);
    expect(await subscriptionsOf(who.memberId)).toEqual([endpoint]);

    // A service that keeps failing: given up after MAX_ATTEMPTS tries (the last at 15.5 minutes,
    // before the reminder's session ends), the subscription kept.
    const down = await parkingDriver({ PushReminders: true, ReminderMinutes: 30 });
    const downEndpoint = newEndpoint('down');
    service.answer(new URL(downEndpoint).pathname, 500);
    await subscribe(down.who, downEndpoint, browserKeys());
    const later = new Date(now.getTime() + 60 * MIN);
    await endIn(down.session.SessionId, 29, later);
    let at = later;
    for (let i = 0; i < MAX_ATTEMPTS + 1; i++) {
      await app.jobs.runOnce(at);
      const [next] = await queryRows<{ next_attempt_at: string }>(
        db,
        sql`select next_attempt_at::text from push_messages`,
      );
      if (!next) break;
      at = new Date(next.next_attempt_at);
    }
    expect(sentTo(downEndpoint)).toHaveLength(MAX_ATTEMPTS);
    expect(await queryRows(db, sql`select id from push_messages`)).toEqual([]);
    expect(await subscriptionsOf(down.who.memberId)).toEqual([downEndpoint]);

    const text = logs.join('');
    expect(text).toContain('push failed: will retry');
    expect(text).toContain('push message given up');
    expect(text).not.toContain(path);
    expect(text).not.toContain(session.PlateNumber);
    expect(text).not.toContain(keys.json.auth);
  });
});
