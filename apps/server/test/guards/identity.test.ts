import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { parkingSessions } from '../../src/db/schema/index.ts';
import { describe, expect, it } from 'vitest';
import { as, buildTestApp, registerAndSignIn, TEST_SECRET, type SignedIn } from '../helpers.ts';
import { fill, operations, type Operation } from '../openapi.ts';
import { tokenSigner } from '../../src/auth/tokens.ts';
import { tableChecksums } from './checksums.ts';
import { addCard } from '../wallet/helpers.ts';
import { addVehicle, addZone, credit, quote, startSession } from '../parking-helpers.ts';
import { multipart, PNG } from '../support-helpers.ts';
import { newOperator, signedInOwner, staffMember } from '../operator-helpers.ts';
import { defaultOperatorId } from '../../src/zones/index.ts';

// Issue 8's identity guard, read from the OpenAPI document so that a new route is covered:
// - every member-only operation refuses no token, a forged one, one without exp, and a valid one
//   of a member who does not exist, with 401;
// - every operation that takes an id is tried by one member with another member's id: 404 (403
//   for a member id), and nothing changes. An operation with an id that is not listed below fails
//   the test until someone says how to make a valid request for it.
const { app, database } = await buildTestApp({ ADDRESS_RATE_LIMIT_SCALE: 1000 });
const { db } = database;
const [alice, bob] = [await registerAndSignIn(app), await registerAndSignIn(app)];
const ops = await operations(app);
const now = () => Math.floor(Date.now() / 1000);

const VEHICLE = {
  VehicleMake: 'TOYOTA',
  VehicleModel: 'CAMRY',
  PlateNumber: 'ID 123',
  PlateState: 'TX',
  VehicleColor: 'SILVER',
  VehicleYear: '2021',
};
const bobsVehicle = (await as(app, bob, { method: 'POST', url: '/api/Vehicle/Add', payload: VEHICLE })).json<{
  VehicleID: number;
}>().VehicleID;

const bobsCard = await addCard(app, bob);

// Bob parks (a running session, and quotes for a start and an extension he has not paid yet) and
// uploads a chat attachment: alice must reach none of them.
const zone = await addZone(db, 'ID900');
await credit(db, bob.memberId, 100_00);
const bobsSession = await startSession(app, bob, { zoneId: zone, vehicleId: bobsVehicle, minutes: 60 });
const bobsSecondVehicle = await addVehicle(app, bob);
const quoteId = async (payload: object) => (await quote(app, bob, payload)).json<{ QuoteId: string }>().QuoteId;
const bobsStartQuote = await quoteId({ ZoneId: zone, VehicleId: bobsSecondVehicle, DurationMinutes: 60 });
const bobsExtendQuote = await quoteId({ SessionId: bobsSession.SessionId, DurationMinutes: 30 });
const upload = multipart(PNG, 'receipt.png', { type: 'image/png' });
const bobsAttachment = (
  await as(app, bob, {
    method: 'POST',
    url: '/api/Support/Chat/Attachment',
    payload: upload.payload,
    headers: upload.headers,
  })
).json<{ AttachmentId: string }>().AttachmentId;
const key = (n: number) => ({ 'idempotency-key': `identity-guard-parking-${n}` });

/** How to ask for another member's object: the request alice sends, and the status she must get. */
const FOREIGN: Record<
  string,
  (owner: SignedIn) => Promise<{ url?: string; payload?: object; headers?: Record<string, string>; status: number[] }>
> = {
  'POST /api/Vehicle/Update': async () => ({
    payload: { ...VEHICLE, VehicleId: String(bobsVehicle), PlateNumber: 'STOLEN 1' },
    status: [404],
  }),
  'POST /api/Vehicle/Delete': async () => ({ payload: { VehicleId: bobsVehicle }, status: [404] }),
  // Money: bob's card must never pay for alice, nor be changed by her.
  'POST /api/Wallet/AddMoney': async () => ({
    payload: { Amount: 10, PaymentMethodId: bobsCard },
    headers: { 'idempotency-key': 'identity-guard-1' },
    status: [404],
  }),
  'POST /api/PaymentMethods/SetDefault': async () => ({ payload: { PaymentMethodId: bobsCard }, status: [404] }),
  'POST /api/PaymentMethods/Delete': async () => ({ payload: { PaymentMethodId: bobsCard }, status: [404] }),
  // Parking and its history: bob's vehicle, quotes and session.
  'POST /api/Parking/Quote': async () => ({
    payload: { ZoneId: zone, VehicleId: bobsSecondVehicle, DurationMinutes: 60 },
    status: [404],
  }),
  'POST /api/Parking/Start': async () => ({ payload: { QuoteId: bobsStartQuote }, headers: key(1), status: [404] }),
  'POST /api/Parking/Extend': async () => ({ payload: { QuoteId: bobsExtendQuote }, headers: key(2), status: [404] }),
  'POST /api/Parking/Stop': async () => ({ payload: { SessionId: bobsSession.SessionId }, status: [404] }),
  'POST /api/Parking/Amend': async () => ({
    payload: { SessionId: bobsSession.SessionId, VehicleId: bobsSecondVehicle },
    headers: key(3),
    status: [404],
  }),
  'POST /api/Parking/AmendQuote': async () => ({
    payload: { SessionId: bobsSession.SessionId, ZoneId: zone },
    status: [404],
  }),
  'GET /api/Parking/Session/{id}': async () => ({
    url: `/api/Parking/Session/${bobsSession.SessionId}`,
    status: [404],
  }),
  'GET /api/Parking/Session/{id}/Proof': async () => ({
    url: `/api/Parking/Session/${bobsSession.SessionId}/Proof`,
    status: [404],
  }),
  'GET /api/Parking/Session/{id}/Receipt.pdf': async () => ({
    url: `/api/Parking/Session/${bobsSession.SessionId}/Receipt.pdf`,
    status: [404],
  }),
  // Support: bob's attachment; the console is for agents only (alice is a member).
  'POST /api/Support/Chat/Send': async () => ({
    payload: { Text: 'mine now', AttachmentId: bobsAttachment, ClientMessageId: 'identity-guard-1' },
    status: [404],
  }),
  // Citations: bob's plate's citation and its photo.
  'GET /api/Citations/{citationId}': async () => ({ url: `/api/Citations/${citationOfB}`, status: [404] }),
  'GET /api/Citations/{citationId}/Files/{fileId}': async () => ({
    url: `/api/Citations/${citationOfB}/Files/${photoOfB}`,
    status: [404],
  }),
  'GET /api/Citations/{citationId}/ProofPack.pdf': async () => ({
    url: `/api/Citations/${citationOfB}/ProofPack.pdf`,
    status: [404],
  }),
  'POST /api/Citations/{citationId}/Pay': async () => ({
    url: `/api/Citations/${citationOfB}/Pay`,
    headers: { 'idempotency-key': 'identity-guard-citation' },
    status: [404],
  }),
  'POST /api/Citations/{citationId}/Contest': async () => ({
    url: `/api/Citations/${citationOfB}/Contest`,
    payload: { Reason: 'Not mine' },
    status: [404],
  }),
  // Permits: bob's proof and permit application, in operator B's zone.
  'POST /api/Permits/Apply': async () => ({
    payload: { TypeId: typeOfB, Plates: ['MINE 1'], ProofAttachmentId: bobsAttachment },
    status: [404],
  }),
  'POST /api/Permits/{permitId}/Pay': async () => ({
    url: `/api/Permits/${permitOfB}/Pay`,
    headers: key(4),
    status: [404],
  }),
  'GET /api/Permits/{permitId}/VisitorDays': async () => ({
    url: `/api/Permits/${permitOfB}/VisitorDays`,
    status: [404],
  }),
  'POST /api/Permits/{permitId}/VisitorDays': async () => ({
    url: `/api/Permits/${permitOfB}/VisitorDays`,
    payload: { Plate: 'VISIT 1', Date: '2030-01-01' },
    status: [404],
  }),
  'GET /api/Support/Chat/Attachment/{attachmentId}': async () => ({
    url: `/api/Support/Chat/Attachment/${bobsAttachment}`,
    status: [404],
  }),
  'GET /api/Support/Console/Conversations/{memberId}/Messages': async (owner) => ({
    url: `/api/Support/Console/Conversations/${owner.memberId}/Messages`,
    status: [403],
  }),
  'POST /api/Support/Console/Conversations/{memberId}/Read': async (owner) => ({
    url: `/api/Support/Console/Conversations/${owner.memberId}/Read`,
    payload: {},
    status: [403],
  }),
  'POST /api/Support/Console/Conversations/{memberId}/Send': async (owner) => ({
    url: `/api/Support/Console/Conversations/${owner.memberId}/Send`,
    payload: { Text: 'hello', ClientMessageId: 'identity-guard-2' },
    status: [403],
  }),
  'POST /api/Support/Console/CallBacks/{callBackId}/Close': async () => ({
    url: '/api/Support/Console/CallBacks/1/Close',
    payload: { Status: 'called' },
    status: [403],
  }),
  'GET /api/Support/Console/Attachment/{attachmentId}': async () => ({
    url: `/api/Support/Console/Attachment/${bobsAttachment}`,
    status: [403],
  }),
  'POST /api/Account/Update': async (owner) => {
    const d = (await as(app, alice, { method: 'GET', url: '/api/Account/Details' })).json<Record<string, string>>();
    const mine = {
      EmailAddress: d.EmailAddress,
      PhoneNumber: d.PhoneNumber,
      FirstName: 'Mallory',
      LastName: d.LastName,
      UserName: d.UserName,
    };
    return {
      payload: {
        ...mine,
        ID: owner.memberId,
        AddressLine1: '1 Main St',
        AddressLine2: '',
        City: 'Austin',
        State: 'TX',
        ZipCode: '78701',
      },
      status: [403, 404],
    };
  },
};
/** Ids that name no member's object (reference data, public zones): nothing to steal. */
const NOT_OWNED = new Set([
  'GET /api/Vehicle/Models/{makeId}',
  'GET /api/Parking/Zones/{id}',
  'POST /api/Parking/AutoStartQuote' /* zones are public */,
  'POST /api/Subscription/Subscribe' /* plans are public */,
]);

/** The operator's console: every path under /api/Operator (the operatorOnly scope). */
const isOperatorOp = (o: Operation) => o.path.startsWith('/api/Operator/');

const takesId = (o: Operation) => {
  const body = o.op.requestBody?.content?.['application/json']?.schema as
    { properties?: Record<string, unknown> } | undefined;
  const names = [
    ...(o.op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name),
    ...Object.keys(body?.properties ?? {}),
  ];
  return names.some((n) => /(^id$|Id$|ID$)/.test(n));
};

const sign = (claims: Record<string, unknown>, secret = TEST_SECRET, exp = true) => {
  let jwt = new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(String(alice.memberId))
    .setIssuer('parkit')
    .setAudience('parkit-app')
    .setIssuedAt();
  if (exp) jwt = jwt.setExpirationTime('15m');
  return jwt.sign(new TextEncoder().encode(secret));
};
const BAD_TOKENS: [string, () => Promise<Record<string, string>>][] = [
  ['no token', async () => ({})],
  [
    'a token signed with another secret',
    async () => ({
      authorization: `Bearer ${await sign({ amr: ['pwd'], sv: 0 }, 'another-secret-that-is-long-enough-for-hs256')}`,
    }),
  ],
  [
    'a token without exp',
    async () => ({ authorization: `Bearer ${await sign({ amr: ['pwd'], sv: 0 }, TEST_SECRET, false)}` }),
  ],
  [
    'alg none',
    async () => ({
      authorization: `Bearer ${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify({ sub: String(alice.memberId), iss: 'parkit', aud: 'parkit-app', exp: now() + 900, iat: now(), sv: 0 })).toString('base64url')}.`,
    }),
  ],
  [
    'a valid token of a member who does not exist',
    async () => ({
      authorization: `Bearer ${await tokenSigner(TEST_SECRET).sign({ memberId: 999_999, amr: 'pwd', authTime: now(), sessionVersion: 0 })}`,
    }),
  ],
  [
    'a valid token of a member id past int4',
    async () => ({
      authorization: `Bearer ${await tokenSigner(TEST_SECRET).sign({ memberId: 2_147_483_648, amr: 'pwd', authTime: now(), sessionVersion: 0 })}`,
    }),
  ],
];

describe('identity: every member-only operation needs a genuine token of a living member', () => {
  const memberOps = ops.filter((o) => o.memberOnly);
  it('finds the member-only operations', () => expect(memberOps.length).toBeGreaterThan(10));

  it.each(memberOps.map((o) => [`${o.method} ${o.path}`, o] as const))(
    '%s answers 401 and changes nothing',
    async (_n, op) => {
      const before = await tableChecksums(db);
      // Every kind of bad token is tried and every one that gets through is reported together.
      const through: string[] = [];
      for (const [what, headers] of BAD_TOKENS) {
        const res = await app.inject({
          method: op.method as 'GET',
          url: fill(op.path, () => '1'),
          headers: await headers(),
          ...(op.method === 'GET' ? {} : { payload: {} }),
        });
        if (res.statusCode !== 401 || !res.body.includes('"message":"Unauthorized"'))
          through.push(`${what}: ${res.statusCode} ${res.body.slice(0, 100)}`);
      }
      expect(through).toEqual([]);
      expect(await tableChecksums(db)).toEqual(before);
    },
  );
});

describe('identity: another member’s id is a 404 and changes nothing', () => {
  const withIds = ops.filter((o) => o.memberOnly && takesId(o) && !isOperatorOp(o));
  it('knows how to try every operation that takes an id', () => {
    const unknown = withIds.map((o) => `${o.method} ${o.path}`).filter((k) => !(k in FOREIGN) && !NOT_OWNED.has(k));
    expect(unknown, 'add these to FOREIGN (or NOT_OWNED) in test/guards/identity.test.ts').toEqual([]);
  });

  it.each(withIds.filter((o) => `${o.method} ${o.path}` in FOREIGN).map((o) => [`${o.method} ${o.path}`, o] as const))(
    '%s',
    async (key, op) => {
      const t = await FOREIGN[key]!(bob);
      const before = await tableChecksums(db);
      const res = await as(app, alice, {
        method: op.method as 'POST',
        url: t.url ?? fill(op.path, () => '1'),
        headers: t.headers ?? {},
        ...(t.payload ? { payload: t.payload } : {}),
      });
      expect(t.status, res.body).toContain(res.statusCode);
      expect(await tableChecksums(db)).toEqual(before);
    },
  );
});

// The operator's console (operatorOnly, routes/scopes.ts): two operators, each with its owner and
// its objects. For every console operation: a driver gets 403; A's owner naming operator B gets
// 404; A's owner naming B's objects under A's own path gets 404; an analyst of A gets 403 on every
// change; none of it changes anything. A new console route fails here until its path parameters
// and its body are known below.
const consoleOps = ops.filter(isOperatorOp);
const A = await defaultOperatorId(db);
const B = await newOperator(db, 'Identity guard operator B');
const ownerA = await signedInOwner(app, db, A);
const ownerB = await signedInOwner(app, db, B);
const analystA = await staffMember(app, db, A, 'analyst');
const inviteOfB = (
  await as(app, ownerB, {
    method: 'POST',
    url: `/api/Operator/${B}/Invites`,
    payload: { Contact: '5125550142', Role: 'officer' },
  })
).json<{ InviteId: number }>().InviteId;
const zoneBody = (ZoneNumber: string) => ({
  ZoneNumber,
  Name: 'Guard zone',
  Address: '1 Guard St',
  Latitude: 30.27,
  Longitude: -97.74,
  Capacity: 4,
  RatePerHour: 2,
  MaxStayMinutes: 60,
  PaidDays: [1, 2, 3, 4, 5],
  PaidFrom: '08:00',
  PaidUntil: '18:00',
});
const zoneOfB = (
  await as(app, ownerB, { method: 'POST', url: `/api/Operator/${B}/Zones`, payload: zoneBody('GUARD-B') })
).json<{ ZoneId: number }>().ZoneId;
const allDay = {
  Spans: [{ Id: 'all', Name: 'All day', Rate: [{ FromMinute: 0, CentsPerHour: 100 }] }],
  MaxStayMinutes: 60,
};
const policyOfB = (
  await as(app, ownerB, {
    method: 'POST',
    url: `/api/Operator/${B}/Policies`,
    payload: { Name: 'Guard B', Body: allDay },
  })
).json<{ PolicyId: number }>().PolicyId;
const eventOfB = (
  await as(app, ownerB, {
    method: 'POST',
    url: `/api/Operator/${B}/PriceEvents`,
    payload: {
      Name: 'Guard match',
      StartsAt: new Date(Date.now() + 3_600_000).toISOString(),
      EndsAt: new Date(Date.now() + 7_200_000).toISOString(),
      PolicyId: policyOfB,
      ZoneIds: [zoneOfB],
    },
  })
).json<{ EventId: number }>().EventId;
// An ended session in B's zone (bob's), written as Start and Stop leave one.
const [sessionOfB] = await db
  .insert(parkingSessions)
  .values({
    memberId: bob.memberId,
    operatorId: B,
    zoneId: zoneOfB,
    vehicleMake: 'TOYOTA',
    vehicleModel: 'CAMRY',
    plate: 'GUARDB1',
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
const statementOfB = (
  await as(app, ownerB, {
    method: 'POST',
    url: `/api/Operator/${B}/Statements`,
    payload: { Period: 'day', Start: '2020-01-01' },
  })
).json<{ StatementId: number }>().StatementId;
// Operator B's violation and citation of bob's plate in B's zone, with its photo: bob's
// citation for the driver's routes, B's objects for the console's.
const violationOfB = (
  await as(app, ownerB, {
    method: 'POST',
    url: `/api/Operator/${B}/Violations`,
    payload: { Code: 'GUARD', Description: 'Guard', Fine: 5, DueDays: 7 },
  })
).json<{ ViolationId: number }>().ViolationId;
const photoUpload = multipart(PNG, 'car.png', { type: 'image/png' });
const photoOfB = (
  await as(app, ownerB, {
    method: 'POST',
    url: `/api/Operator/${B}/Citations/Photos`,
    payload: photoUpload.payload,
    headers: photoUpload.headers,
  })
).json<{ FileId: string }>().FileId;
const citationOfB = (
  await as(app, ownerB, {
    method: 'POST',
    url: `/api/Operator/${B}/Citations`,
    payload: {
      ZoneId: zoneOfB,
      PlateNumber: VEHICLE.PlateNumber,
      PlateState: 'TX',
      ViolationId: violationOfB,
      PhotoIds: [photoOfB],
    },
  })
).json<{ CitationId: number }>().CitationId;
const typeOfB = (
  await as(app, ownerB, {
    method: 'POST',
    url: `/api/Operator/${B}/PermitTypes`,
    payload: {
      Kind: 'resident',
      Name: 'Guard residents',
      ZoneIds: [zoneOfB],
      ValidMonths: 12,
      PriceCents: 500,
      ProofRequired: false,
      MaxPlates: 2,
      VisitorDaysPerMonth: 2,
    },
  })
).json<{ Id: number }>().Id;
const permitOfB = (
  await as(app, bob, { method: 'POST', url: '/api/Permits/Apply', payload: { TypeId: typeOfB, Plates: ['GUARD 7'] } })
).json<{ Id: number }>().Id;
const keyOfB = (
  await as(app, ownerB, { method: 'POST', url: `/api/Operator/${B}/Keys`, payload: { Purpose: 'cds' } })
).json<{ Prefix: string }>().Prefix;
/** B's object for each path parameter a console route takes. */
const OF_B: Record<string, string> = {
  operatorId: String(B),
  memberId: String(ownerB.memberId),
  inviteId: String(inviteOfB),
  zoneId: String(zoneOfB),
  policyId: String(policyOfB),
  eventId: String(eventOfB),
  sessionId: String(sessionOfB!.id),
  statementId: String(statementOfB),
  violationId: String(violationOfB),
  citationId: String(citationOfB),
  fileId: photoOfB,
  typeId: String(typeOfB),
  permitId: String(permitOfB),
  prefix: keyOfB,
};
/** A valid body for each console operation that reads one, so that the answer is about the ids. */
const BODIES: Record<string, object> = {
  'POST /api/Operator/{operatorId}/Invites': { Contact: '5125550143', Role: 'manager' },
  'POST /api/Operator/{operatorId}/Staff/{memberId}/Role': { Role: 'manager' },
  'POST /api/Operator/{operatorId}/Zones': zoneBody('GUARD-A'),
  'PUT /api/Operator/{operatorId}/Zones/{zoneId}': zoneBody('GUARD-A2'),
  'POST /api/Operator/{operatorId}/Policies': { Name: 'Guard A', Body: allDay },
  'POST /api/Operator/{operatorId}/Policies/{policyId}/Versions': { Body: allDay },
  'POST /api/Operator/{operatorId}/Policies/{policyId}/Zones': { ZoneIds: [zoneOfB] },
  'POST /api/Operator/{operatorId}/Policies/Preview': {
    Body: allDay,
    StartsAt: '2026-11-28T23:30:00.000Z',
    DurationMinutes: 60,
  },
  'POST /api/Operator/{operatorId}/PriceEvents': {
    Name: 'Guard A event',
    StartsAt: '2030-01-01T10:00:00.000Z',
    EndsAt: '2030-01-01T12:00:00.000Z',
    PolicyId: policyOfB,
    ZoneIds: [zoneOfB],
  },
  'POST /api/Operator/{operatorId}/Zones/Import': {
    File: 'zone_number,address,lat,lng,rate,max_stay_minutes\nGUARD-A3,1 Guard St,30.2672,-97.7431,1,60',
    DryRun: false,
  },
  'POST /api/Operator/{operatorId}/Sessions/{sessionId}/Refund': { Whole: true, Reason: 'Guard' },
  'POST /api/Operator/{operatorId}/Statements': { Period: 'day', Start: '2020-01-02' },
  'POST /api/Operator/{operatorId}/Violations': { Code: 'GUARD-A', Description: 'Guard', Fine: 5, DueDays: 7 },
  'POST /api/Operator/{operatorId}/Violations/{violationId}': {
    Code: 'GUARD-A2',
    Description: 'Guard',
    Fine: 5,
    DueDays: 7,
  },
  'POST /api/Operator/{operatorId}/Citations/Photos': {},
  'POST /api/Operator/{operatorId}/Citations': {
    ZoneId: zoneOfB,
    PlateNumber: 'GUARD 1',
    PlateState: 'TX',
    ViolationId: violationOfB,
    PhotoIds: [photoOfB],
  },
  'POST /api/Operator/{operatorId}/Citations/{citationId}/Decide': { Decision: 'upheld' },
  'PUT /api/Operator/{operatorId}/Settings': { ShowPlates: true },
  'POST /api/Operator/{operatorId}/PermitTypes': {
    Kind: 'ev',
    Name: 'Guard EV',
    ZoneIds: [zoneOfB],
    ValidMonths: 1,
    PriceCents: 0,
    ProofRequired: false,
    MaxPlates: 1,
    VisitorDaysPerMonth: 0,
  },
  'PUT /api/Operator/{operatorId}/PermitTypes/{typeId}': {
    Kind: 'ev',
    Name: 'Guard EV 2',
    ZoneIds: [zoneOfB],
    ValidMonths: 1,
    PriceCents: 0,
    ProofRequired: false,
    MaxPlates: 1,
    VisitorDaysPerMonth: 0,
  },
  'POST /api/Operator/{operatorId}/Permits/{permitId}/Refuse': { Reason: 'Guard' },
  'POST /api/Operator/{operatorId}/Chalks': { ZoneId: zoneOfB, PlateNumber: 'GUARD 1', PlateState: 'TX' },
  'POST /api/Operator/{operatorId}/Keys': { Purpose: 'cds', Label: 'Guard' },
};
/** Console POSTs that change nothing (a draft priced by the engine): every role may send them. */
const READING_POSTS = new Set(['POST /api/Operator/{operatorId}/Policies/Preview']);
/** A valid query for each console read that needs one; B's zone in it (another operator's object for A). */
const QUERIES: Record<string, string> = Object.fromEntries(
  ['Report', 'Report/Sessions.csv', 'Report/Hours.csv'].map((r) => [
    `GET /api/Operator/{operatorId}/${r}`,
    `?From=2026-11-01&To=2026-11-27&Zones=${zoneOfB}`,
  ]),
);
QUERIES['GET /api/Operator/{operatorId}/Rights'] = `?zones=${zoneOfB}`;
QUERIES['GET /api/Operator/{operatorId}/Chalks'] = `?zoneId=${zoneOfB}&plate=GUARD1`;
QUERIES['GET /api/Operator/{operatorId}/Check'] = `?zoneId=${zoneOfB}&plate=GUARD1&state=TX`;
const hasBody = (o: Operation) => Boolean(o.op.requestBody);
const send = (who: SignedIn, o: Operation, url: string) =>
  as(app, who, {
    method: o.method as 'POST',
    url: url + (QUERIES[`${o.method} ${o.path}`] ?? ''),
    // A money route's Idempotency-Key, so that the answer is about the ids.
    ...(o.method === 'GET'
      ? {}
      : { payload: BODIES[`${o.method} ${o.path}`] ?? {}, headers: { 'idempotency-key': randomUUID() } }),
  });

describe('identity: the operator console', () => {
  it('finds the console and knows each path parameter and body', () => {
    expect(consoleOps.length).toBeGreaterThan(5);
    const params = consoleOps.flatMap((o) => [...o.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!));
    expect(params.filter((p) => !(p in OF_B))).toEqual([]);
    expect(consoleOps.filter((o) => hasBody(o) && !(`${o.method} ${o.path}` in BODIES)).map((o) => o.path)).toEqual([]);
  });

  it.each(consoleOps.map((o) => [`${o.method} ${o.path}`, o] as const))('%s', async (_key, op) => {
    const before = await tableChecksums(db);
    const wrong: string[] = [];
    const expectStatus = async (what: string, who: SignedIn, url: string, status: number) => {
      const res = await send(who, op, url);
      if (res.statusCode !== status) wrong.push(`${what}: ${res.statusCode} ${res.body.slice(0, 120)}`);
    };
    // A driver: 403, whoever's ids.
    await expectStatus(
      'a driver',
      alice,
      fill(op.path, (n) => (n === 'operatorId' ? String(A) : OF_B[n]!)),
      403,
    );
    if (op.path.includes('{operatorId}')) {
      // Operator B's path, B's objects: 404 for A's owner.
      await expectStatus(
        "another operator's id",
        ownerA,
        fill(op.path, (n) => OF_B[n]!),
        404,
      );
      // A's own path with B's objects (in the path, or the query): 404.
      if (/\{(?!operatorId)[^}]+\}/.test(op.path) || `${op.method} ${op.path}` in QUERIES)
        await expectStatus(
          "another operator's object",
          ownerA,
          fill(op.path, (n) => (n === 'operatorId' ? String(A) : OF_B[n]!)),
          404,
        );
    }
    // An analyst reads and never changes.
    if (op.method !== 'GET' && !READING_POSTS.has(`${op.method} ${op.path}`))
      await expectStatus(
        'an analyst changing',
        analystA,
        fill(op.path, (n) => (n === 'operatorId' ? String(A) : OF_B[n]!)),
        403,
      );
    expect(wrong).toEqual([]);
    expect(await tableChecksums(db)).toEqual(before);
  });
});
