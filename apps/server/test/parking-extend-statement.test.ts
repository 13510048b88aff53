// Extend's one-statement path (parking/extend-statement.ts): it must do exactly what the
// transaction path does when everything is in order, and write nothing when anything is not (the
// transaction path then answers the precise refusal).
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { ParkingSession, Quote, SessionReceipt } from '@parkit/contract';
import { queryRows } from '../src/db/client.ts';
import { extendAnswered, STORED_EXTEND, storedExtend } from '../src/parking/extend-statement.ts';
import { as, buildTestApp, registerAndSignIn, type SignedIn } from './helpers.ts';
import { addVehicle, addZone, credit, pay, quote, startSession, walletState } from './parking-helpers.ts';
import { recordStatements } from './support/statements.ts';

// decorations: the tests below empty the session cache (app.sessionCache) to have Extend's statement read the version.
const { app, database } = await buildTestApp({}, { decorations: true });
const db = database.db;
const zone = await addZone(db, '7402', { maxStayMinutes: 120 }); // $2.50/h: 30 more minutes = 1.25, no fee

const seen = recordStatements(db);
const extend = (who: SignedIn, QuoteId: string, key: string) => pay(app, who, 'Extend', { QuoteId }, key);
/** A member with a wallet and a running 60-minute session, and a quote for `minutes` more. */
async function running(cents = 2000, minutes = 30) {
  const m = await registerAndSignIn(app);
  await credit(db, m.memberId, cents);
  const s = await startSession(app, m, { zoneId: zone, vehicleId: await addVehicle(app, m), minutes: 60 });
  return { m, s, q: await quoteMore(m, s.SessionId, minutes) };
}
async function quoteMore(m: SignedIn, sessionId: number, minutes: number): Promise<string> {
  const q = await quote(app, m, { SessionId: sessionId, DurationMinutes: minutes });
  expect(q.statusCode, q.body).toBe(200);
  return q.json<Quote>().QuoteId;
}
const rows = async () =>
  (
    await queryRows<{ n: number }>(
      db,
      sql`select (select count(*) from ledger_entries)::int + (select count(*) from idempotency_keys)::int
            + (select coalesce(sum(duration_minutes), 0) from parking_sessions)::int
            + (select count(*) from parking_quotes where used_at is not null)::int as n`,
    )
  )[0]!.n;
const used = async (quoteId: string) =>
  (
    await queryRows<{ used: boolean }>(
      db,
      sql`select used_at is not null as used from parking_quotes where id = ${quoteId}`,
    )
  )[0]?.used;

describe('POST /api/Parking/Extend in one round trip', () => {
  it('claims the quote, pays, lengthens the session and stores its answer in one statement, with no transaction; the key replays the same body', async () => {
    const { m, s, q } = await running();
    const before = await walletState(db, m.memberId);
    await db.execute(sql`update parking_sessions set reminder_sent_at = now() where id = ${s.SessionId}`);
    app.sessionCache.forget(m.memberId); // its session version is read by Extend's statement
    seen.length = 0;
    const first = await extend(m, q, `one-trip-${q}`);
    expect(first.statusCode, first.body).toBe(200);
    // The pool's own statements are seen here (a transaction's are not): one, with no BEGIN.
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatch(/insert into idempotency_keys/);
    const e = first.json<ParkingSession>();
    expect(e).toMatchObject({ SessionId: s.SessionId, DurationMinutes: 90, AmountPaid: 4.1 });
    expect(new Date(e.EndsAt).getTime() - new Date(s.EndsAt).getTime()).toBe(30 * 60_000);
    const [row] = await queryRows<{ reminder_sent_at: unknown; parking_cents: number }>(
      db,
      sql`select reminder_sent_at, parking_cents from parking_sessions where id = ${s.SessionId}`,
    );
    expect(row).toEqual({ reminder_sent_at: null, parking_cents: 250 + 125 }); // a new end gets its own reminder
    expect(await used(q)).toBe(true);
    const [entry] = await queryRows<{ reference: string; idempotency_key: string; amount_cents: number }>(
      db,
      sql`select reference, idempotency_key, amount_cents from ledger_entries where member_id = ${m.memberId} order by id desc limit 1`,
    );
    expect(entry).toEqual({
      reference: `session:${s.SessionId}:extend`,
      idempotency_key: `one-trip-${q}`,
      amount_cents: -125,
    });
    const [stored] = await queryRows<{ status_code: number; response: Record<string, unknown> }>(
      db,
      sql`select status_code, response from idempotency_keys where member_id = ${m.memberId} and key = ${`one-trip-${q}`}`,
    );
    expect(stored!.status_code).toBe(200);
    expect(Object.keys(stored!.response).sort()).toEqual([STORED_EXTEND, 'at'].sort());

    const again = await extend(m, q, `one-trip-${q}`);
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    const w = await walletState(db, m.memberId);
    expect(w.balance).toBe(before.balance - 125);
    expect(w.ledger).toBe(w.balance);

    // What Session reads afterwards is what Extend answered.
    const read = (
      await as(app, m, { method: 'GET', url: `/api/Parking/Session/${s.SessionId}` })
    ).json<SessionReceipt>();
    const { InitialMinutes, Payments, ...session } = read;
    expect({ ...e, ServerTime: read.ServerTime }).toEqual(session);
    expect(InitialMinutes).toBe(60);
    expect(Payments.map((p) => p.Kind)).toEqual(['Start', 'Extension']);
  });

  it('sends its statement under a name of its own on PostgreSQL', async () => {
    const { m, q } = await running();
    const names = await db.transaction(async (tx) => {
      const r = { quoteId: q, confirmedOverMax: false, key: `named-${q}`, requestHash: 'h', sessionVersion: 0 };
      expect((await extendAnswered(tx, m.memberId, r, new Date())).session).not.toBeNull();
      return queryRows<{ name: string }>(
        tx,
        sql`select name from pg_prepared_statements where name = 'parking_extend_answered'`,
      );
    });
    expect(names.map((n) => n.name)).toEqual(database.driver === 'postgres' ? ['parking_extend_answered'] : []);
  });

  it('writes nothing and leaves the refusal to the transaction path: short balance, over Max Payment Amount, a stale quote, past the maximum stay, an ended session, another member', async () => {
    const now = new Date();
    const ask = (m: SignedIn, quoteId: string, confirmedOverMax = false) =>
      extendAnswered(
        db,
        m.memberId,
        { quoteId, confirmedOverMax, key: `refused-${quoteId}-${m.memberId}`, requestHash: 'h', sessionVersion: 0 },
        now,
      );

    const poor = await running(285 + 100); // 1.25 more is more than the 1.00 left
    const capped = await running();
    await as(app, capped.m, {
      method: 'POST',
      url: '/api/Account/ParkingOptions',
      payload: { MaxPaymentEnabled: true, MaxPaymentAmount: 1 },
    });
    const stale = await running();
    const newer = await quoteMore(stale.m, stale.s.SessionId, 15);
    expect((await extend(stale.m, newer, `newer-${newer}`)).statusCode).toBe(200); // the session now ends later than stale.q starts
    const long = await running(2000, 60);
    await db.execute(sql`update parking_sessions set duration_minutes = 90 where id = ${long.s.SessionId}`); // 90 + 60 > 120
    const ended = await running();
    await db.execute(
      sql`update parking_sessions set status = 'ended', ended_at = now() where id = ${ended.s.SessionId}`,
    );
    const other = await running();
    const before = await rows();

    for (const [who, q] of [
      [poor.m, poor.q],
      [capped.m, capped.q],
      [stale.m, stale.q],
      [long.m, long.q],
      [ended.m, ended.q],
      [poor.m, capped.q], // capped's quote, asked by poor
    ] as const)
      expect((await ask(who, q)).session, q).toBeNull();
    // A session version the token no longer has: nothing either, and the version is told.
    expect(
      await extendAnswered(
        db,
        other.m.memberId,
        { quoteId: other.q, confirmedOverMax: false, key: 'old-token', requestHash: 'h', sessionVersion: 7 },
        now,
      ),
    ).toEqual({ sessionVersion: 0, session: null });
    expect(await rows()).toBe(before);
    for (const q of [poor.q, capped.q, stale.q, long.q, ended.q, other.q]) expect(await used(q)).toBe(false);

    // Through the route, each gets the transaction path's precise answer.
    const status = async (who: SignedIn, q: string) => (await extend(who, q, `route-${q}`)).statusCode;
    expect(await status(poor.m, poor.q)).toBe(402);
    expect(await status(capped.m, capped.q)).toBe(409);
    expect(await status(stale.m, stale.q)).toBe(409);
    expect(await status(long.m, long.q)).toBe(409);
    expect(await status(ended.m, ended.q)).toBe(409);
    expect(await status(poor.m, capped.q)).toBe(404);
    // Confirmed over the cap, it goes through in one statement.
    expect((await ask(capped.m, capped.q, true)).session).not.toBeNull();
  });

  it('a member that does not exist: no session version and nothing written', async () => {
    const before = await rows();
    const r = {
      quoteId: '00000000-0000-4000-8000-000000000000',
      confirmedOverMax: false,
      key: 'ghost',
      requestHash: 'h',
      sessionVersion: 0,
    };
    expect(await extendAnswered(db, 2_000_000_000, r, new Date())).toEqual({ sessionVersion: null, session: null });
    expect(await rows()).toBe(before);
  });

  it('a stored answer the transaction path wrote (the body itself) is replayed as it is', () => {
    const body = { SessionId: 7, Status: 'Active', at: '2026-11-29T10:00:00.000Z' };
    expect(storedExtend(body)).toBe(body);
  });

  it('a token of an ended session is refused with 401 and writes nothing', async () => {
    const { m, q } = await running();
    await db.execute(sql`update members set session_version = session_version + 1 where id = ${m.memberId}`);
    app.sessionCache.forget(m.memberId);
    const before = await rows();
    const res = await extend(m, q, `stale-${q}`);
    expect(res.statusCode, res.body).toBe(401);
    expect(await rows()).toBe(before);
    expect(await used(q)).toBe(false);
  });

  it('ten Extends at once with one key extend once; ten keys for one quote, the same; an Extend beside a Stop: one of them, and the ledger agrees', async () => {
    // A member per burst: a member's money routes take 20 requests a minute.
    const { m, s: session, q } = await running(5000);
    app.sessionCache.forget(m.memberId);
    const sameKey = await Promise.all(Array.from({ length: 10 }, () => extend(m, q, `burst-${q}`)));
    for (const r of sameKey) expect([200, 409], r.body).toContain(r.statusCode);
    const ok = sameKey.filter((r) => r.statusCode === 200);
    expect(ok.length).toBeGreaterThan(0);
    expect(new Set(ok.map((r) => r.json<ParkingSession>().DurationMinutes))).toEqual(new Set([90]));
    const minutes = async (id: number) =>
      (await queryRows<{ d: number }>(db, sql`select duration_minutes as d from parking_sessions where id = ${id}`))[0]!
        .d;
    expect(await minutes(session.SessionId)).toBe(90);

    const other = await running(5000, 15);
    const keys = await Promise.all(
      Array.from({ length: 10 }, (_, i) => extend(other.m, other.q, `burst-${other.q}-${i}`)),
    );
    expect(keys.filter((r) => r.statusCode === 200)).toHaveLength(1);
    for (const r of keys) expect([200, 409], r.body).toContain(r.statusCode);
    expect(await minutes(other.s.SessionId)).toBe(75);

    const q3 = await quoteMore(m, session.SessionId, 15);
    const [ext, stop] = await Promise.all([
      extend(m, q3, `race-${q3}`),
      as(app, m, { method: 'POST', url: '/api/Parking/Stop', payload: { SessionId: session.SessionId } }),
    ]);
    expect(stop.statusCode, stop.body).toBe(200);
    expect([200, 409], ext.body).toContain(ext.statusCode);
    for (const who of [m, other.m]) {
      const w = await walletState(db, who.memberId);
      expect(w.ledger).toBe(w.balance);
      expect(w.entries.filter((e) => e.kind === 'parking')).toHaveLength(who === m && ext.statusCode === 200 ? 3 : 2);
    }
  });
});
