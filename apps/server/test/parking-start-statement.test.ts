// Start's one-statement path (parking/start-statement.ts): it must do exactly what the
// step-by-step path does when everything is in order, and write nothing when anything is not.
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Quote, SessionReceipt } from '@parkit/contract';
import { queryRows } from '../src/db/client.ts';
import { toSessionView } from '../src/parking/session-repository.ts';
import { startInOneStatement } from '../src/parking/start-statement.ts';
import { as, buildTestApp, registerAndSignIn, type SignedIn } from './helpers.ts';
import { addVehicle, addZone, credit, quote, walletState } from './parking-helpers.ts';

const { app, database } = await buildTestApp();
const db = database.db;
const zone = await addZone(db, '7401'); // $2.50/h: 60 minutes = 2.50 + 0.35 fee

const quoteFor = async (who: SignedIn, vehicle: number, minutes = 60) =>
  (await quote(app, who, { ZoneId: zone, VehicleId: vehicle, DurationMinutes: minutes })).json<Quote>().QuoteId;
const run = (who: SignedIn, quoteId: string, confirmed = false) =>
  db.transaction((tx) => startInOneStatement(tx, who.memberId, quoteId, confirmed, `key-${quoteId}`, new Date()));
const used = async (quoteId: string) =>
  (
    await queryRows<{ used: boolean }>(
      db,
      sql`select used_at is not null as used from parking_quotes where id = ${quoteId}`,
    )
  )[0]?.used;

describe('Start in one statement', () => {
  it('claims the quote, opens the session, debits the wallet and writes the ledger, like the step-by-step path', async () => {
    const m = await registerAndSignIn(app);
    await credit(db, m.memberId, 1000);
    const car = await addVehicle(app, m);
    const q = await quoteFor(m, car);
    const done = await run(m, q);
    expect(done).not.toBeNull();
    const [s] = await queryRows<Record<string, unknown>>(
      db,
      sql`select * from parking_sessions where id = ${done!.sessionId}`,
    );
    expect(s).toMatchObject({
      member_id: m.memberId,
      vehicle_id: car,
      zone_id: zone,
      duration_minutes: 60,
      initial_minutes: 60,
      rate_cents: 250,
      parking_cents: 250,
      fee_cents: 35,
      paid_via: 'Wallet',
      status: 'active',
    });
    expect(new Date(s!.ends_at as string).getTime() - new Date(s!.started_at as string).getTime()).toBe(60 * 60_000);
    // The make and model as the vehicle list names them (what the step-by-step path copies).
    const listed = (await as(app, m, { method: 'GET', url: '/api/Vehicle/List' }))
      .json<{ VehicleID: number; VehicleMake: string; VehicleModel: string; PlateNumber: string }[]>()
      .find((v) => v.VehicleID === car)!;
    expect(s).toMatchObject({
      vehicle_make: listed.VehicleMake,
      vehicle_model: listed.VehicleModel,
      plate: listed.PlateNumber,
    });
    expect(await used(q)).toBe(true);
    const w = await walletState(db, m.memberId);
    expect(w.balance).toBe(1000 - 285);
    expect(w.ledger).toBe(w.balance);
    const [entry] = await queryRows<{ reference: string; idempotency_key: string; balance_after_cents: number }>(
      db,
      sql`select reference, idempotency_key, balance_after_cents from ledger_entries where member_id = ${m.memberId} and kind = 'parking'`,
    );
    expect(entry).toMatchObject({
      reference: `session:${done!.sessionId}`,
      idempotency_key: `key-${q}`,
      balance_after_cents: 715,
    });
    // Spent: a second run does nothing.
    expect(await run(m, q)).toBeNull();
  });

  it('returns the view Start answers with, field for field what Session reads afterwards', async () => {
    const m = await registerAndSignIn(app);
    await credit(db, m.memberId, 1000);
    const car = await addVehicle(app, m);
    const q = await quoteFor(m, car);
    const now = new Date();
    const done = await db.transaction((tx) => startInOneStatement(tx, m.memberId, q, false, null, now));
    expect(done).not.toBeNull();
    const read = (
      await as(app, m, { method: 'GET', url: `/api/Parking/Session/${done!.sessionId}` })
    ).json<SessionReceipt>();
    // Session reads the receipt: the session Start answers with, and what was paid along the way.
    const { InitialMinutes, Payments, ...session } = read;
    expect({ ...toSessionView(done!.view, now), ServerTime: read.ServerTime }).toEqual(session);
    expect(InitialMinutes).toBe(60);
    expect(Payments).toEqual([expect.objectContaining({ Kind: 'Start', Amount: 2.85 })]);
    expect(read).toMatchObject({
      ZoneNumber: '7401',
      DurationMinutes: 60,
      AmountPaid: 2.85,
      Status: 'Active',
      EndedAt: null,
    });
  });

  it('sends its statements as named statements on PostgreSQL, planned once per connection', async () => {
    const m = await registerAndSignIn(app);
    await credit(db, m.memberId, 1000);
    const q = await quoteFor(m, await addVehicle(app, m));
    const names = await db.transaction(async (tx) => {
      expect(await startInOneStatement(tx, m.memberId, q, false, null, new Date())).not.toBeNull();
      // pg_prepared_statements lists this connection's (the transaction's) named statements.
      return queryRows<{ name: string }>(
        tx,
        sql`select name from pg_prepared_statements where name like 'parking_start%' order by name`,
      );
    });
    // PGlite runs in this process and takes no names: nothing to plan again there.
    expect(names.map((n) => n.name)).toEqual(database.driver === 'postgres' ? ['parking_start'] : []);
  });

  it('writes nothing and leaves the rest to the step-by-step path: short balance, over Max Payment Amount, a vehicle with an active row, another member', async () => {
    const poor = await registerAndSignIn(app);
    await credit(db, poor.memberId, 100);
    const pq = await quoteFor(poor, await addVehicle(app, poor));
    const capped = await registerAndSignIn(app);
    await credit(db, capped.memberId, 1000);
    await as(app, capped, {
      method: 'POST',
      url: '/api/Account/ParkingOptions',
      payload: { MaxPaymentEnabled: true, MaxPaymentAmount: 2 },
    });
    const cq = await quoteFor(capped, await addVehicle(app, capped));
    const busy = await registerAndSignIn(app);
    await credit(db, busy.memberId, 1000);
    const car = await addVehicle(app, busy);
    const first = await run(busy, await quoteFor(busy, car, 15));
    // The first session ran out, and the expiry job has not closed it yet: still an active row.
    await db.execute(
      sql`update parking_sessions set started_at = started_at - interval '1 hour', ends_at = ends_at - interval '1 hour' where id = ${first!.sessionId}`,
    );
    const bq = await quoteFor(busy, car);
    const before = await queryRows<{ n: number }>(
      db,
      sql`select (select count(*) from parking_sessions)::int + (select count(*) from ledger_entries)::int as n`,
    );

    expect(await run(poor, pq)).toBeNull();
    expect(await run(capped, cq)).toBeNull();
    expect(await run(busy, bq)).toBeNull();
    expect(await run(poor, cq)).toBeNull(); // capped's quote, asked by poor
    expect(
      await queryRows<{ n: number }>(
        db,
        sql`select (select count(*) from parking_sessions)::int + (select count(*) from ledger_entries)::int as n`,
      ),
    ).toEqual(before);
    for (const q of [pq, cq, bq]) expect(await used(q)).toBe(false);
    // Confirmed over the cap, it goes through.
    expect(await run(capped, cq, true)).not.toBeNull();
  });
});
