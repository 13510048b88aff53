// The officer's page: the rights of zones downloaded for offline checks (from enforcement/rights.ts),
// a citation written offline and sent later (ObservedAt, Idempotency-Key), digital chalking and its
// retention; another operator's ids are 404, a driver's token 403.
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  ENFORCEMENT_MESSAGES as EM,
  CITATION_MESSAGES as M,
  type ChalkAnswer,
  type Citation,
  type CitationFile,
  type RightsDownload,
  type Violation,
} from '@parkit/contract';
import { type z } from 'zod';
import { queryRows } from '../../../src/db/client.ts';
import { anonymiseChalksBefore } from '../../../src/enforcement/index.ts';
import { insertZones } from '../../../src/zones/zone-repository.ts';
import { concurrently, count, statusCounts } from '../../concurrency.ts';
import { as, registerAndSignIn, type SignedIn } from '../../helpers.ts';
import { twoOperators } from '../../operator-helpers.ts';
import { addVehicle, addZone, CENTRE, credit, startSession, zoneAt } from '../../parking-helpers.ts';
import { multipart, PNG } from '../../support-helpers.ts';

const {
  app,
  db,
  A,
  B,
  ownerB,
  staff: { manager, officer, analyst },
} = await twoOperators('Other Officer Parking', ['manager', 'officer', 'analyst']);
const zoneId = await addZone(db, 'OF1');
const otherZone = await addZone(db, 'OF2');
await insertZones(db, B, [zoneAt('OFB', 'B street', CENTRE)]);
const [bZone] = await queryRows<{ id: number }>(db, sql`select id from zones where operator_id = ${B} limit 1`);
const zoneB = Number(bZone!.id);

let plates = 0;
const newPlate = () => `OF${process.pid % 100}Y${++plates}`;
const get = (who: SignedIn, url: string) => as(app, who, { method: 'GET', url });
const post = (who: SignedIn, url: string, payload: object, headers: Record<string, string> = {}) =>
  as(app, who, { method: 'POST', url, payload, headers });

async function driverWithPlate() {
  const driver = await registerAndSignIn(app);
  await credit(db, driver.memberId, 10_000);
  const plate = newPlate();
  return { driver, plate, vehicleId: await addVehicle(app, driver, plate) };
}

/** An active resident permit of operator A for the plate in the zone, and a visitor day given by it today. */
async function permitWithVisitorDay(member: number, plate: string, visitor: string) {
  const [type] = await queryRows<{ id: number }>(
    db,
    sql`insert into permit_types (operator_id, kind, name, zone_ids, valid_months, price_cents, visitor_days_per_month)
        values (${A}, 'resident', 'Residents', array[${zoneId}]::int[], 12, 0, 5) returning id`,
  );
  const [permit] = await queryRows<{ id: number }>(
    db,
    sql`insert into permits (operator_id, type_id, member_id, plates, zone_ids, status, price_cents, valid_from, valid_until)
        values (${A}, ${type!.id}, ${member}, array[${plate}]::text[], array[${zoneId}]::int[], 'active', 0,
                now() - interval '1 day', now() + interval '30 days') returning id`,
  );
  await db.execute(
    sql`insert into visitor_days (operator_id, permit_id, member_id, plate, day)
        values (${A}, ${permit!.id}, ${member}, ${visitor}, (now() at time zone 'America/Chicago')::date)`,
  );
  return Number(permit!.id);
}

describe('the rights download', () => {
  it("lists a zone's paid sessions, permits and visitor days with their ends, for officers, managers and owners", async () => {
    const paid = await driverWithPlate();
    const session = await startSession(app, paid.driver, { zoneId, vehicleId: paid.vehicleId, minutes: 60 });
    const resident = await registerAndSignIn(app);
    const residentPlate = newPlate();
    const visitorPlate = newPlate();
    const permitId = await permitWithVisitorDay(resident.memberId, residentPlate, visitorPlate);

    const res = await get(officer, `/api/Operator/${A}/Rights?zones=${zoneId}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<RightsDownload>();
    expect(body.Zones.map((z) => z.ZoneId)).toEqual([zoneId]);
    expect(body.Zones[0]!.MaxStayMinutes).toBe(120);
    const byPlate = new Map(body.Rights.map((r) => [r.PlateNumber, r]));
    expect(byPlate.get(paid.plate)).toMatchObject({
      Kind: 'session',
      Id: String(session.SessionId),
      PlateState: 'TX',
      EndsAt: new Date(session.EndsAt).toISOString(),
    });
    expect(byPlate.get(residentPlate)).toMatchObject({ Kind: 'permit', Id: String(permitId), PlateState: null });
    expect(byPlate.get(visitorPlate)).toMatchObject({ Kind: 'visitor-day' });
    expect(new Date(byPlate.get(visitorPlate)!.EndsAt!).getTime()).toBeGreaterThan(Date.now());

    // The other zone holds none of them; all zones of the operator hold both.
    const other = (await get(manager, `/api/Operator/${A}/Rights?zones=${otherZone}`)).json<RightsDownload>();
    expect(other.Rights.filter((r) => r.PlateNumber === paid.plate)).toEqual([]);
    const all = await get(manager, `/api/Operator/${A}/Rights`);
    expect(all.statusCode).toBe(200);
    expect(all.json<RightsDownload>().Zones.map((z) => z.ZoneId)).toEqual(expect.arrayContaining([zoneId, otherZone]));
    expect(all.json<RightsDownload>().Zones.map((z) => z.ZoneId)).not.toContain(zoneB);
  });

  it("answers 404 for another operator's zone or operator, 403 for a driver and an analyst, 400 for a bad list", async () => {
    expect((await get(officer, `/api/Operator/${A}/Rights?zones=${zoneB}`)).statusCode).toBe(404);
    expect((await get(officer, `/api/Operator/${A}/Rights?zones=${zoneId},${zoneB}`)).statusCode).toBe(404);
    expect((await get(officer, `/api/Operator/${B}/Rights`)).statusCode).toBe(404);
    expect((await get(ownerB, `/api/Operator/${B}/Rights?zones=${zoneId}`)).statusCode).toBe(404);
    const driver = await registerAndSignIn(app);
    expect((await get(driver, `/api/Operator/${A}/Rights`)).statusCode).toBe(403);
    expect((await get(analyst, `/api/Operator/${A}/Rights`)).statusCode).toBe(403);
    const bad = await get(officer, `/api/Operator/${A}/Rights?zones=1;drop`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ errors: { message: string }[] }>().errors[0]!.message).toBe(EM.zonesFormat);
  });
});

async function violation(): Promise<Violation> {
  const res = await post(manager, `/api/Operator/${A}/Violations`, {
    Code: `O${plates}${Date.now() % 100000}`,
    Description: 'Parked without paying',
    Fine: '25.00',
    DueDays: 14,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Violation>();
}

async function photo(): Promise<string> {
  const body = multipart(PNG, 'car.png', { type: 'image/png' });
  const res = await as(app, officer, { method: 'POST', url: `/api/Operator/${A}/Citations/Photos`, ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<CitationFile>().FileId;
}

describe('a citation written offline', () => {
  it('stands at the moment seen; the same Idempotency-Key sent again answers it once', async () => {
    const v = await violation();
    const plate = newPlate();
    const seen = new Date(Date.now() - 20 * 60_000).toISOString();
    const body = {
      ZoneId: zoneId,
      PlateNumber: plate,
      PlateState: 'TX',
      ViolationId: v.ViolationId,
      PhotoIds: [await photo()],
      ObservedAt: seen,
    };
    const key = { 'idempotency-key': `offline-${plate}` };
    const first = await post(officer, `/api/Operator/${A}/Citations`, body, key);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json<Citation>().IssuedAt).toBe(seen);
    const again = await post(officer, `/api/Operator/${A}/Citations`, body, key);
    expect(again.statusCode, again.body).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json<Citation>().CitationId).toBe(first.json<Citation>().CitationId);
    expect(await count(db, sql`select count(*) as n from citations where plate = ${plate}`)).toBe(1);
    // The same key with another body is refused.
    expect(
      (await post(officer, `/api/Operator/${A}/Citations`, { ...body, Location: 'elsewhere' }, key)).statusCode,
    ).toBe(422);
  });

  it('is refused in the future or more than 24 hours ago, and writes nothing', async () => {
    const v = await violation();
    const plate = newPlate();
    for (const [at, message] of [
      [new Date(Date.now() + 10 * 60_000), EM.observedInFuture],
      [new Date(Date.now() - 25 * 3_600_000), EM.observedTooOld],
    ] as const) {
      const res = await post(officer, `/api/Operator/${A}/Citations`, {
        ZoneId: zoneId,
        PlateNumber: plate,
        PlateState: 'TX',
        ViolationId: v.ViolationId,
        PhotoIds: [await photo()],
        ObservedAt: at.toISOString(),
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json<{ errors: { field: string; message: string }[] }>().errors[0]).toEqual({
        field: 'ObservedAt',
        message,
      });
    }
    expect(await count(db, sql`select count(*) as n from citations where plate = ${plate}`)).toBe(0);
  });

  it('is refused (409) when a session covered the moment seen, even though it has ended since', async () => {
    const { driver, plate, vehicleId } = await driverWithPlate();
    const v = await violation();
    const s = await startSession(app, driver, { zoneId, vehicleId, minutes: 30 });
    // The session ran from 50 to 20 minutes ago and the expiry job has ended it.
    await db.execute(
      sql`update parking_sessions set started_at = now() - interval '50 minutes', ends_at = now() - interval '20 minutes',
          status = 'ended', ended_at = now() - interval '20 minutes' where id = ${s.SessionId}`,
    );
    const cite = async (minutesAgo: number) =>
      post(officer, `/api/Operator/${A}/Citations`, {
        ZoneId: zoneId,
        PlateNumber: plate,
        PlateState: 'TX',
        ViolationId: v.ViolationId,
        PhotoIds: [await photo()],
        ObservedAt: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
      });
    const covered = await cite(30);
    expect(covered.statusCode, covered.body).toBe(409);
    expect(covered.json<{ message: string }>().message).toBe(M.rightCovers);
    expect((await cite(10)).statusCode).toBe(201);
  });
});

describe('chalking', () => {
  it('records the first sighting once; a later check says how long against the maximum stay', async () => {
    const plate = newPlate();
    const url = `/api/Operator/${A}/Chalks`;
    const first = await post(officer, url, { ZoneId: zoneId, PlateNumber: plate.toLowerCase(), PlateState: 'TX' });
    expect(first.statusCode, first.body).toBe(201);
    const chalk = first.json<z.infer<typeof ChalkAnswer>>().Chalk!;
    expect(chalk).toMatchObject({ PlateNumber: plate, MinutesParked: 0, MaxStayMinutes: 120, Overstayed: false });
    const again = await post(manager, url, { ZoneId: zoneId, PlateNumber: plate, PlateState: 'TX' });
    expect(again.statusCode).toBe(200);
    expect(again.json<z.infer<typeof ChalkAnswer>>().Chalk!.ChalkId).toBe(chalk.ChalkId);

    await db.execute(sql`update chalks set first_seen_at = now() - interval '130 minutes' where id = ${chalk.ChalkId}`);
    const later = await get(officer, `${url}?zoneId=${zoneId}&plate=${plate}`);
    expect(later.statusCode, later.body).toBe(200);
    expect(later.json<z.infer<typeof ChalkAnswer>>().Chalk).toMatchObject({ MinutesParked: 130, Overstayed: true });
    expect((await get(officer, `${url}?zoneId=${otherZone}&plate=${plate}`)).json()).toEqual({ Chalk: null });
  });

  it("answers 404 for another operator's zone and 403 for a driver", async () => {
    const plate = newPlate();
    expect(
      (await post(officer, `/api/Operator/${A}/Chalks`, { ZoneId: zoneB, PlateNumber: plate, PlateState: 'TX' }))
        .statusCode,
    ).toBe(404);
    expect((await get(officer, `/api/Operator/${A}/Chalks?zoneId=${zoneB}&plate=${plate}`)).statusCode).toBe(404);
    expect(
      (await post(ownerB, `/api/Operator/${B}/Chalks`, { ZoneId: zoneId, PlateNumber: plate, PlateState: 'TX' }))
        .statusCode,
    ).toBe(404);
    const driver = await registerAndSignIn(app);
    expect(
      (await post(driver, `/api/Operator/${A}/Chalks`, { ZoneId: zoneId, PlateNumber: plate, PlateState: 'TX' }))
        .statusCode,
    ).toBe(403);
  });

  it('a chalk recorded offline stands at the moment seen, within a minute ahead and 24 hours back', async () => {
    const url = `/api/Operator/${A}/Chalks`;
    const plate = newPlate();
    for (const [at, message] of [
      [new Date(Date.now() + 10 * 60_000), EM.observedInFuture],
      [new Date(Date.now() - 25 * 3_600_000), EM.chalkTooOld],
    ] as const) {
      const res = await post(officer, url, {
        ZoneId: zoneId,
        PlateNumber: plate,
        PlateState: 'TX',
        ObservedAt: at.toISOString(),
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json<{ errors: { field: string; message: string }[] }>().errors[0]).toEqual({
        field: 'ObservedAt',
        message,
      });
    }
    expect(await count(db, sql`select count(*) as n from chalks where plate = ${plate}`)).toBe(0);

    const seen = new Date(Date.now() - 40 * 60_000).toISOString();
    const res = await post(officer, url, { ZoneId: zoneId, PlateNumber: plate, PlateState: 'TX', ObservedAt: seen });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json<z.infer<typeof ChalkAnswer>>().Chalk).toMatchObject({ FirstSeenAt: seen, MinutesParked: 40 });
    // A sighting sent later that was seen earlier is the first one: the chalk moves back to it.
    const earlier = new Date(Date.now() - 3 * 3_600_000).toISOString();
    const back = await post(manager, url, {
      ZoneId: zoneId,
      PlateNumber: plate,
      PlateState: 'TX',
      ObservedAt: earlier,
    });
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json<z.infer<typeof ChalkAnswer>>().Chalk).toMatchObject({
      ChalkId: res.json<z.infer<typeof ChalkAnswer>>().Chalk!.ChalkId,
      FirstSeenAt: earlier,
      MinutesParked: 180,
      Overstayed: true,
    });
    // A later sighting changes nothing; a moment a few seconds ahead of the server's clock counts as now.
    const ahead = new Date(Date.now() + 20_000).toISOString();
    const later = await post(officer, url, { ZoneId: zoneId, PlateNumber: plate, PlateState: 'TX', ObservedAt: ahead });
    expect(later.json<z.infer<typeof ChalkAnswer>>().Chalk!.FirstSeenAt).toBe(earlier);
    const fresh = newPlate();
    const now = await post(officer, url, { ZoneId: zoneId, PlateNumber: fresh, PlateState: 'TX', ObservedAt: ahead });
    expect(now.statusCode, now.body).toBe(201);
    expect(Date.parse(now.json<z.infer<typeof ChalkAnswer>>().Chalk!.FirstSeenAt)).toBeLessThan(Date.parse(ahead));
    expect(await count(db, sql`select count(*) as n from chalks where plate in (${plate}, ${fresh})`)).toBe(2);

    // The rights download carries the zone's chalks for the offline check.
    const download = (await get(officer, `/api/Operator/${A}/Rights?zones=${zoneId}`)).json<RightsDownload>();
    expect(download.Chalks.find((c) => c.PlateNumber === plate)).toEqual({
      ZoneId: zoneId,
      PlateNumber: plate,
      PlateState: 'TX',
      FirstSeenAt: earlier,
    });
    const other = (await get(officer, `/api/Operator/${A}/Rights?zones=${otherZone}`)).json<RightsDownload>();
    expect(other.Chalks.filter((c) => c.PlateNumber === plate)).toEqual([]);
  });

  it('a resend with the same Idempotency-Key answers the first chalk; another operator’s zone is 404', async () => {
    const url = `/api/Operator/${A}/Chalks`;
    const plate = newPlate();
    const body = {
      ZoneId: zoneId,
      PlateNumber: plate,
      PlateState: 'TX',
      ObservedAt: new Date(Date.now() - 5 * 60_000).toISOString(),
    };
    const key = { 'idempotency-key': `chalk-${plate}` };
    const first = await post(officer, url, body, key);
    expect(first.statusCode, first.body).toBe(201);
    const again = await post(officer, url, body, key);
    expect(again.statusCode, again.body).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(await count(db, sql`select count(*) as n from chalks where plate = ${plate}`)).toBe(1);
    expect((await post(officer, url, { ...body, PlateState: 'OK' }, key)).statusCode).toBe(422);

    const elsewhere = { ...body, ZoneId: zoneB, PlateNumber: newPlate() };
    const res = await post(officer, url, elsewhere, { 'idempotency-key': `chalk-b-${plate}` });
    expect(res.statusCode, res.body).toBe(404);
    expect(res.json<{ message: string }>().message).toBe(EM.zoneNotFound);
    expect(await count(db, sql`select count(*) as n from chalks where plate = ${elsewhere.PlateNumber}`)).toBe(0);
  });

  it('two sends of one chalk at once with one Idempotency-Key make one chalk; another body under the key at once is refused', async () => {
    const url = `/api/Operator/${A}/Chalks`;
    const plate = newPlate();
    const body = { ZoneId: zoneId, PlateNumber: plate, PlateState: 'TX' };
    const key = { 'idempotency-key': `chalk-race-${plate}` };
    // The same send twice at once (a sync that retried while its first try was still running).
    const same = await concurrently(2, () => post(officer, url, body, key));
    const ok = same.filter((r) => r.statusCode === 201);
    expect(ok.length, same.map((r) => `${r.statusCode} ${r.body}`).join('\n')).toBeGreaterThanOrEqual(1);
    // A request still holding the key is a 409 to the other (retry later), never a second chalk.
    expect(same.every((r) => r.statusCode === 201 || r.statusCode === 409)).toBe(true);
    expect(new Set(ok.map((r) => r.json<z.infer<typeof ChalkAnswer>>().Chalk!.ChalkId)).size).toBe(1);
    expect(await count(db, sql`select count(*) as n from chalks where plate = ${plate}`)).toBe(1);

    // Two bodies under one new key at once: one is the key's; the other is refused (422, or 409
    // while the first still holds it) and writes nothing.
    const other = newPlate();
    const key2 = { 'idempotency-key': `chalk-race-2-${other}` };
    const mixed = await concurrently(2, (i) =>
      post(officer, url, { ZoneId: zoneId, PlateNumber: other, PlateState: i === 0 ? 'TX' : 'OK' }, key2),
    );
    expect(statusCounts(mixed)[201], mixed.map((r) => `${r.statusCode} ${r.body}`).join('\n')).toBe(1);
    expect(mixed.every((r) => [201, 409, 422].includes(r.statusCode))).toBe(true);
    expect(await count(db, sql`select count(*) as n from chalks where plate = ${other}`)).toBe(1);
  });

  it("retention: anonymiseChalksBefore empties the plates of the operator's chalks before the cutoff, once", async () => {
    const old = newPlate();
    const fresh = newPlate();
    for (const plate of [old, fresh])
      expect(
        (await post(officer, `/api/Operator/${A}/Chalks`, { ZoneId: zoneId, PlateNumber: plate, PlateState: 'TX' }))
          .statusCode,
      ).toBe(201);
    await db.execute(sql`update chalks set first_seen_at = now() - interval '100 days' where plate = ${old}`);
    await post(ownerB, `/api/Operator/${B}/Chalks`, { ZoneId: zoneB, PlateNumber: old, PlateState: 'TX' });
    await db.execute(sql`update chalks set first_seen_at = now() - interval '100 days' where operator_id = ${B}`);
    const cutoff = new Date(Date.now() - 91 * 86_400_000);
    expect(await anonymiseChalksBefore(db, A, cutoff)).toBeGreaterThanOrEqual(1);
    expect(await count(db, sql`select count(*) as n from chalks where operator_id = ${A} and plate = ${old}`)).toBe(0);
    expect(await count(db, sql`select count(*) as n from chalks where plate = ${fresh}`)).toBe(1);
    expect(await count(db, sql`select count(*) as n from chalks where operator_id = ${B} and plate = ${old}`)).toBe(1);
    expect(await anonymiseChalksBefore(db, A, cutoff)).toBe(0);
  });
});
