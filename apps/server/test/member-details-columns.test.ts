import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { applyMigrations, queryRows, type Db } from '../src/db/client.ts';
import { insertOperatorRow } from './operator-helpers.ts';
import { defaultOperatorId } from '../src/zones/operator-repository.ts';
import { concurrently, statusCounts } from './concurrency.ts';
import { as, buildTestApp, freshDatabase, MANY_REQUESTS, registerAndSignIn, type SignedIn } from './helpers.ts';
import { migrationsUpTo } from './support/migrations.ts';
import { addCard, details } from './wallet/helpers.ts';

// GET /api/Account/Details reads one row by its key. The vehicle count, the wallet
// settings, the default card and the active plan are kept on the member's row by triggers
// (migration 0020). Whatever writes those tables (the API, SQL, writers at once), the kept columns
// equal what the tables say. Both databases; the concurrent writes race on PostgreSQL.

/** Members whose kept columns differ from what their tables say, with both sides: [] when all agree. */
async function disagreements(db: Db) {
  return queryRows<{ id: number; kept: string; computed: string }>(
    db,
    sql`select id, kept, computed from (
          select m.id,
            row(m.vehicle_count, m.wallet_auto_reload, m.wallet_default_add_amount_cents, m.default_card_id, m.default_card_brand, m.default_card_last4, m.active_plan_id)::text as kept,
            row((select count(*)::int from vehicles v where v.member_id = m.id),
                (select w.auto_reload from wallet_settings w where w.member_id = m.id),
                (select w.default_add_amount_cents from wallet_settings w where w.member_id = m.id),
                (select p.id from payment_methods p where p.member_id = m.id and p.is_default),
                (select p.brand from payment_methods p where p.member_id = m.id and p.is_default),
                (select p.last4 from payment_methods p where p.member_id = m.id and p.is_default),
                (select s.plan_id from subscriptions s where s.member_id = m.id and s.status = 'active'))::text as computed
          from members m) x
        where kept is distinct from computed order by id`,
  );
}

const kept = async (db: Db, memberId: number) =>
  (
    await queryRows<{ kept: string }>(
      db,
      sql`select row(vehicle_count, wallet_auto_reload, wallet_default_add_amount_cents, default_card_id, default_card_brand, default_card_last4, active_plan_id)::text as kept from members where id = ${memberId}`,
    )
  )[0]!.kept;

/** A member, one of its vehicles, cards, settings or plan, written in SQL as psql or a job would. */
const sqlMember = (db: Db, operatorId: number, name: string) =>
  queryRows<{ id: number }>(
    db,
    sql`insert into members (client_id, user_name, email, phone, password_hash)
        values (${operatorId}, ${name}, ${`${name}@example.test`}, ${`+1512${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`}, 'x') returning id`,
  ).then((r) => r[0]!.id);
const vehicleValues = (memberId: number, plate: string) =>
  sql`(${memberId}, (select min(id) from vehicle_makes), (select min(id) from vehicle_models), ${plate}, 'TX', (select min(id) from vehicle_colors), 2020)`;
const insertVehicles = (db: Db, rows: [number, string][]) =>
  db.execute(
    sql`insert into vehicles (member_id, make_id, model_id, plate, plate_state, color_id, year) values ${sql.join(
      rows.map(([m, p]) => vehicleValues(m, p)),
      sql`, `,
    )}`,
  );
const insertCard = (db: Db, memberId: number, ref: string, last4: string, isDefault: boolean) =>
  queryRows<{ id: number }>(
    db,
    sql`insert into payment_methods (member_id, provider, provider_ref, brand, last4, exp_month, exp_year, is_default)
        values (${memberId}, 'sandbox', ${ref}, 'Visa', ${last4}, 12, 2031, ${isDefault}) returning id`,
  ).then((r) => r[0]!.id);
const DELUXE = 2;

// A database as the release before 0020 left it, and the app on a database of its own.
const earlier = await freshDatabase({ migrationsFolder: migrationsUpTo('0019_zone_mercator') });
afterAll(() => earlier.close());
const { app, database } = await buildTestApp(MANY_REQUESTS);
const { db } = database;
const operatorId = await defaultOperatorId(db);

describe('the migration that adds the kept columns (0020)', () => {
  it('fills them from the tables for the members that exist before it', async () => {
    const { db } = earlier;
    const operatorId = await insertOperatorRow(db, 'Austin Parking (demo)');
    const [a, b, c] = [
      await sqlMember(db, operatorId, 'mig-a'),
      await sqlMember(db, operatorId, 'mig-b'),
      await sqlMember(db, operatorId, 'mig-c'),
    ];
    await insertVehicles(db, [
      [a, 'MIG 1'],
      [a, 'MIG 2'],
      [b, 'MIG 3'],
    ]);
    await insertCard(db, a, 'ref-a1', '1111', false);
    const aDefault = await insertCard(db, a, 'ref-a2', '2222', true);
    await insertCard(db, b, 'ref-b1', '3333', false);
    await db.execute(
      sql`insert into wallet_settings (member_id, auto_reload, default_add_amount_cents) values (${a}, true, 2500)`,
    );
    await db.execute(
      sql`insert into subscriptions (member_id, plan_id, status, current_period_start, current_period_end)
          values (${b}, ${DELUXE}, 'active', now(), now() + interval '1 month'), (${a}, ${DELUXE}, 'ended', now(), now())`,
    );

    await applyMigrations(earlier);

    expect(await kept(db, a)).toBe(`(2,t,2500,${aDefault},Visa,2222,)`);
    expect(await kept(db, b)).toBe(`(1,,,,,,${DELUXE})`);
    expect(await kept(db, c)).toBe('(0,,,,,,)');
    expect(await disagreements(db)).toEqual([]);
  });
});

describe('the kept columns of GET /api/Account/Details', () => {
  const addVehicle = (who: SignedIn, PlateNumber: string) =>
    as(app, who, {
      method: 'POST',
      url: '/api/Vehicle/Add',
      payload: {
        VehicleMake: 'TOYOTA',
        VehicleModel: 'CAMRY',
        PlateNumber,
        PlateState: 'TX',
        VehicleColor: 'SILVER',
        VehicleYear: '2020',
      },
    });

  it('follow the API: vehicles added and deleted, cards, the default switched and deleted, settings, a plan', async () => {
    const alice = await registerAndSignIn(app);
    expect(await details(app, alice)).toMatchObject({
      VehicleCount: 0,
      DefaultCard: null,
      AutoReload: false,
      DefaultAddAmount: 20,
      Plan: { Code: 'basic' },
    });
    const ids: number[] = [];
    for (const plate of ['KPT 1', 'KPT 2', 'KPT 3'])
      ids.push((await addVehicle(alice, plate)).json<{ VehicleID: number }>().VehicleID);
    expect(
      (await as(app, alice, { method: 'POST', url: '/api/Vehicle/Delete', payload: { VehicleId: ids[1] } })).statusCode,
    ).toBe(200);
    const first = await addCard(app, alice);
    const second = await addCard(app, alice, undefined, true);
    expect(await details(app, alice)).toMatchObject({
      VehicleCount: 2,
      DefaultCard: { PaymentMethodId: second, Last4: '4242' },
    });
    expect(
      (
        await as(app, alice, {
          method: 'POST',
          url: '/api/PaymentMethods/Delete',
          payload: { PaymentMethodId: second },
        })
      ).statusCode,
    ).toBe(200);
    expect((await details(app, alice)).DefaultCard).toBeNull();
    expect(
      (
        await as(app, alice, {
          method: 'POST',
          url: '/api/PaymentMethods/SetDefault',
          payload: { PaymentMethodId: first },
        })
      ).statusCode,
    ).toBe(200);
    const reload = await as(app, alice, {
      method: 'POST',
      url: '/api/Account/AutoReload',
      payload: { AutoReload: true, DefaultAddAmount: '25.00', MinBalance: 10 },
    });
    expect(reload.statusCode).toBe(200);
    const sub = await as(app, alice, {
      method: 'POST',
      url: '/api/Subscription/Subscribe',
      payload: { PlanId: DELUXE },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(sub.statusCode).toBe(200);
    expect(await details(app, alice)).toMatchObject({
      VehicleCount: 2,
      DefaultCard: { PaymentMethodId: first, Brand: 'Visa', Last4: '4242' },
      AutoReload: true,
      DefaultAddAmount: 25,
      Plan: { Code: 'deluxe' },
    });
    expect((await as(app, alice, { method: 'POST', url: '/api/Subscription/Cancel' })).statusCode).toBe(200);
    expect(await disagreements(db)).toEqual([]);
  });

  it('follow writes made in SQL: one statement for several members, a vehicle moved, a card, settings and a plan ended', async () => {
    const [a, b] = [await sqlMember(db, operatorId, 'sql-a'), await sqlMember(db, operatorId, 'sql-b')];
    await insertVehicles(db, [
      [a, 'SQL 1'],
      [a, 'SQL 2'],
      [b, 'SQL 3'],
      [a, 'SQL 4'],
    ]);
    expect(await kept(db, a)).toMatch(/^\(3,/);
    await db.execute(sql`update vehicles set member_id = ${b} where member_id = ${a} and plate = 'SQL 4'`);
    await db.execute(sql`update vehicles set year = 2021 where member_id = ${b}`); // no member change
    expect([await kept(db, a), await kept(db, b)]).toEqual(['(2,,,,,,)', '(2,,,,,,)']);
    const one = await insertCard(db, a, 'sql-ref-1', '1234', true);
    await db.execute(sql`update payment_methods set is_default = false where id = ${one}`);
    const two = await insertCard(db, a, 'sql-ref-2', '5678', true);
    await db.execute(sql`update payment_methods set member_id = ${b} where id = ${two}`);
    await db.execute(
      sql`insert into wallet_settings (member_id, auto_reload, default_add_amount_cents) values (${a}, true, 3000)`,
    );
    await db.execute(sql`update wallet_settings set reload_due_at = now() where member_id = ${a}`);
    await db.execute(
      sql`insert into subscriptions (member_id, plan_id, status, current_period_start, current_period_end) values (${b}, ${DELUXE}, 'active', now(), now() + interval '1 month')`,
    );
    expect([await kept(db, a), await kept(db, b)]).toEqual(['(2,t,3000,,,,)', `(2,,,${two},Visa,5678,${DELUXE})`]);
    await db.execute(sql`update subscriptions set status = 'ended' where member_id = ${b}`);
    await db.execute(sql`delete from wallet_settings where member_id = ${a}`);
    await db.execute(sql`delete from vehicles where member_id in (${a}, ${b})`);
    await db.execute(sql`delete from payment_methods where member_id = ${b}`);
    expect([await kept(db, a), await kept(db, b)]).toEqual(['(0,,,,,,)', '(0,,,,,,)']);
    expect(await disagreements(db)).toEqual([]);
  });

  it('follow writers at once: vehicles added and deleted by many requests and many SQL statements for one member', async () => {
    const bob = await registerAndSignIn(app);
    const added = await concurrently(14, (i) => addVehicle(bob, `RACE ${i}`));
    // The API's own limit (10 vehicles) holds; the count follows what was stored.
    expect(statusCounts(added)).toEqual({ 201: 10, 409: 4 });
    const stored = added.filter((r) => r.statusCode === 201).map((r) => r.json<{ VehicleID: number }>().VehicleID);
    await concurrently(stored.length, (i) =>
      as(app, bob, { method: 'POST', url: '/api/Vehicle/Delete', payload: { VehicleId: stored[i] } }),
    );
    expect((await details(app, bob)).VehicleCount).toBe(0);

    // Without the app's member lock: each statement in its own transaction, up to the pool's size at once.
    await concurrently(40, (i) => insertVehicles(db, [[bob.memberId, `SQLRACE ${i}`]]));
    await concurrently(15, (i) =>
      db.execute(sql`delete from vehicles where member_id = ${bob.memberId} and plate = ${`SQLRACE ${i}`}`),
    );
    expect((await details(app, bob)).VehicleCount).toBe(25);
    expect(await disagreements(db)).toEqual([]);
  });

  it('follow cards saved at once, each asking to be the default', async () => {
    const carol = await registerAndSignIn(app);
    const saved = await concurrently(5, () =>
      addCard(app, carol, undefined, true).then(String, (err: Error) => err.message),
    );
    expect(saved.filter((s) => /^\d+$/.test(s)).length).toBeGreaterThan(0);
    const card = (await details(app, carol)).DefaultCard;
    expect(card).not.toBeNull();
    expect(await disagreements(db)).toEqual([]);
  });

  it('leave nothing behind when a member is deleted with everything they have', async () => {
    const dave = await registerAndSignIn(app);
    await addVehicle(dave, 'GONE 1');
    await addCard(app, dave);
    await db.execute(sql`delete from members where id = ${dave.memberId}`);
    expect(await queryRows(db, sql`select 1 from members where id = ${dave.memberId}`)).toEqual([]);
    expect(await disagreements(db)).toEqual([]);
  });
});
