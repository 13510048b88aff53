// Start's one-statement path (parking/start-statement.ts): it must do exactly what the
// step-by-step path does when everything is in order, and write nothing when anything is not.
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Quote, SessionReceipt } from '@parkit/contract';
import { queryRows } from '../src/db/client.ts';
import { toSessionView } from '../src/parking/session-repository.ts';
import { STORED_START, startAnswered, startInOneStatement, storedStart } from '../src/parking/start-statement.ts';
import { as, buildTestApp, registerAndSignIn, type SignedIn } from './helpers.ts';
import { addVehicle, addZone, credit, pay, quote, walletState } from './parking-helpers.ts';
import { recordStatements } from './support/statements.ts';

// decorations: the tests below empty the session cache (app.sessionCache) to have Start's statement read the version.
const { app, database } = await buildTestApp({}, { decorations: true });
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
    // Start's whole request in one statement, under a name of its own (its text differs).
    const q2 = await quoteFor(m, await addVehicle(app, m));
    const answered = await db.transaction(async (tx) => {
      const [member] = await queryRows<{ v: number }>(
        tx,
        sql`select session_version as v from members where id = ${m.memberId}`,
      );
      const r = {
        quoteId: q2,
        confirmedOverMax: false,
        key: `named-${q2}`,
        requestHash: 'h',
        sessionVersion: member!.v,
      };
      expect((await startAnswered(tx, m.memberId, r, new Date())).session).not.toBeNull();
      return queryRows<{ name: string }>(
        tx,
        sql`select name from pg_prepared_statements where name = 'parking_start_answered'`,
      );
    });
    expect(answered.map((n) => n.name)).toEqual(database.driver === 'postgres' ? ['parking_start_answered'] : []);
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

describe('POST /api/Parking/Start in one round trip', () => {
  const seen = recordStatements(db);
  const start = (who: SignedIn, QuoteId: string, key: string) => pay(app, who, 'Start', { QuoteId }, key);
  const rows = async () =>
    (
      await queryRows<{ n: number }>(
        db,
        sql`select (select count(*) from parking_sessions)::int + (select count(*) from ledger_entries)::int + (select count(*) from idempotency_keys)::int as n`,
      )
    )[0]!.n;

  it('starts, pays and stores its answer in one statement, with no transaction; the key replays the same body', async () => {
    const m = await registerAndSignIn(app);
    await credit(db, m.memberId, 1000);
    const q = await quoteFor(m, await addVehicle(app, m));
    app.sessionCache.forget(m.memberId); // its session version is read by Start's statement
    seen.length = 0;
    const first = await start(m, q, `one-trip-${q}`);
    expect(first.statusCode, first.body).toBe(201);
    // The pool's own statements are seen here (a transaction's are not): one, with no BEGIN.
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatch(/insert into idempotency_keys/);
    const [stored] = await queryRows<{ status_code: number; response: Record<string, unknown> }>(
      db,
      sql`select status_code, response from idempotency_keys where member_id = ${m.memberId} and key = ${`one-trip-${q}`}`,
    );
    expect(stored!.status_code).toBe(201);
    expect(Object.keys(stored!.response).sort()).toEqual([STORED_START, 'at'].sort());

    const again = await start(m, q, `one-trip-${q}`);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    const w = await walletState(db, m.memberId);
    expect(w.balance).toBe(1000 - 285);
    expect(w.ledger).toBe(w.balance);
    expect(w.entries.filter((e) => e.kind === 'parking')).toHaveLength(1);
  });

  it('a member that does not exist: no session version and no Start, and nothing written', async () => {
    const before = await rows();
    const r = {
      quoteId: '00000000-0000-4000-8000-000000000000',
      confirmedOverMax: false,
      key: 'ghost-key',
      requestHash: 'h',
      sessionVersion: 1,
    };
    expect(await startAnswered(db, 2_000_000_000, r, new Date())).toEqual({ sessionVersion: null, session: null });
    expect(await rows()).toBe(before);
  });

  it('a stored answer the transaction path wrote (the body itself) is replayed as it is', () => {
    const body = { SessionId: 7, Status: 'Active', at: '2026-11-29T10:00:00.000Z' };
    expect(storedStart(body)).toBe(body);
  });

  it('a token of an ended session is refused with 401 and writes nothing', async () => {
    const m = await registerAndSignIn(app);
    await credit(db, m.memberId, 1000);
    const q = await quoteFor(m, await addVehicle(app, m));
    await db.execute(sql`update members set session_version = session_version + 1 where id = ${m.memberId}`);
    app.sessionCache.forget(m.memberId);
    const before = await rows();
    const res = await start(m, q, `stale-${q}`);
    expect(res.statusCode, res.body).toBe(401);
    expect(await rows()).toBe(before);
    expect(await used(q)).toBe(false);
  });

  it('a key used for another body is refused with 422, and the quote stays unspent', async () => {
    const m = await registerAndSignIn(app);
    await credit(db, m.memberId, 2000);
    const q1 = await quoteFor(m, await addVehicle(app, m));
    const q2 = await quoteFor(m, await addVehicle(app, m));
    expect((await start(m, q1, `shared-${q1}`)).statusCode).toBe(201);
    const before = await rows();
    const res = await start(m, q2, `shared-${q1}`);
    expect(res.statusCode, res.body).toBe(422);
    expect(await rows()).toBe(before);
    expect(await used(q2)).toBe(false);
  });

  it('ten Starts at once with one key start one session and pay once; ten keys for one quote, the same', async () => {
    const m = await registerAndSignIn(app);
    await credit(db, m.memberId, 5000);
    const q = await quoteFor(m, await addVehicle(app, m));
    app.sessionCache.forget(m.memberId);
    const sameKey = await Promise.all(Array.from({ length: 10 }, () => start(m, q, `burst-${q}`)));
    const ok = sameKey.filter((r) => r.statusCode === 201);
    expect(ok.length).toBeGreaterThan(0);
    for (const r of sameKey) expect([201, 409], r.body).toContain(r.statusCode);
    expect(new Set(ok.map((r) => r.json<{ SessionId: number }>().SessionId)).size).toBe(1);

    const q2 = await quoteFor(m, await addVehicle(app, m));
    const keys = await Promise.all(Array.from({ length: 10 }, (_, i) => start(m, q2, `burst-${q2}-${i}`)));
    expect(keys.filter((r) => r.statusCode === 201)).toHaveLength(1);
    for (const r of keys) expect([201, 409], r.body).toContain(r.statusCode);

    const w = await walletState(db, m.memberId);
    expect(w.entries.filter((e) => e.kind === 'parking')).toHaveLength(2);
    expect(w.ledger).toBe(w.balance);
    expect(w.balance).toBe(5000 - 2 * 285);
  });
});
