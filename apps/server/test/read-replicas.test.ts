import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { AccountDetails, SessionsPage, Zone } from '@parkit/contract';
import { openDatabase, queryRows, type Db } from '../src/db/client.ts';
import { as, buildTestApp, registerAndSignIn } from './helpers.ts';
import { addVehicle, addZone, credit, startSession } from './parking-helpers.ts';
import { testPostgres } from './support/test-database.ts';

// docs/data-access.md#reads-on-replicas: with DATABASE_READ_URL set, the reads that tolerate lag
// go to the replicas and everything else stays on the primary. The "replica" here is a copy of
// the primary taken at one moment (CREATE DATABASE … TEMPLATE), so it is behind by whatever the
// primary did after: each route shows which of the two it read.
/** The primary with a parked member, its copy taken then, and what the primary did after. */
async function setUp() {
  const primary = await testPostgres('parkit_t');

  // Before the copy: a member who parked once, in zone RR1.
  const before = await buildTestApp({}, { database: await openDatabase({ url: primary.url, poolSize: 2 }) });
  const zoneId = await addZone(before.database.db, 'RR1', { name: 'Replica Row One' });
  const driver = await registerAndSignIn(before.app);
  const vehicleId = await addVehicle(before.app, driver);
  await credit(before.database.db, driver.memberId, 5000);
  const first = await startSession(before.app, driver, { zoneId, vehicleId, minutes: 60 });
  expect(
    (
      await as(before.app, driver, {
        method: 'POST',
        url: '/api/Parking/Stop',
        payload: { SessionId: first.SessionId },
      })
    ).statusCode,
  ).toBe(200);
  await before.app.close();

  const replica = await testPostgres('parkit_t', primary.name);
  const { app, database } = await buildTestApp(
    {},
    { database: await openDatabase({ url: primary.url, readUrl: replica.url, poolSize: 2 }) },
  );

  // After the copy, on the primary only: a second session, stopped, and the zone renamed.
  const second = await startSession(app, driver, { zoneId, vehicleId, minutes: 30 });
  expect(
    (await as(app, driver, { method: 'POST', url: '/api/Parking/Stop', payload: { SessionId: second.SessionId } }))
      .statusCode,
  ).toBe(200);
  await database.db.execute(sql`UPDATE zones SET name = 'Renamed On Primary' WHERE id = ${zoneId}`);

  return { primary, replica, app, database, driver, zoneId, vehicleId, first, second };
}

describe.runIf(process.env.TEST_DB === 'postgres')('reads on replicas (DATABASE_READ_URL)', () => {
  let t: Awaited<ReturnType<typeof setUp>>;
  beforeAll(async () => {
    t = await setUp();
  });
  afterAll(async () => {
    await t.app.close();
    await t.primary.drop();
    await t.replica.drop();
  });

  it('the history list and its CSV come from the replica (it has the first session, not the second)', async () => {
    const { app, driver, first, second } = t;
    const page = await as(app, driver, { method: 'GET', url: '/api/Parking/Sessions' });
    expect(page.statusCode).toBe(200);
    expect(page.json<SessionsPage>().Sessions.map((s) => s.SessionId)).toEqual([first.SessionId]);
    const csv = await as(app, driver, { method: 'GET', url: '/api/Parking/Sessions.csv' });
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain(`\n${first.SessionId},`);
    expect(csv.body).not.toContain(`\n${second.SessionId},`);
  });

  it('a receipt the replica has not seen is read on the primary', async () => {
    const { app, driver, first, second } = t;
    for (const id of [first.SessionId, second.SessionId]) {
      const pdf = await as(app, driver, { method: 'GET', url: `/api/Parking/Session/${id}/Receipt.pdf` });
      expect(pdf.statusCode).toBe(200);
      expect(pdf.headers['content-type']).toBe('application/pdf');
    }
  });

  it('zone search reads the replica: the old name finds the zone, the primary’s new one does not', async () => {
    const { app, zoneId } = t;
    const search = async (q: string) =>
      (await app.inject({ method: 'GET', url: `/api/Parking/Zones/Search?q=${encodeURIComponent(q)}` })).json<Zone[]>();
    expect((await search('Replica Row One')).map((z) => z.ZoneId)).toContain(zoneId);
    expect((await search('Renamed On Primary')).map((z) => z.ZoneId)).not.toContain(zoneId);
  });

  it('money stays on the primary: the balance is the primary’s, and a Start writes there', async () => {
    const { app, database, driver, zoneId, vehicleId } = t;
    const balanceOn = async (db: Db) =>
      (
        await queryRows<{ cents: number }>(
          db,
          sql`SELECT balance_cents AS cents FROM members WHERE id = ${driver.memberId}`,
        )
      )[0]!.cents;
    const [onPrimary, onReplica] = [await balanceOn(database.db), await balanceOn(database.reads)];
    // The second session's fee was paid after the copy: the two balances differ.
    expect(onPrimary).toBeLessThan(onReplica);
    const details = await as(app, driver, { method: 'GET', url: '/api/Account/Details' });
    expect(details.statusCode).toBe(200);
    expect(Math.round(details.json<AccountDetails>().Balance * 100)).toBe(onPrimary);
    const third = await startSession(app, driver, { zoneId, vehicleId, minutes: 30 });
    const seen = (db: Db) => queryRows(db, sql`SELECT 1 FROM parking_sessions WHERE id = ${third.SessionId}`);
    expect(await seen(database.db)).toHaveLength(1);
    expect(await seen(database.reads)).toHaveLength(0);
  });
});
