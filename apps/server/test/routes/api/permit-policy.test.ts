import { describe, expect, it } from 'vitest';
import {
  ENFORCEMENT_KEY_HEADER,
  PARKING_MESSAGES,
  PRICING_MESSAGES,
  type EnforcementAnswer,
  type PermitType,
  type PolicyVersion,
  type Quote,
} from '@parkit/contract';
import { enforcementChecks, permits, zones } from '../../../src/db/schema/index.ts';
import { createKey, rightToPark } from '../../../src/enforcement/index.ts';
import { as, registerAndSignIn } from '../../helpers.ts';
import { twoOperators } from '../../operator-helpers.ts';
import { addVehicle, addZone, credit, quote, startSession } from '../../parking-helpers.ts';
import { addZones, zoneAt } from '../../support/history-fixtures.ts';
import { asc, eq } from 'drizzle-orm';

// A zone's policy says which permit types park free or at their own rate (docs/pricing.md#permit-holders):
// the console's validation, the quote, and the plate check (enforcement/rights.ts). PGlite and PostgreSQL.
const { app, db, A, B, ownerB, staff } = await twoOperators('Permit policy city B', ['manager']);
const zone = await addZone(db, 'PPL1');
await addZones(db, B, [zoneAt('PPLB', '1 B St', { lat: 32.78, lng: -96.8 })]);
const [{ id: zoneOfB }] = (await db.select({ id: zones.id }).from(zones).where(eq(zones.operatorId, B))) as [
  { id: number },
];
const driver = await registerAndSignIn(app);
await credit(db, driver.memberId, 5000);

const makeType = async (Kind: string, Name: string, operatorId = A, who = staff.manager) => {
  const res = await as(app, who, {
    method: 'POST',
    url: `/api/Operator/${operatorId}/PermitTypes`,
    payload: {
      Kind,
      Name,
      ZoneIds: operatorId === A ? [zone] : [zoneOfB],
      ValidMonths: 12,
      PriceCents: 0,
      ProofRequired: false,
      MaxPlates: 1,
      VisitorDaysPerMonth: 0,
    },
  });
  if (res.statusCode !== 201) throw new Error(`permit type: ${res.statusCode} ${res.body}`);
  return res;
};
const resident = (await makeType('resident', 'Residents')).json<PermitType>();
const business = (await makeType('business', 'Businesses')).json<PermitType>();
const retired = (await makeType('business', 'Old businesses')).json<PermitType>();
await as(app, staff.manager, { method: 'POST', url: `/api/Operator/${A}/PermitTypes/${retired.Id}/Retire` });

const body = (classes: object[]) => ({
  Spans: [{ Id: 'all', Name: 'All day', Rate: [{ FromMinute: 0, CentsPerHour: 200 }], UserClasses: classes }],
  Holidays: [],
  MaxStayMinutes: 600,
});
const createPolicy = (name: string, classes: object[]) =>
  as(app, staff.manager, {
    method: 'POST',
    url: `/api/Operator/${A}/Policies`,
    payload: { Name: name, Body: body(classes) },
  });

const hour = 3_600_000;
const permitFor = async (typeId: number, plate: string) => {
  const [p] = await db
    .insert(permits)
    .values({
      operatorId: A,
      typeId,
      memberId: driver.memberId,
      plates: [plate],
      zoneIds: [zone],
      status: 'active',
      priceCents: 0,
      validFrom: new Date(Date.now() - hour),
      validUntil: new Date(Date.now() + 100 * hour),
    })
    .returning({ id: permits.id });
  return p!.id;
};

describe('a policy naming permit types', () => {
  it('refuses an unknown, retired or other operator’s permit type with a field error, writing nothing', async () => {
    const typeOfB = (await makeType('resident', 'B residents', B, ownerB)).json<PermitType>();
    for (const id of [999_999, retired.Id, typeOfB.Id]) {
      const res = await createPolicy(`Bad ${id}`, [{ PermitTypeId: id, Exempt: true }]);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json<{ errors: { field: string; message: string }[] }>().errors).toContainEqual({
        field: 'Body.Spans.0.UserClasses.0.PermitTypeId',
        message: PRICING_MESSAGES.permitTypeUnknown,
      });
    }
    for (const bad of [
      [{ PermitTypeId: resident.Id, PermitKind: 'resident', Exempt: true }],
      [{ PermitKind: 'parking', Exempt: true }],
      [{ PermitTypeId: resident.Id, Exempt: false }],
      [
        { PermitTypeId: resident.Id, Exempt: true },
        { PermitTypeId: resident.Id, Exempt: true },
      ],
    ]) {
      const res = await createPolicy('Bad body', bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
    }
    const list = await as(app, staff.manager, { method: 'GET', url: `/api/Operator/${A}/Policies` });
    expect(list.json<{ Name: string }[]>().filter((p) => p.Name.startsWith('Bad'))).toEqual([]);
  });

  it('prices the quote by the permit and answers the plate check from the same rule', async () => {
    const created = await createPolicy('Permits priced', [
      { PermitTypeId: resident.Id, Exempt: true },
      { PermitTypeId: business.Id, Exempt: false, Rate: [{ FromMinute: 0, CentsPerHour: 50 }] },
    ]);
    expect(created.statusCode, created.body).toBe(201);
    const v = created.json<PolicyVersion>();
    const assigned = await as(app, staff.manager, {
      method: 'POST',
      url: `/api/Operator/${A}/Policies/${v.PolicyId}/Zones`,
      payload: { ZoneIds: [zone] },
    });
    expect(assigned.statusCode, assigned.body).toBe(200);

    const freeCar = await addVehicle(app, driver, 'RES 001');
    const paidCar = await addVehicle(app, driver, 'BIZ-002');
    const plainCar = await addVehicle(app, driver, 'PLN003');
    const residentPermit = await permitFor(resident.Id, 'RES001');
    await permitFor(business.Id, 'BIZ002');

    // Exempt: no quote, the driver is told the permit parks free.
    const free = await quote(app, driver, { ZoneId: zone, VehicleId: freeCar, DurationMinutes: 60 });
    expect(free.statusCode).toBe(409);
    expect(free.json<{ message: string }>().message).toBe(PARKING_MESSAGES.permitFree);
    // Own rate: the class's rate, named on the quote.
    const own = await quote(app, driver, { ZoneId: zone, VehicleId: paidCar, DurationMinutes: 90 });
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json<Quote>()).toMatchObject({ ParkingAmount: 0.75, PermitRate: { PermitType: 'Businesses' } });
    // Everyone else: the span's rate, no permit named.
    const plain = await quote(app, driver, { ZoneId: zone, VehicleId: plainCar, DurationMinutes: 60 });
    expect(plain.json<Quote>().ParkingAmount).toBe(2);
    expect(plain.json<Quote>().PermitRate).toBeUndefined();

    const at = new Date();
    expect(await rightToPark(db, { zoneId: zone, plate: 'res-001', at })).toMatchObject({
      kind: 'permit',
      id: String(residentPermit),
    });
    // A permit priced at its own rate is no right: its holder must pay a session, at that rate.
    expect(await rightToPark(db, { zoneId: zone, plate: 'BIZ002', at })).toBeNull();
    // The key's plate check answers the same, in its statement, and audits each answer as given:
    // a permit held without a session waits on the policy (its audit row is a second statement).
    const key = await createKey(db, A, 'permit policy');
    const check = async (plate: string) => {
      const res = await app.inject({
        method: 'GET',
        url: `/api/Enforcement/Check?zone=ppl1&plate=${plate}&state=TX`,
        headers: { [ENFORCEMENT_KEY_HEADER]: key.key },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<EnforcementAnswer>();
    };
    expect((await check('RES001')).Right).toMatchObject({ Kind: 'permit', Id: String(residentPermit) });
    expect((await check('BIZ002')).Paid).toBe(false);
    await startSession(app, driver, { zoneId: zone, vehicleId: paidCar, minutes: 60 });
    expect(await rightToPark(db, { zoneId: zone, plate: 'BIZ002', at: new Date() })).toMatchObject({ kind: 'session' });
    const session = await check('BIZ002');
    expect(session.Right?.Kind).toBe('session');
    const audited = await db
      .select()
      .from(enforcementChecks)
      .where(eq(enforcementChecks.keyId, key.id))
      .orderBy(asc(enforcementChecks.id));
    const [address] = await db.select({ a: zones.address }).from(zones).where(eq(zones.id, zone));
    expect(audited.map((r) => [r.outcome, r.plate, r.paid, r.sessionId, r.address])).toEqual([
      ['paid', 'RES001', true, null, address!.a],
      ['not_paid', 'BIZ002', false, null, address!.a],
      ['paid', 'BIZ002', true, Number(session.Right!.Id), address!.a],
    ]);
  });
});
