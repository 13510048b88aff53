// Stop's one statement (parking/stop-statement.ts): for a wallet-paid session this process started
// or extended, one statement gives back what the transaction path (stopOwned) gives back at the same
// moment and ends the session the same way; when the session, its zone or its permits are not as
// the process holds them, or it is not the member's, it writes nothing and the route takes the
// transaction path. PGlite and PostgreSQL.
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { ParkingSession, Quote, StopResponse } from '@parkit/contract';
import { queryRows } from '../src/db/client.ts';
import { zones } from '../src/db/schema/index.ts';
import { stop } from '../src/parking/index.ts';
import { stopAnswered } from '../src/parking/stop-statement.ts';
import { as, registerAndSignIn, type SignedIn } from './helpers.ts';
import { allDayPolicy, twoOperators } from './operator-helpers.ts';
import { addVehicle, addZone, credit, pay, quote, startSession, walletState } from './parking-helpers.ts';
import { recordStatements } from './support/statements.ts';

const { app, db, A, staff } = await twoOperators('Stop statement city B', ['manager'], { decorations: true });
const zone = await addZone(db, 'SST1', { maxStayMinutes: 240 }); // $2.50/h, the preset
const seen = recordStatements(db);
const MINUTE = 60_000;

const fast = (m: SignedIn, id: number, now: Date) => stopAnswered(db, app.sessionTerms, m.memberId, id, now);
const stopRoute = (m: SignedIn, id: number) =>
  as(app, m, { method: 'POST', url: '/api/Parking/Stop', payload: { SessionId: id } });
const writes = async () =>
  (
    await queryRows<{ n: number }>(
      db,
      sql`select (select count(*) from ledger_entries)::int
            + (select count(*) from parking_sessions where status = 'ended')::int as n`,
    )
  )[0]!.n;
/** What two stops of like sessions at the same point of each must agree on. */
const outcome = (r: StopResponse) => ({
  RefundAmount: r.RefundAmount,
  UnusedMinutes: r.UnusedMinutes,
  DurationMinutes: r.DurationMinutes,
  AmountPaid: r.AmountPaid,
  Status: r.Status,
  endsAfterStart: new Date(r.EndsAt).getTime() - new Date(r.StartedAt).getTime(),
});

async function member(cents = 5000) {
  const m = await registerAndSignIn(app);
  await credit(db, m.memberId, cents);
  return m;
}
async function started(m: SignedIn, zoneId = zone, minutes = 60): Promise<ParkingSession> {
  return startSession(app, m, { zoneId, vehicleId: await addVehicle(app, m), minutes });
}
const after = (s: ParkingSession, ms: number) => new Date(new Date(s.StartedAt).getTime() + ms);

/** Two like sessions: one stopped by the statement, one by stopOwned, each `ms` after its start. */
async function expectSameAsTransaction(m: SignedIn, a: ParkingSession, b: ParkingSession, ms: number) {
  seen.length = 0;
  const one = await fast(m, a.SessionId, after(a, ms));
  expect(seen).toHaveLength(1);
  expect(seen[0]).toMatch(/post_ledger_entry/);
  expect(one).not.toBeNull();
  const step = await stop(app.wallet, m.memberId, b.SessionId, after(b, ms));
  expect(outcome(one!)).toEqual(outcome(step));
  const refunds = await queryRows<{ reference: string; amount_cents: number }>(
    db,
    sql`select reference, amount_cents from ledger_entries where member_id = ${m.memberId} and kind = 'refund' order by id`,
  );
  expect(refunds.slice(-2).map((r) => r.amount_cents)).toEqual(
    Number(one!.RefundAmount) > 0 ? [Math.round(one!.RefundAmount * 100), Math.round(step.RefundAmount * 100)] : [],
  );
  const state = await walletState(db, m.memberId);
  expect(state.ledger).toBe(state.balance);
  return one!;
}

describe('POST /api/Parking/Stop in one statement', () => {
  it('gives back what the transaction path gives back, in one statement, after a Start and after an Extend', async () => {
    const m = await member();
    const a = await started(m);
    const b = await started(m);
    const one = await expectSameAsTransaction(m, a, b, 10 * MINUTE + 30_000);
    // 60 minutes bought, 11 begun: 49 unused at $2.50/h.
    expect(one).toMatchObject({ UnusedMinutes: 49, RefundAmount: 2.04, DurationMinutes: 11, Status: 'Ended' });
    const [entry] = await queryRows<{ reference: string }>(
      db,
      sql`select reference from ledger_entries where member_id = ${m.memberId} and reference like ${`session:${a.SessionId}:%`}`,
    );
    expect(entry).toEqual({ reference: `session:${a.SessionId}:stop` });

    // Extended (Extend's statement), then stopped: the extension's terms are the ones held.
    const c = await started(m);
    const d = await started(m);
    for (const s of [c, d]) {
      const q = await quote(app, m, { SessionId: s.SessionId, DurationMinutes: 30 });
      expect(q.statusCode, q.body).toBe(200);
      const e = await pay(app, m, 'Extend', { QuoteId: q.json<Quote>().QuoteId });
      expect(e.statusCode, e.body).toBe(200);
    }
    expect(await expectSameAsTransaction(m, c, d, 45 * MINUTE)).toMatchObject({
      UnusedMinutes: 45,
      DurationMinutes: 45,
    });
  });

  it('prices a policy’s progressive rates as the transaction path does', async () => {
    const z = await addZone(db, 'SST2', { maxStayMinutes: 240 });
    await allDayPolicy(app, staff.manager, A, {
      name: 'SST progressive',
      zoneIds: [z],
      rates: [
        [0, 300],
        [60, 900],
      ],
      maxStayMinutes: 240,
    });
    const m = await member();
    const a = await started(m, z, 120);
    const b = await started(m, z, 120);
    // 120 bought ($3 + $9), 30 begun: the last 90 given back at the rates they were bought at ($1.50 + $9).
    expect(await expectSameAsTransaction(m, a, b, 29 * MINUTE + 10_000)).toMatchObject({
      UnusedMinutes: 90,
      RefundAmount: 10.5,
    });
  });

  it('writes nothing when the session is not as held, and the route answers from the transaction path', async () => {
    const m = await member();
    const other = await member();
    const now = () => new Date();

    // Another member's id: nothing, and 404 through the route.
    const theirs = await started(other);
    let before = await writes();
    expect(await fast(m, theirs.SessionId, now())).toBeNull();
    expect(await writes()).toBe(before);
    expect((await stopRoute(m, theirs.SessionId)).statusCode).toBe(404);
    // ... and the session stays held for its member: still one statement.
    expect(await fast(other, theirs.SessionId, now())).toMatchObject({ SessionId: theirs.SessionId, Status: 'Ended' });

    // Changed since it was held (an operator's correction, another process's Extend): the transaction path prices it as it is.
    const changed = await started(m);
    await db.execute(
      sql`update parking_sessions set parking_cents = parking_cents + 100 where id = ${changed.SessionId}`,
    );
    before = await writes();
    expect(await fast(m, changed.SessionId, now())).toBeNull();
    expect(await writes()).toBe(before);
    const res = await stopRoute(m, changed.SessionId);
    expect(res.statusCode, res.body).toBe(200);

    // Its zone edited since it was held (a preset's hours price the refund).
    const z = await addZone(db, 'SST3', { maxStayMinutes: 240 });
    const inEdited = await started(m, z);
    await fast(m, (await started(other, z)).SessionId, now()); // another's: writes nothing, holds the zone's row
    await db.update(zones).set({ paidFromMinute: 0 }).where(eq(zones.id, z));
    before = await writes();
    expect(await fast(m, inEdited.SessionId, now())).toBeNull();
    expect(await writes()).toBe(before);

    // Already ended (by the route), and a session this process never held.
    expect(await fast(m, changed.SessionId, now())).toBeNull();
    const unheld = await started(m);
    app.sessionTerms.forget(unheld.SessionId);
    expect(await fast(m, unheld.SessionId, now())).toBeNull();
    expect((await stopRoute(m, unheld.SessionId)).statusCode).toBe(200);
    const state = await walletState(db, m.memberId);
    expect(state.ledger).toBe(state.balance);
  });

  it('ten Stops of one session at once: one refund, the rest refused; beside an Extend the ledger equals the balance', async () => {
    const m = await member();
    const s = await started(m);
    const answers = await Promise.all(Array.from({ length: 10 }, () => stopRoute(m, s.SessionId)));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, ...Array(9).fill(409)]);
    const refunds = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from ledger_entries where reference = ${`session:${s.SessionId}:stop`}`,
    );
    expect(refunds[0]!.n).toBe(1);

    const t = await started(m);
    const q = await quote(app, m, { SessionId: t.SessionId, DurationMinutes: 30 });
    const [ext, stopped] = await Promise.all([
      pay(app, m, 'Extend', { QuoteId: q.json<Quote>().QuoteId }),
      stopRoute(m, t.SessionId),
    ]);
    expect(stopped.statusCode, stopped.body).toBe(200);
    expect([200, 409]).toContain(ext.statusCode);
    const state = await walletState(db, m.memberId);
    expect(state.ledger).toBe(state.balance);
  });
});
