import { describe, expect, it } from 'vitest';
import {
  OPERATOR_MESSAGES,
  OPERATOR_ZONE_MESSAGES as M,
  PARKING_MESSAGES,
  type AuditPage,
  type OperatorZone,
  type OperatorZonePage,
  type ActiveSessions,
  type Quote,
  type Zone,
  type ZoneInput,
} from '@parkit/contract';
import { as, expectRefused, registerAndSignIn } from '../../helpers.ts';
import { concurrently, statusCounts } from '../../concurrency.ts';
import { tableChecksums } from '../../guards/checksums.ts';
import { staffMember, twoOperators } from '../../operator-helpers.ts';
import { addVehicle, CENTRE, credit, pay, quote, startSession } from '../../parking-helpers.ts';

// An operator's zones in the console: list, search, create, edit, retire; roles, audit, another
// operator's ids; a change reaches drivers' Find Parking at once and never a running session's price.
const {
  app,
  db,
  A,
  B,
  owner,
  ownerB,
  staff: { manager },
} = await twoOperators('Other Zones Parking', ['manager']);
const driver = await registerAndSignIn(app);
await credit(db, driver.memberId, 20_000);

type Who = Parameters<typeof as>[1];
const send = (who: Who, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  as(app, who, { method, url, ...(payload ? { payload } : {}) });

let n = 0;
const body = (extra: Partial<ZoneInput> = {}): ZoneInput => ({
  ZoneNumber: `C${process.pid % 1000}${++n}`,
  Name: 'Console Street',
  Address: '100 Console St',
  Latitude: CENTRE.lat + 0.001,
  Longitude: CENTRE.lng + 0.001,
  Capacity: 12,
  RatePerHour: 3,
  MaxStayMinutes: 120,
  PaidDays: [1, 2, 3, 4, 5, 6, 7],
  PaidFrom: '00:00',
  PaidUntil: '24:00',
  ...extra,
});
const create = async (who: Who = manager, extra: Partial<ZoneInput> = {}, operatorId = A) =>
  send(who, 'POST', `/api/Operator/${operatorId}/Zones`, body(extra));
const made = async (extra: Partial<ZoneInput> = {}) => {
  const res = await create(manager, extra);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<OperatorZone>();
};
const nearbyIds = async () =>
  (await send(driver, 'GET', `/api/Parking/Zones/Nearby?lat=${CENTRE.lat}&lng=${CENTRE.lng}&radius=2000&limit=50`))
    .json<Zone[]>()
    .map((z) => z.ZoneId);
const lastAudit = async () =>
  (await send(owner, 'GET', `/api/Operator/${A}/Audit?limit=1`)).json<AuditPage>().Entries[0]!;

describe('creating a zone', () => {
  it('a manager creates a zone with a curb polygon; it is audited and shows in Find Parking at once', async () => {
    const curb = {
      type: 'Polygon' as const,
      coordinates: [
        [
          [CENTRE.lng, CENTRE.lat],
          [CENTRE.lng + 0.001, CENTRE.lat],
          [CENTRE.lng + 0.001, CENTRE.lat + 0.001],
          [CENTRE.lng, CENTRE.lat],
        ],
      ],
    };
    const z = await made({ Curb: curb, ZoneNumber: ' c-new1 ' });
    expect(z).toMatchObject({ ZoneNumber: 'C-NEW1', Capacity: 12, RatePerHour: 3, Curb: curb, RetiredAt: null });
    expect(z.City).not.toBe('');
    expect(await nearbyIds()).toContain(z.ZoneId);
    const entry = await lastAudit();
    expect(entry).toMatchObject({ Action: 'zone.create', Entity: 'zone', EntityId: String(z.ZoneId), Before: null });
    expect(entry.After).toMatchObject({ ZoneNumber: 'C-NEW1' });
    expect((await send(owner, 'GET', `/api/Operator/${A}/Zones/${z.ZoneId}`)).json()).toEqual(z);
  });

  it('a number the operator has already is a 409; another operator may use it', async () => {
    const z = await made();
    const again = await create(owner, { ZoneNumber: z.ZoneNumber.toLowerCase() });
    expectRefused(again, 409, 'ZoneNumber', M.numberTaken);
    const other = await create(ownerB, { ZoneNumber: z.ZoneNumber }, B);
    expect(other.statusCode, other.body).toBe(201);
  });

  it('two creates of one number at once: one 201, one 409', async () => {
    const number = `RACE${process.pid % 1000}`;
    const results = await concurrently(2, (i) =>
      create(i ? owner : manager, { ZoneNumber: number, Name: `Race ${i}` }),
    );
    expect(statusCounts(results)).toEqual({ 201: 1, 409: 1 });
    const list = (await send(owner, 'GET', `/api/Operator/${A}/Zones?q=${number}`)).json<OperatorZonePage>();
    expect(list.Zones.filter((z) => z.ZoneNumber === number)).toHaveLength(1);
  });

  it('bad and hostile input is a 400 naming the field and changes nothing', async () => {
    const before = await tableChecksums(db);
    const cases: [Partial<ZoneInput> | Record<string, unknown>, string, string][] = [
      [{ ZoneNumber: '' }, 'ZoneNumber', M.numberFormat],
      [{ ZoneNumber: "1'; drop table zones;--" }, 'ZoneNumber', M.numberFormat],
      [{ Name: '   ' }, 'Name', M.nameRequired],
      [{ Latitude: 91 }, 'Latitude', M.latitudeRange],
      [{ Longitude: -181 }, 'Longitude', M.longitudeRange],
      [{ Capacity: -1 }, 'Capacity', M.capacityRange],
      [{ Capacity: 1.5 }, 'Capacity', M.capacityRange],
      [{ RatePerHour: 1.005 }, 'RatePerHour', M.rateRange],
      [{ MaxStayMinutes: 0 }, 'MaxStayMinutes', M.maxStayRange],
      [{ PaidDays: [1, 1] }, 'PaidDays', M.paidDaysInvalid],
      [{ PaidFrom: '08:00', PaidUntil: '08:00' }, 'PaidUntil', M.paidHoursInvalid],
      [{ PaidFrom: '25:00' }, 'PaidFrom', M.paidHoursInvalid],
      [{ Curb: { type: 'Point', coordinates: [0, 0] } }, 'Curb.type', M.curbInvalid],
      [{ Curb: { type: 'LineString', coordinates: [[CENTRE.lng, CENTRE.lat]] } }, 'Curb.coordinates', M.curbPoints],
      [
        {
          Curb: {
            type: 'Polygon',
            coordinates: [
              [
                [CENTRE.lng, CENTRE.lat],
                [CENTRE.lng + 0.001, CENTRE.lat],
                [CENTRE.lng + 0.001, CENTRE.lat + 0.001],
                [CENTRE.lng, CENTRE.lat + 0.001],
              ],
            ],
          },
        },
        'Curb.coordinates.0',
        M.curbRingOpen,
      ],
      [
        {
          Curb: {
            type: 'LineString',
            coordinates: [
              [CENTRE.lng, CENTRE.lat],
              [200, 0],
            ],
          },
        },
        'Curb.coordinates.1',
        M.curbCoordinates,
      ],
      [
        {
          Curb: {
            type: 'LineString',
            coordinates: [
              [CENTRE.lng, CENTRE.lat],
              [CENTRE.lng + 1, CENTRE.lat],
            ],
          },
        },
        'Curb',
        M.curbTooFar,
      ],
    ];
    for (const [extra, field, message] of cases) {
      const res = await create(manager, extra as Partial<ZoneInput>);
      expect(res.statusCode, `${JSON.stringify(extra)}: ${res.body}`).toBe(400);
      const errors = res.json<{ errors?: { field: string; message: string }[] }>().errors ?? [];
      expect(errors, JSON.stringify(extra)).toContainEqual({ field, message });
    }
    const huge = Array.from({ length: 501 }, (_, i) => [CENTRE.lng + i * 1e-6, CENTRE.lat]);
    expect((await create(manager, { Curb: { type: 'LineString', coordinates: huge } })).statusCode).toBe(400);
    expect(await tableChecksums(db)).toEqual(before);
  });
});

describe('listing, editing and retiring', () => {
  it('lists by number with search (wildcards taken literally) and paging', async () => {
    const tag = `Q${process.pid % 1000}X`;
    for (const i of [1, 2, 3]) await made({ ZoneNumber: `${tag}${i}`, Name: `Paging ${tag} ${i}` });
    const page = (q: string) => send(owner, 'GET', `/api/Operator/${A}/Zones?${q}`);
    const first = (await page(`q=${tag}&limit=2`)).json<OperatorZonePage>();
    expect(first.Total).toBe(3);
    expect(first.Zones.map((z) => z.ZoneNumber)).toEqual([`${tag}1`, `${tag}2`]);
    const second = (await page(`q=${tag.toLowerCase()}&limit=2&offset=2`)).json<OperatorZonePage>();
    expect(second.Zones.map((z) => z.ZoneNumber)).toEqual([`${tag}3`]);
    expect((await page('q=%25%25%25_')).json<OperatorZonePage>().Total).toBe(0);
    expectRefused(await page('limit=0'), 400, 'limit');
    expectRefused(await page('offset=-1'), 400, 'offset');
  });

  it('an edit is audited with before and after, shows in Find Parking at once, and a running session keeps its rate', async () => {
    const z = await made({ RatePerHour: 2 });
    const car = await addVehicle(app, driver);
    const session = await startSession(app, driver, { zoneId: z.ZoneId, vehicleId: car, minutes: 60 });
    const res = await send(
      manager,
      'PUT',
      `/api/Operator/${A}/Zones/${z.ZoneId}`,
      body({ ZoneNumber: z.ZoneNumber, RatePerHour: 6, Name: 'Renamed' }),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<OperatorZone>()).toMatchObject({ Name: 'Renamed', RatePerHour: 6 });
    const entry = await lastAudit();
    expect(entry).toMatchObject({ Action: 'zone.update', ActorId: manager.memberId });
    expect(entry.Before).toMatchObject({ Name: 'Console Street', RatePerHour: 2 });
    expect(entry.After).toMatchObject({ Name: 'Renamed', RatePerHour: 6 });
    const shown = (
      await send(driver, 'GET', `/api/Parking/Zones/Nearby?lat=${CENTRE.lat}&lng=${CENTRE.lng}&radius=2000&limit=50`)
    )
      .json<Zone[]>()
      .find((x) => x.ZoneId === z.ZoneId);
    expect(shown).toMatchObject({ Name: 'Renamed', RatePerHour: 6 });
    // The running session keeps its rate: an extension is priced at the rate it started with.
    const ext = await quote(app, driver, { SessionId: session.SessionId, DurationMinutes: 30 });
    expect(ext.statusCode, ext.body).toBe(200);
    expect(ext.json<Quote>()).toMatchObject({ RatePerHour: 2, ParkingAmount: 1 });
    const running = (await send(driver, 'GET', '/api/Parking/Active')).json<ActiveSessions>();
    expect(running.Sessions.find((x) => x.SessionId === session.SessionId)).toMatchObject({ ZoneId: z.ZoneId });
  });

  it('retiring keeps the zone, hides it from Find Parking, refuses quotes and Start, and is audited', async () => {
    const z = await made();
    const car = await addVehicle(app, driver);
    const early = await quote(app, driver, { ZoneId: z.ZoneId, VehicleId: car, DurationMinutes: 30 });
    expect(early.statusCode, early.body).toBe(200);
    const res = await send(manager, 'POST', `/api/Operator/${A}/Zones/${z.ZoneId}/Retire`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<OperatorZone>().RetiredAt).not.toBeNull();
    expect((await lastAudit()).Action).toBe('zone.retire');
    expect(await nearbyIds()).not.toContain(z.ZoneId);
    expectRefused(
      await quote(app, driver, { ZoneId: z.ZoneId, VehicleId: car, DurationMinutes: 30 }),
      409,
      'ZoneId',
      PARKING_MESSAGES.zoneRetired,
    );
    // A quote given before the zone was retired does not start a session there.
    expectRefused(
      await pay(app, driver, 'Start', { QuoteId: early.json<Quote>().QuoteId }),
      409,
      'ZoneId',
      PARKING_MESSAGES.zoneRetired,
    );
    expectRefused(
      await send(manager, 'POST', `/api/Operator/${A}/Zones/${z.ZoneId}/Retire`),
      409,
      'ZoneId',
      M.alreadyRetired,
    );
    expectRefused(
      await send(manager, 'PUT', `/api/Operator/${A}/Zones/${z.ZoneId}`, body({ ZoneNumber: z.ZoneNumber })),
      409,
      'ZoneId',
      M.retiredNoEdit,
    );
    const list = (
      await send(owner, 'GET', `/api/Operator/${A}/Zones?q=${z.ZoneNumber}&retired=only`)
    ).json<OperatorZonePage>();
    expect(list.Zones.map((x) => x.ZoneId)).toEqual([z.ZoneId]);
    const live = (
      await send(owner, 'GET', `/api/Operator/${A}/Zones?q=${z.ZoneNumber}&retired=exclude`)
    ).json<OperatorZonePage>();
    expect(live.Total).toBe(0);
  });

  it('an edit to a number the operator has is a 409 and changes nothing', async () => {
    const a = await made();
    const b = await made();
    const before = await tableChecksums(db);
    expectRefused(
      await send(owner, 'PUT', `/api/Operator/${A}/Zones/${b.ZoneId}`, body({ ZoneNumber: a.ZoneNumber })),
      409,
      'ZoneNumber',
      M.numberTaken,
    );
    expect(await tableChecksums(db)).toEqual(before);
  });
});

describe('who may do what', () => {
  it('an analyst and an officer read but get 403 on every change; nothing changes', async () => {
    const z = await made();
    for (const role of ['analyst', 'officer'] as const) {
      const who = await staffMember(app, db, A, role);
      expect((await send(who, 'GET', `/api/Operator/${A}/Zones`)).statusCode).toBe(200);
      expect((await send(who, 'GET', `/api/Operator/${A}/Zones/${z.ZoneId}`)).statusCode).toBe(200);
      const before = await tableChecksums(db);
      expectRefused(await create(who), 403, undefined, OPERATOR_MESSAGES.roleNotAllowed);
      expectRefused(
        await send(who, 'PUT', `/api/Operator/${A}/Zones/${z.ZoneId}`, body({ ZoneNumber: z.ZoneNumber })),
        403,
      );
      expectRefused(await send(who, 'POST', `/api/Operator/${A}/Zones/${z.ZoneId}/Retire`), 403);
      expect(await tableChecksums(db)).toEqual(before);
    }
  });

  it('a driver gets 403', async () => {
    expectRefused(await send(driver, 'GET', `/api/Operator/${A}/Zones`), 403, undefined, OPERATOR_MESSAGES.staffOnly);
    expectRefused(await create(driver), 403);
  });

  it("another operator's zone and operator ids are 404 and change nothing", async () => {
    const theirs = await create(ownerB, {}, B);
    expect(theirs.statusCode, theirs.body).toBe(201);
    const id = theirs.json<OperatorZone>().ZoneId;
    const before = await tableChecksums(db);
    expectRefused(await send(owner, 'GET', `/api/Operator/${A}/Zones/${id}`), 404, undefined, M.zoneNotFound);
    expectRefused(await send(owner, 'PUT', `/api/Operator/${A}/Zones/${id}`, body()), 404, undefined, M.zoneNotFound);
    expectRefused(await send(owner, 'POST', `/api/Operator/${A}/Zones/${id}/Retire`), 404, undefined, M.zoneNotFound);
    expectRefused(
      await send(owner, 'GET', `/api/Operator/${B}/Zones`),
      404,
      undefined,
      OPERATOR_MESSAGES.operatorNotFound,
    );
    expectRefused(await create(owner, {}, B), 404);
    expect(
      (await send(owner, 'GET', `/api/Operator/${A}/Zones?limit=200`))
        .json<OperatorZonePage>()
        .Zones.map((z) => z.ZoneId),
    ).not.toContain(id);
    expect(await tableChecksums(db)).toEqual(before);
  });
});
