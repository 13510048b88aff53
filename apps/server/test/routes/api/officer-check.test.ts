// The officer's online check of one plate (issue 30, "plate checks stay fast"): GET
// /api/Operator/{id}/Check answers as the key's check (EnforcementAnswer, enforcement/check-repository.ts),
// audited under the officer's name; another operator's zone is 404, a role without enforce 403.
import { and, desc, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ENFORCEMENT_MESSAGES as EM, type EnforcementAnswer } from '@parkit/contract';
import { queryRows } from '../../../src/db/client.ts';
import { enforcementChecks } from '../../../src/db/schema/index.ts';
import { insertZones } from '../../../src/zones/zone-repository.ts';
import { as, registerAndSignIn, type SignedIn } from '../../helpers.ts';
import { twoOperators } from '../../operator-helpers.ts';
import { addVehicle, addZone, CENTRE, credit, startSession, zoneAt } from '../../parking-helpers.ts';

const {
  app,
  db,
  A,
  B,
  owner,
  staff: { manager, officer, analyst },
} = await twoOperators('Other Check Parking', ['manager', 'officer', 'analyst']);
const zoneId = await addZone(db, 'OC1');
await insertZones(db, B, [zoneAt('OCB', 'B street', CENTRE)]);
const [bZone] = await queryRows<{ id: number }>(db, sql`select id from zones where operator_id = ${B} limit 1`);
const zoneB = Number(bZone!.id);

let plates = 0;
const newPlate = () => `OC${process.pid % 100}K${++plates}`;
const check = (who: SignedIn, q: Record<string, string | number>, operatorId = A) =>
  as(app, who, {
    method: 'GET',
    url: `/api/Operator/${operatorId}/Check?${new URLSearchParams(Object.entries(q).map(([k, v]): [string, string] => [k, String(v)]))}`,
  });

/** The audit rows of a plate, newest first. */
const auditOf = (plate: string) =>
  db.select().from(enforcementChecks).where(eq(enforcementChecks.plate, plate)).orderBy(desc(enforcementChecks.id));

/** An active resident permit of operator A for the plate in the zone (a free type: it parks free). */
async function permit(member: number, plate: string) {
  const [type] = await queryRows<{ id: number }>(
    db,
    sql`insert into permit_types (operator_id, kind, name, zone_ids, valid_months, price_cents, visitor_days_per_month)
        values (${A}, 'resident', 'Residents', array[${zoneId}]::int[], 12, 0, 0) returning id`,
  );
  const [row] = await queryRows<{ id: number }>(
    db,
    sql`insert into permits (operator_id, type_id, member_id, plates, zone_ids, status, price_cents, valid_from, valid_until)
        values (${A}, ${type!.id}, ${member}, array[${plate}]::text[], array[${zoneId}]::int[], 'active', 0,
                now() - interval '1 day', now() + interval '30 days') returning id`,
  );
  return Number(row!.id);
}

describe("the officer's check", () => {
  it('answers a paid session, with the zone’s number and the plate as compared, audited under the officer', async () => {
    const driver = await registerAndSignIn(app);
    await credit(db, driver.memberId, 10_000);
    const plate = newPlate();
    const vehicleId = await addVehicle(app, driver, plate);
    const session = await startSession(app, driver, { zoneId, vehicleId, minutes: 60 });

    const res = await check(officer, {
      zoneId,
      plate: `${plate.slice(0, 3)} ${plate.slice(3).toLowerCase()}`,
      state: 'tx',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<EnforcementAnswer>()).toEqual({
      Paid: true,
      EndsAt: expect.any(String),
      ZoneNumber: 'OC1',
      PlateNumber: plate,
      PlateState: 'TX',
      Right: { Kind: 'session', Id: String(session.SessionId), EndsAt: expect.any(String) },
    });
    // The session's end, the operator's grace minutes included.
    expect(Date.parse(res.json<EnforcementAnswer>().EndsAt!)).toBeGreaterThanOrEqual(Date.parse(session.EndsAt));

    const [row, ...more] = await auditOf(plate);
    expect(more).toEqual([]);
    expect(row).toMatchObject({
      memberId: officer.memberId,
      keyId: null,
      keyPrefix: null,
      operatorId: A,
      zoneNumber: 'OC1',
      plateState: 'TX',
      outcome: 'paid',
      paid: true,
      sessionId: session.SessionId,
    });

    // A session in another state is not this plate's.
    const other = await check(officer, { zoneId, plate, state: 'CA' });
    expect(other.json<EnforcementAnswer>()).toMatchObject({ Paid: false, Right: null });
  });

  it('answers a permit (audited by the policy’s second statement) and no right, for officers, managers and owners', async () => {
    const resident = await registerAndSignIn(app);
    const plate = newPlate();
    const permitId = await permit(resident.memberId, plate);
    const res = await check(manager, { zoneId, plate, state: 'NM' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<EnforcementAnswer>()).toMatchObject({
      Paid: true,
      PlateNumber: plate,
      PlateState: 'NM',
      Right: { Kind: 'permit', Id: String(permitId) },
    });
    expect(await auditOf(plate)).toMatchObject([
      { memberId: manager.memberId, keyId: null, keyPrefix: null, outcome: 'paid', paid: true, sessionId: null },
    ]);

    const nobody = newPlate();
    const none = await check(owner, { zoneId: String(zoneId), plate: nobody, state: 'TX' });
    expect(none.statusCode, none.body).toBe(200);
    expect(none.json<EnforcementAnswer>()).toEqual({
      Paid: false,
      EndsAt: null,
      ZoneNumber: 'OC1',
      PlateNumber: nobody,
      PlateState: 'TX',
      Right: null,
    });
    expect(await auditOf(nobody)).toMatchObject([
      { memberId: owner.memberId, keyId: null, outcome: 'not_paid', paid: false, zoneNumber: 'OC1' },
    ]);
  });

  it("answers 404 for another operator's zone or operator and writes no row; 403 for an analyst and a driver", async () => {
    const plate = newPlate();
    const theirs = await check(officer, { zoneId: zoneB, plate, state: 'TX' });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json<{ message: string }>().message).toBe(EM.zoneNotFound);
    expect((await check(officer, { zoneId: 999_999_999, plate, state: 'TX' })).statusCode).toBe(404);
    expect((await check(officer, { zoneId: zoneB, plate, state: 'TX' }, B)).statusCode).toBe(404);
    expect(await auditOf(plate)).toEqual([]);

    expect((await check(analyst, { zoneId, plate, state: 'TX' })).statusCode).toBe(403);
    const driver = await registerAndSignIn(app);
    expect((await check(driver, { zoneId, plate, state: 'TX' })).statusCode).toBe(403);
    expect(await auditOf(plate)).toEqual([]);
  });

  it('answers 400 for a bad zone id, plate or state, and writes no row', async () => {
    const plate = newPlate();
    const field = async (q: Record<string, string | number>) => {
      const res = await check(officer, q);
      expect(res.statusCode, res.body).toBe(400);
      return res.json<{ errors: { field: string }[] }>().errors.map((e) => e.field);
    };
    expect(await field({ zoneId: 'x', plate, state: 'TX' })).toContain('zoneId');
    expect(await field({ plate, state: 'TX' })).toContain('zoneId');
    expect(await field({ zoneId, plate: 'AB;1', state: 'TX' })).toContain('plate');
    expect(await field({ zoneId, state: 'TX' })).toContain('plate');
    // An empty plate is told once that it is required, not also that its characters are wrong.
    const empty = await check(officer, { zoneId, plate: '  ', state: 'TX' });
    expect(empty.json<{ errors: unknown[] }>().errors).toEqual([{ field: 'plate', message: 'plate is required' }]);
    expect(await field({ zoneId, plate, state: 'Texas' })).toContain('state');
    expect(await field({ zoneId, plate })).toContain('state');
    expect(
      await db
        .select()
        .from(enforcementChecks)
        .where(and(eq(enforcementChecks.plate, plate), eq(enforcementChecks.operatorId, A))),
    ).toEqual([]);
  });
});
