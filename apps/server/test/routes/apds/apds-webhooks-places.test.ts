import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { OperatorZone, PolicyBodyInput, PolicyVersion, ZoneInput } from '@parkit/contract';
import { queryRows } from '../../../src/db/client.ts';
import { createKey } from '../../../src/enforcement/index.ts';
import { webhookSender } from '../../../src/apds/index.ts';
import { as } from '../../helpers.ts';
import { twoOperators } from '../../operator-helpers.ts';
import { CENTRE } from '../../parking-helpers.ts';
import { loadApds } from '../../support/apds-validator.ts';
import { accepted, verifySignature, webhookReceiver } from '../../support/webhook-receiver.ts';

/**
 * The APDS webhooks of places, right specifications and rate tables (docs/apds.md#webhooks,
 * migration 0052) on PGlite and PostgreSQL: an operator's console changes its zones and prices,
 * and a subscriber hears each change once, signed, in order, as the APDS document's Place,
 * RightSpecification and RateTable, the same object the read answers at that moment; a
 * subscription limited to another zone, and another operator's, hear none of it.
 */
const {
  app,
  db,
  A,
  B,
  ownerB,
  staff: { manager },
} = await twoOperators('Place Events B', ['manager'], { config: { APDS_WEBHOOK_PRIVATE_URLS: true } });
const apds = await loadApds();
const keyA = (await createKey(db, A, 'place events A')).key;
const keyB = (await createKey(db, B, 'place events B')).key;
// Each event's first try fails; /dead never takes one.
const receiver = await webhookReceiver((path, before) => (path === '/dead' ? 500 : ([500][before] ?? 200)));
const send = webhookSender({ currency: 'USD', privateOk: true, log: app.log });

type Who = Parameters<typeof as>[1];
const console_ = (who: Who, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  as(app, who, { method, url, ...(payload ? { payload } : {}) });
const apdsCall = (method: 'GET' | 'POST', url: string, key: string, payload?: object) =>
  app.inject({ method, url, headers: { 'x-operator-key': key }, ...(payload ? { payload } : {}) });
const pending = async () =>
  Number(
    (
      await queryRows<{ n: number }>(
        db,
        sql`select count(*)::int as n from apds_webhook_deliveries where status = 'pending'`,
      )
    )[0]!.n,
  );
/** Runs the job until nothing waits, each run an hour after the last (every back-off is due). */
async function drain() {
  for (let i = 0; i < 40 && (await pending()) > 0; i++) await send(db, new Date(Date.now() + i * 3_600_000));
  expect(await pending()).toBe(0);
}
async function subscribe(key: string, body: object) {
  const res = await apdsCall('POST', '/apds/webhooks', key, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ id: string; secret: string }>();
}
/** The events a path took, parsed, once each (the receiver dedupes by event id). */
function events(path: string, secret: string) {
  const ids = new Set(accepted(receiver.hits, path).map((e) => e.eventId));
  return receiver.hits
    .filter((h) => h.path === path && h.status < 300)
    .map((h) => {
      expect(verifySignature(secret, h.body, h.headers['x-parkit-signature'])).toBe(true);
      return JSON.parse(h.body) as { eventId: string; topic: string; data: { id: string; version: number }[] };
    })
    .filter((e) => ids.delete(e.eventId));
}

const zoneInput = (n: string, extra: Partial<ZoneInput> = {}): ZoneInput => ({
  ZoneNumber: n,
  Name: 'Event Street',
  Address: '1 Event St',
  Latitude: CENTRE.lat + 0.002,
  Longitude: CENTRE.lng + 0.002,
  Capacity: 10,
  RatePerHour: 2,
  MaxStayMinutes: 120,
  PaidDays: [1, 2, 3, 4, 5],
  PaidFrom: '08:00',
  PaidUntil: '18:00',
  ...extra,
});
const allDay = (cents: number): PolicyBodyInput => ({
  Spans: [{ Id: 'all', Name: 'All day', Rate: [{ FromMinute: 0, CentsPerHour: cents }] }],
  MaxStayMinutes: 240,
});

describe('APDS webhooks: places, right specifications and rate tables', () => {
  it('each change of a zone or a price reaches the subscriber once, as the document’s object, as the read answers it', async () => {
    const other = await console_(manager, 'POST', `/api/Operator/${A}/Zones`, zoneInput('PE-OTHER'));
    expect(other.statusCode, other.body).toBe(201);
    const otherZone = other.json<OperatorZone>().ZoneId;
    const topics = [
      'PlaceCreated',
      'PlaceUpdated',
      'PlaceDeleted',
      'RightSpecificationCreated',
      'RightSpecificationUpdated',
      'RightSpecificationDeleted',
      'RateTableUpdated',
      'RateTableDeleted',
    ];
    const all = await subscribe(keyA, { endpoint: `${receiver.url}/all`, topics });
    const elsewhere = await subscribe(keyA, {
      endpoint: `${receiver.url}/elsewhere`,
      topics,
      hierarchyElements: [{ className: 'Place', id: `zone-${otherZone}` }],
    });
    const b = await subscribe(keyB, {
      endpoint: `${receiver.url}/b`,
      topics,
      hierarchyElements: [{ className: 'Campus', id: `operator-${B}` }],
      includeChildrenEvents: true,
    });
    // What each step's read answers, to compare with what its event carries.
    const reads: Record<string, unknown>[] = [];
    const read = async (url: string) => {
      const res = await apdsCall('GET', url, keyA);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
      reads.push(res.json());
    };

    // 1. A zone is made: PlaceCreated, RightSpecificationCreated (its preset is its rate table).
    const made = await console_(manager, 'POST', `/api/Operator/${A}/Zones`, zoneInput('PE-1'));
    expect(made.statusCode, made.body).toBe(201);
    const zone = made.json<OperatorZone>().ZoneId;
    const place = `zone-${zone}`;
    await read(`/apds/places/${place}`);
    await read(`/apds/rights/specs/${place}`);

    // 2. Its name and rate change: PlaceUpdated, RightSpecificationUpdated, RateTableUpdated (preset).
    const edited = await console_(
      manager,
      'PUT',
      `/api/Operator/${A}/Zones/${zone}`,
      zoneInput('PE-1', { Name: 'Event Avenue', RatePerHour: 3 }),
    );
    expect(edited.statusCode, edited.body).toBe(200);
    await read(`/apds/places/${place}`);
    await read(`/apds/rights/specs/${place}`);
    await read(`/apds/rates/preset-zone-${zone}`);
    // The same values again change nothing an APDS object shows: no event.
    const waiting = await pending();
    const same = await console_(
      manager,
      'PUT',
      `/api/Operator/${A}/Zones/${zone}`,
      zoneInput('PE-1', { Name: 'Event Avenue', RatePerHour: 3 }),
    );
    expect(same.statusCode, same.body).toBe(200);
    expect(await pending()).toBe(waiting);

    // 3. A policy is made (its first version: RateTableUpdated) and given to the zone: its
    //    specification now names the policy's table (RightSpecificationUpdated) and its preset is
    //    gone (RateTableDeleted).
    const policy = await console_(manager, 'POST', `/api/Operator/${A}/Policies`, {
      Name: 'Event policy',
      Body: allDay(250),
    });
    expect(policy.statusCode, policy.body).toBe(201);
    const policyId = policy.json<PolicyVersion>().PolicyId;
    await read(`/apds/rates/policy-${policyId}`);
    const presetBefore = (await apdsCall('GET', `/apds/rates/preset-zone-${zone}`, keyA)).json();
    const assigned = await console_(manager, 'POST', `/api/Operator/${A}/Policies/${policyId}/Zones`, {
      ZoneIds: [zone],
    });
    expect(assigned.statusCode, assigned.body).toBe(200);
    await read(`/apds/rights/specs/${place}`);
    reads.push(presetBefore);
    expect((await apdsCall('GET', `/apds/rates/preset-zone-${zone}`, keyA)).statusCode).toBe(404);

    // 4. The policy's next version: RateTableUpdated, version 2.
    const v2 = await console_(manager, 'POST', `/api/Operator/${A}/Policies/${policyId}/Versions`, {
      Body: allDay(300),
    });
    expect(v2.statusCode, v2.body).toBe(201);
    await read(`/apds/rates/policy-${policyId}`);

    // 5. The zone is retired: PlaceDeleted, RightSpecificationDeleted, the objects as they were.
    const placeBefore = (await apdsCall('GET', `/apds/places/${place}`, keyA)).json();
    const specBefore = (await apdsCall('GET', `/apds/rights/specs/${place}`, keyA)).json();
    const retired = await console_(manager, 'POST', `/api/Operator/${A}/Zones/${zone}/Retire`);
    expect(retired.statusCode, retired.body).toBe(200);
    reads.push(placeBefore, specBefore);
    // Another operator's zone and prices are no event of A's subscriptions.
    expect((await console_(ownerB, 'POST', `/api/Operator/${B}/Zones`, zoneInput('PE-B'))).statusCode).toBe(201);

    await drain();
    const got = events('/all', all.secret);
    expect(got.map((e) => [e.topic, e.data[0]!.id, e.data[0]!.version])).toEqual([
      ['PlaceCreated', place, 1],
      ['RightSpecificationCreated', place, 1],
      ['PlaceUpdated', place, 1],
      ['RightSpecificationUpdated', place, 1],
      ['RateTableUpdated', `preset-zone-${zone}`, 1],
      ['RateTableUpdated', `policy-${policyId}`, 1],
      ['RightSpecificationUpdated', place, 1],
      ['RateTableDeleted', `preset-zone-${zone}`, 1],
      ['RateTableUpdated', `policy-${policyId}`, 2],
      ['PlaceDeleted', place, 1],
      ['RightSpecificationDeleted', place, 1],
    ]);
    // Each event's object is the document's, and the one the read answered at that step.
    const operation: Record<string, string> = {
      Place: 'get-places-id',
      RightSpecification: 'get-rights-specs-id',
      RateTable: 'get-rates-id',
    };
    for (const e of got) {
      expect(apds.callback('placeEvent', e).errors).toEqual([]);
      const kind = e.topic.replace(/(Created|Updated|Deleted)$/, '');
      expect(apds.response(operation[kind]!, 200, e.data[0]).errors, e.topic).toEqual([]);
    }
    const byStep = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((i) => got[i]!.data[0]);
    expect(byStep).toEqual(reads);
    expect(
      (byStep[6] as unknown as { rateEligibility: { rateTable: { id: string } }[] }).rateEligibility[0]!.rateTable.id,
    ).toBe(`policy-${policyId}`);
    // Limited to another zone: it hears that zone's nothing and this zone's nothing; B hears only B.
    expect(accepted(receiver.hits, '/elsewhere')).toEqual([]);
    expect(
      events('/b', b.secret).map((e) => e.topic),
      'B hears its own zone only',
    ).toEqual(['PlaceCreated', 'RightSpecificationCreated']);
    expect(elsewhere.id).not.toBe(all.id);
  });

  it('a dead event names its object by the APDS id: the zone, the policy’s rate table', async () => {
    const dead = await subscribe(keyA, {
      endpoint: `${receiver.url}/dead`,
      topics: ['PlaceCreated', 'RateTableUpdated'],
    });
    const made = await console_(manager, 'POST', `/api/Operator/${A}/Zones`, zoneInput('PE-DEAD'));
    expect(made.statusCode, made.body).toBe(201);
    const policy = await console_(manager, 'POST', `/api/Operator/${A}/Policies`, {
      Name: 'Dead policy',
      Body: allDay(100),
    });
    expect(policy.statusCode, policy.body).toBe(201);
    const once = webhookSender({ currency: 'USD', privateOk: true, log: app.log, maxAttempts: 1 });
    for (let i = 0; i < 5 && (await pending()) > 0; i++) await once(db, new Date(Date.now() + i * 3_600_000));
    const list = await apdsCall('GET', `/apds/webhooks/${dead.id}/dead-letters`, keyA);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().data.map((d: { topic: string; objectId: string }) => [d.topic, d.objectId])).toEqual([
      ['PlaceCreated', `zone-${made.json<OperatorZone>().ZoneId}`],
      ['RateTableUpdated', `policy-${policy.json<PolicyVersion>().PolicyId}`],
    ]);
  });

  it('a subscription to these topics is accepted, and the Observation topics are still refused', async () => {
    const ok = await apdsCall('POST', '/apds/webhooks', keyA, {
      endpoint: `${receiver.url}/ok`,
      topics: ['PlaceUpdated', 'RateTableDeleted', 'RightSpecificationCreated'],
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const refused = await apdsCall('POST', '/apds/webhooks', keyA, {
      endpoint: `${receiver.url}/no`,
      topics: ['PlaceUpdated', 'ObservationCreated'],
    });
    expect(refused.statusCode).toBe(400);
    expect(JSON.stringify(refused.json().errors)).toContain('topics.1');
  });
});
