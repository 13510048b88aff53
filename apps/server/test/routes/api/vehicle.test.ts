import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  MAX_VEHICLES,
  maxVehicleYear,
  type Vehicle,
  type VehicleMakeItem,
  type VehicleModelItem,
} from '@parkit/contract';
import { queryRows } from '../../../src/db/client.ts';
import { as, buildTestApp, expectRefused, publicList, registerAndSignIn, type SignedIn } from '../../helpers.ts';

const { app, database } = await buildTestApp();
const [alice, bob] = [await registerAndSignIn(app), await registerAndSignIn(app)];

const valid = {
  VehicleMake: 'TOYOTA',
  VehicleModel: 'CAMRY',
  PlateNumber: ' abc 123 ',
  PlateState: 'TX',
  VehicleColor: 'SILVER',
  VehicleYear: '2021',
};

const HOSTILE = [
  "' OR 1=1 --",
  "Robert'); DROP TABLE vehicles;--",
  'a\u0000b',
  '<script>alert(1)</script>',
  '🚗🚙',
  'x'.repeat(10_000),
];
const WRONG_TYPES: unknown[] = [123, true, [], ['TOYOTA'], {}, { $ne: null }, null, ''];
/** For id fields a number is the right type: the wrong ones, and numbers that are no id. */
const BAD_IDS: unknown[] = [
  ...WRONG_TYPES.filter((v) => typeof v !== 'number'),
  ...HOSTILE,
  '12abc',
  '1e3',
  0,
  -1,
  1.5,
  '0x10',
  2 ** 31,
  [7],
];

async function vehicleRows(): Promise<number> {
  const [r] = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from vehicles`);
  return Number(r?.n);
}

function post(who: SignedIn, action: string, payload: unknown) {
  return as(app, who, { method: 'POST', url: `/api/Vehicle/${action}`, payload: payload as Record<string, unknown> });
}

async function list(who: SignedIn): Promise<Vehicle[]> {
  const res = await as(app, who, { method: 'GET', url: '/api/Vehicle/List' });
  expect(res.statusCode).toBe(200);
  return res.json<Vehicle[]>();
}

describe('reference lists', () => {
  it('lists the makes by name, publicly, with a cache lifetime', async () => {
    const makes = await publicList<VehicleMakeItem>(app, '/api/Vehicle/Makes');
    expect(makes).toHaveLength(52);
    const names = makes.map((m) => m.PvValue);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })));
    expect(names.indexOf('Bentley')).toBeLessThan(names.indexOf('BMW'));
  });

  it('lists models for every make, and only that make’s', async () => {
    const makes = (await app.inject({ method: 'GET', url: '/api/Vehicle/Makes' })).json<VehicleMakeItem[]>();
    const seen = new Set<number>();
    for (const make of makes) {
      const res = await app.inject({ method: 'GET', url: `/api/Vehicle/Models/${make.PVID}` });
      expect(res.statusCode).toBe(200);
      const models = res.json<VehicleModelItem[]>();
      expect(models.length, make.PvValue).toBeGreaterThan(0);
      for (const m of models) {
        expect(seen.has(m.PVID)).toBe(false);
        seen.add(m.PVID);
      }
    }
    expect(seen.size).toBe(486);
    const toyota = makes.find((m) => m.PvValue === 'Toyota')!;
    const models = (await app.inject({ method: 'GET', url: `/api/Vehicle/Models/${toyota.PVID}` })).json<
      VehicleModelItem[]
    >();
    expect(models.map((m) => m.PvValue)).toContain('Camry');
    expect(models.map((m) => m.PvValue)).not.toContain('Civic');
  });

  it('refuses a malformed make id with 400 and an unknown one with 404', async () => {
    for (const id of ['abc', '0', '-1', '1.5', '1e3', '0x10', '99999999999', '%00', "1'%20OR%201=1"]) {
      expectRefused(await app.inject({ method: 'GET', url: `/api/Vehicle/Models/${id}` }), 400, 'makeId');
    }
    expectRefused(await app.inject({ method: 'GET', url: '/api/Vehicle/Models/9999' }), 404);
  });

  it('lists the colors', async () => {
    const colors = (await publicList<{ PvDescription: string }>(app, '/api/Vehicle/Colors')).map(
      (c) => c.PvDescription,
    );
    expect(colors).toHaveLength(16);
    expect(colors).toContain('Silver');
  });
});

describe('POST /api/Vehicle/Add', () => {
  it('adds a vehicle with names resolved in any case and the plate normalized', async () => {
    const res = await post(alice, 'Add', valid);
    expect(res.statusCode, res.body).toBe(201);
    const v = res.json<Vehicle>();
    expect(v).toEqual({
      VehicleID: expect.any(Number),
      VehicleMake: 'Toyota',
      VehicleModel: 'Camry',
      PlateNumber: 'ABC 123',
      PlateState: 'TX',
      VehicleColor: 'Silver',
      VehicleYear: '2021',
    });
    expect(await list(alice)).toEqual([v]);
  });

  it('refuses every field missing, wrong-typed, oversized or hostile, storing nothing', async () => {
    const before = await vehicleRows();
    for (const field of Object.keys(valid)) {
      const { [field]: _omitted, ...rest } = valid as Record<string, unknown>;
      expectRefused(await post(alice, 'Add', rest), 400, field);
      const bad = field === 'VehicleYear' ? WRONG_TYPES.filter((v) => typeof v !== 'number') : WRONG_TYPES;
      for (const value of [...bad, ...HOSTILE]) {
        expectRefused(await post(alice, 'Add', { ...valid, PlateNumber: 'HOST 1', [field]: value }), 400, field);
      }
    }
    const json = { 'content-type': 'application/json' };
    for (const body of ['null', '[]', '"TOYOTA"', '42', '{"VehicleMake":']) {
      expectRefused(
        await as(app, alice, { method: 'POST', url: '/api/Vehicle/Add', payload: body, headers: json }),
        400,
      );
    }
    expectRefused(await post(alice, 'Add', 'TOYOTA'), 415);
    expect(await vehicleRows()).toBe(before);
  });

  it('refuses a make, model, color or state not on the lists, and a model of another make', async () => {
    const before = await vehicleRows();
    expectRefused(await post(alice, 'Add', { ...valid, VehicleMake: 'Trabant' }), 400, 'VehicleMake');
    expectRefused(await post(alice, 'Add', { ...valid, VehicleModel: 'CIVIC' }), 400, 'VehicleModel');
    expectRefused(await post(alice, 'Add', { ...valid, VehicleColor: 'Plaid' }), 400, 'VehicleColor');
    expectRefused(await post(alice, 'Add', { ...valid, PlateState: 'ZZ' }), 400, 'PlateState');
    expectRefused(await post(alice, 'Add', { ...valid, PlateState: 'Texas' }), 400, 'PlateState');
    const several = await post(alice, 'Add', { ...valid, VehicleMake: 'Trabant', VehicleColor: 'Plaid' });
    expect(several.json<{ errors: { field: string }[] }>().errors.map((e) => e.field)).toEqual([
      'VehicleMake',
      'VehicleColor',
    ]);
    expect(await vehicleRows()).toBe(before);
  });

  it('takes years from 1900 to next year only', async () => {
    const next = maxVehicleYear();
    expectRefused(
      await post(alice, 'Add', { ...valid, PlateNumber: 'Y1899', VehicleYear: '1899' }),
      400,
      'VehicleYear',
    );
    expectRefused(
      await post(alice, 'Add', { ...valid, PlateNumber: 'YNEXT', VehicleYear: String(next + 1) }),
      400,
      'VehicleYear',
    );
    expect((await post(alice, 'Add', { ...valid, PlateNumber: 'Y1900', VehicleYear: 1900 })).statusCode).toBe(201);
    const newest = await post(alice, 'Add', { ...valid, PlateNumber: 'YNEW', VehicleYear: String(next) });
    expect(newest.json<Vehicle>().VehicleYear).toBe(String(next));
  });

  it('refuses the same plate in the same state twice (after normalizing), not in another state', async () => {
    const before = await vehicleRows();
    const dup = await post(alice, 'Add', { ...valid, PlateNumber: 'ABC  123' });
    expectRefused(dup, 409, 'PlateNumber');
    expect((await post(alice, 'Add', { ...valid, PlateState: 'ca' })).statusCode).toBe(201);
    // Another member may hold the same plate (a shared family car).
    expect((await post(bob, 'Add', valid)).statusCode).toBe(201);
    expect(await vehicleRows()).toBe(before + 2);
  });

  it('counts letters and digits only (2 to 10), keeps spaces and dashes, and compares plates without them', async () => {
    const dave = await registerAndSignIn(app);
    // An Indian plate: 10 letters and digits, 13 characters as typed.
    const indian = await post(dave, 'Add', { ...valid, PlateNumber: 'mh 12 ab 1234' });
    expect(indian.statusCode).toBe(201);
    expect(indian.json<Vehicle>().PlateNumber).toBe('MH 12 AB 1234');
    // The same plate with dashes, or none, is a duplicate; the database's unique index agrees.
    expectRefused(await post(dave, 'Add', { ...valid, PlateNumber: 'MH-12-AB-1234' }), 409, 'PlateNumber');
    expectRefused(await post(dave, 'Add', { ...valid, PlateNumber: 'mh12ab1234' }), 409, 'PlateNumber');
    const racers = await Promise.all(
      ['XY-99', 'XY 99', 'xy99'].map((p) => post(dave, 'Add', { ...valid, PlateNumber: p })),
    );
    expect(racers.map((r) => r.statusCode).sort()).toEqual([201, 409, 409]);
    // 11 letters and digits, one, or none: refused with the rule's message.
    for (const bad of ['MH 12 AB 12345', 'A', '- -', 'AB_12']) {
      const res = await post(dave, 'Add', { ...valid, PlateNumber: bad });
      expectRefused(res, 400, 'PlateNumber');
    }
  });

  it('keeps at most 10 vehicles per member, even when the adds race', async () => {
    const carol = await registerAndSignIn(app);
    const adds = Array.from({ length: MAX_VEHICLES + 3 }, (_, i) =>
      post(carol, 'Add', { ...valid, PlateNumber: `RACE ${i}` }),
    );
    const statuses = (await Promise.all(adds)).map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(MAX_VEHICLES);
    expect(statuses.filter((s) => s === 409)).toHaveLength(3);
    expect(await list(carol)).toHaveLength(MAX_VEHICLES);
    const over = await post(carol, 'Add', { ...valid, PlateNumber: 'ONE MORE' });
    expectRefused(over, 409);
    expect(over.json<{ message: string }>().message).toBe('You can keep at most 10 vehicles');
  });

  it('needs a signed-in member whose xapikey matches', async () => {
    const before = await vehicleRows();
    expectRefused(await app.inject({ method: 'POST', url: '/api/Vehicle/Add', payload: valid }), 401);
    const otherKey = { ...alice, headers: { ...alice.headers, xapikey: String(bob.memberId) } };
    expectRefused(await post(otherKey, 'Add', { ...valid, PlateNumber: 'KEY 1' }), 403);
    expectRefused(
      await as(app, alice, {
        method: 'POST',
        url: '/api/Vehicle/Add',
        payload: valid,
        headers: { authorization: 'Bearer nope' },
      }),
      401,
    );
    expectRefused(await app.inject({ method: 'GET', url: '/api/Vehicle/List' }), 401);
    expect(await vehicleRows()).toBe(before);
  });
});

describe('POST /api/Vehicle/Update', () => {
  it('changes the member’s own vehicle, keeping its own plate allowed', async () => {
    const [first] = await list(alice);
    const res = await post(alice, 'Update', {
      ...valid,
      VehicleId: String(first!.VehicleID),
      VehicleMake: 'honda',
      VehicleModel: 'civic',
      VehicleColor: 'red',
      VehicleYear: 2019,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Vehicle>()).toEqual({
      ...first,
      VehicleMake: 'Honda',
      VehicleModel: 'Civic',
      VehicleColor: 'Red',
      VehicleYear: '2019',
    });
    expect((await list(alice))[0]).toEqual(res.json());
  });

  it('refuses another of the member’s plates (409) and bad fields (400), changing nothing', async () => {
    const before = await list(alice);
    const [first, second] = before;
    const id = first!.VehicleID;
    expectRefused(
      await post(alice, 'Update', {
        ...valid,
        VehicleId: id,
        PlateNumber: second!.PlateNumber,
        PlateState: second!.PlateState,
      }),
      409,
      'PlateNumber',
    );
    expectRefused(await post(alice, 'Update', { ...valid, VehicleId: id, VehicleModel: 'F-150' }), 400, 'VehicleModel');
    expectRefused(await post(alice, 'Update', { ...valid, VehicleId: id, VehicleYear: '1899' }), 400, 'VehicleYear');
    for (const value of BAD_IDS) {
      expectRefused(await post(alice, 'Update', { ...valid, VehicleId: value }), 400, 'VehicleId');
    }
    expectRefused(await post(alice, 'Update', valid), 400, 'VehicleId');
    expect(await list(alice)).toEqual(before);
  });

  it('answers 404 for another member’s vehicle or none, and changes nothing', async () => {
    const [bobs] = await list(bob);
    const aliceBefore = await list(alice);
    const res = await post(alice, 'Update', { ...valid, VehicleId: bobs!.VehicleID, PlateNumber: 'STOLEN' });
    expectRefused(res, 404);
    expectRefused(await post(alice, 'Update', { ...valid, VehicleId: 2_000_000_000 }), 404);
    expect((await list(bob))[0]).toEqual(bobs);
    expect(await list(alice)).toEqual(aliceBefore);
  });
});

describe('GET /api/Vehicle/List and POST /api/Vehicle/Delete', () => {
  it('lists only the member’s own vehicles, oldest first', async () => {
    const mine = await list(alice);
    const ids = mine.map((v) => v.VehicleID);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const bobsIds = (await list(bob)).map((v) => v.VehicleID);
    expect(bobsIds.filter((id) => ids.includes(id))).toEqual([]);
    expect(mine.every((v) => /^\d{4}$/.test(v.VehicleYear))).toBe(true);
  });

  it('names each vehicle’s make, model and color as the lists do, and one whose make came after the lists were read', async () => {
    const carol = await registerAndSignIn(app);
    expect((await post(carol, 'Add', { ...valid, PlateNumber: 'NAME 1' })).statusCode).toBe(201);
    expect(await list(carol)).toEqual([
      expect.objectContaining({
        VehicleMake: 'Toyota',
        VehicleModel: 'Camry',
        VehicleColor: 'Silver',
        PlateNumber: 'NAME 1',
        VehicleYear: '2021',
      }),
    ]);
    // A make, model and color added in SQL after this app read its lists (a later migration).
    await database.db.execute(sql`insert into vehicle_makes (id, name) values (990101, 'Zephyrmobile')`);
    await database.db.execute(sql`insert into vehicle_models (id, make_id, name) values (990102, 990101, 'Breeze')`);
    await database.db.execute(sql`insert into vehicle_colors (id, name) values (990103, 'Sky Blue')`);
    await database.db.execute(
      sql`insert into vehicles (member_id, make_id, model_id, plate, plate_state, color_id, year) values (${carol.memberId}, 990101, 990102, 'NAME 2', 'TX', 990103, 2022)`,
    );
    expect((await list(carol)).map((v) => [v.VehicleMake, v.VehicleModel, v.VehicleColor, v.PlateNumber])).toEqual([
      ['Toyota', 'Camry', 'Silver', 'NAME 1'],
      ['Zephyrmobile', 'Breeze', 'Sky Blue', 'NAME 2'],
    ]);
  });

  it('answers 404 for another member’s vehicle and keeps it', async () => {
    const [bobs] = await list(bob);
    const before = await vehicleRows();
    expectRefused(await post(alice, 'Delete', { VehicleId: bobs!.VehicleID }), 404);
    expect((await list(bob)).map((v) => v.VehicleID)).toContain(bobs!.VehicleID);
    expect(await vehicleRows()).toBe(before);
  });

  it('refuses malformed ids and bodies without deleting anything', async () => {
    const before = await vehicleRows();
    for (const value of BAD_IDS) {
      expectRefused(await post(alice, 'Delete', { VehicleId: value }), 400, 'VehicleId');
    }
    expectRefused(await post(alice, 'Delete', {}), 400, 'VehicleId');
    expectRefused(await post(alice, 'Delete', null), 400);
    expectRefused(await app.inject({ method: 'POST', url: '/api/Vehicle/Delete', payload: { VehicleId: 1 } }), 401);
    expect(await vehicleRows()).toBe(before);
  });

  it('deletes the member’s own vehicle once', async () => {
    const [first, ...rest] = await list(alice);
    const res = await post(alice, 'Delete', { VehicleId: String(first!.VehicleID) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Vehicle Deleted Successfully' });
    expect(await list(alice)).toEqual(rest);
    expectRefused(await post(alice, 'Delete', { VehicleId: first!.VehicleID }), 404);
  });
});
