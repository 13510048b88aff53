import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { ParkingSession } from '@parkit/contract';
import { openDatabase, queryRows, type Db } from '../src/db/client.ts';
import { createJobRunner } from '../src/plugins/app/jobs/job-runner.ts';
import { autoExtend, expireSessions, registerParkingJobs, sendReminders } from '../src/plugins/app/parking/parking-jobs.ts';
import { as, buildTestApp, registerAndSignIn, type SignedIn } from './helpers.ts';
import { addVehicle, addZone, credit, startSession, walletState } from './parking-helpers.ts';

const { app, database } = await buildTestApp();
const db = database.db;
const zone = await addZone(db, '8101', { maxStayMinutes: 120 });
const MIN = 60_000;

/** Moves a session so that it ends `minutes` from `now` (negative: already over). */
async function endIn(id: number, minutes: number, now = new Date()) {
  const endsAt = new Date(now.getTime() + minutes * MIN);
  await db.execute(sql`update parking_sessions set ends_at = ${endsAt}, started_at = ${endsAt}::timestamptz - make_interval(mins => duration_minutes) where id = ${id}`);
}

const messagesTo = async (phone: string) =>
  (await queryRows<{ body: string }>(db, sql`select body from outbox where recipient = ${phone} and body like 'ParkIt: %parking%' or recipient = ${phone} and body like 'ParkIt: Auto Extend%' order by id`)).map((r) => r.body);

async function driver(balanceCents = 10_000, options: Record<string, unknown> = {}): Promise<{ who: SignedIn; park: (minutes?: number) => Promise<ParkingSession> }> {
  const who = await registerAndSignIn(app);
  await credit(db, who.memberId, balanceCents);
  if (Object.keys(options).length > 0) await as(app, who, { method: 'POST', url: '/api/Account/ParkingOptions', payload: options });
  return { who, park: async (minutes = 30) => startSession(app, who, { zoneId: zone, vehicleId: await addVehicle(app, who), minutes }) };
}

describe('reminders and expiry', () => {
  it('reminds once 10 minutes before the end, then ends the session at its end time and says so', async () => {
    const { who, park } = await driver();
    const s = await park(30);
    const now = new Date();
    await endIn(s.SessionId, 12, now);
    expect(await sendReminders(db, now)).toBe(0);
    await endIn(s.SessionId, 9, now);
    expect(await sendReminders(db, now)).toBe(1);
    expect(await sendReminders(db, now)).toBe(0);
    const [reminder] = await messagesTo(who.phone);
    expect(reminder).toMatch(/^ParkIt: your parking for PK\d+ in zone 8101 ends at \d\d:\d\d [AP]M \(in 9 minutes\)\.$/);

    await endIn(s.SessionId, -1, now);
    expect(await expireSessions(db, now)).toBe(1);
    expect(await expireSessions(db, now)).toBe(0);
    const view = (await as(app, who, { method: 'GET', url: `/api/Parking/Session/${s.SessionId}` })).json<ParkingSession>();
    expect(view.Status).toBe('Ended');
    expect(view.EndedAt).toBe(view.EndsAt);
    expect((await messagesTo(who.phone)).at(-1)).toMatch(/ended at/);
  });
});

describe('Auto Extend', () => {
  it('extends by the first duration before the end, in the ledger and the outbox, while the maximum stay allows', async () => {
    const { who, park } = await driver(10_000, { AutoExtendParking: true });
    const s = await park(45);
    const now = new Date();
    await endIn(s.SessionId, 4, now);
    const before = await walletState(db, who.memberId);
    expect(await autoExtend(db, now)).toBe(1);
    expect(await autoExtend(db, now)).toBe(0); // the new end is not due yet
    const v = (await as(app, who, { method: 'GET', url: `/api/Parking/Session/${s.SessionId}` })).json<ParkingSession>();
    expect(v).toMatchObject({ DurationMinutes: 90, AutoExtendedUsed: true });
    expect(Date.parse(v.EndsAt)).toBe(now.getTime() + 49 * MIN);
    const after = await walletState(db, who.memberId);
    expect(after.ledger).toBe(after.balance);
    expect(after.balance).toBe(before.balance - 188); // 250 × 45 / 60 = 187.5 → 188, no fee
    expect((await messagesTo(who.phone)).at(-1)).toMatch(/^ParkIt: Auto Extend added 45 minutes for .* \(\$1\.88\); it now ends at/);

    // 90 of 120 minutes used: the next extension is cut to the 30 minutes left, then it stops.
    await endIn(s.SessionId, 3, now);
    expect(await autoExtend(db, now)).toBe(1);
    expect((await as(app, who, { method: 'GET', url: `/api/Parking/Session/${s.SessionId}` })).json<ParkingSession>().DurationMinutes).toBe(120);
    await endIn(s.SessionId, 2, now);
    const spent = (await walletState(db, who.memberId)).balance;
    expect(await autoExtend(db, now)).toBe(1);
    expect(await autoExtend(db, now)).toBe(0); // told once, not every tick
    expect((await walletState(db, who.memberId)).balance).toBe(spent);
    expect((await messagesTo(who.phone)).at(-1)).toMatch(/the maximum stay is reached/);
  });

  it('does not extend past Max Payment Amount or with too little money, and leaves members without Auto Extend alone', async () => {
    const capped = await driver(10_000, { AutoExtendParking: true, MaxPaymentEnabled: true, MaxPaymentAmount: 2 });
    const poor = await driver(300, { AutoExtendParking: true });
    const off = await driver();
    const sessions = [await capped.park(30), await poor.park(60), await off.park(30)];
    const now = new Date();
    for (const s of sessions) await endIn(s.SessionId, 2, now);
    const balances = await Promise.all([capped, poor, off].map((d) => walletState(db, d.who.memberId)));
    expect(await autoExtend(db, now)).toBe(2);
    for (const [i, d] of [capped, poor, off].entries()) {
      const w = await walletState(db, d.who.memberId);
      expect(w.balance).toBe(balances[i]!.balance);
      expect(w.ledger).toBe(w.balance);
    }
    expect((await messagesTo(capped.who.phone)).at(-1)).toMatch(/Max Payment Amount/);
    expect((await messagesTo(poor.who.phone)).at(-1)).toMatch(/balance is too low/);
    expect(await messagesTo(off.who.phone)).toEqual([]);
  });
});

/** A second connection pool to the same database: what a second server process would have. */
async function secondDb(): Promise<{ db: Db; close: () => Promise<void> }> {
  if (database.driver !== 'postgres') return { db, close: async () => {} };
  const [row] = await queryRows<{ name: string }>(db, sql`select current_database() as name`);
  const url = new URL(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
  url.pathname = `/${row!.name}`;
  const other = await openDatabase({ url: url.toString(), poolSize: 4 });
  return { db: other.db, close: () => other.close() };
}

describe('two job runners on one database', () => {
  it('handle every due session exactly once', async () => {
    // Only this test's sessions are due.
    await db.execute(sql`update parking_sessions set status = 'ended', ended_at = now()`);
    const drivers = await Promise.all(Array.from({ length: 4 }, () => driver(20_000, { AutoExtendParking: true })));
    const parked: { s: ParkingSession; d: number }[] = [];
    for (const [d, dr] of drivers.entries()) for (let i = 0; i < 6; i++) parked.push({ s: await dr.park(30), d });
    const now = new Date();
    // A third ends in 4 minutes (auto-extend, else a reminder), a third in 8 (reminder), a third is over (expiry).
    for (const [i, p] of parked.entries()) await endIn(p.s.SessionId, [4, 8, -1][i % 3]!, now);
    // Auto Extend stays on only for the first driver.
    for (const d of drivers.slice(1)) await as(app, d.who, { method: 'POST', url: '/api/Account/ParkingOptions', payload: { AutoExtendParking: false } });
    const extendable = parked.filter((p, i) => i % 3 === 0 && p.d === 0).length;
    const parkingEntries = async () => Number((await queryRows<{ n: number }>(db, sql`select count(*)::int as n from ledger_entries where kind = 'parking'`))[0]?.n);
    const ledgerBefore = await parkingEntries();

    const other = await secondDb();
    const log = { error: (o: unknown) => console.error(o) };
    const handled: Record<string, number> = {};
    // Each job by two runners at once (twice each), the way two server processes tick.
    for (const [name, job] of [['auto-extend', autoExtend], ['reminders', sendReminders], ['expiry', expireSessions]] as const) {
      const a = createJobRunner(db, log);
      const b = createJobRunner(other.db, log);
      a.register(name, job);
      b.register(name, job);
      const runs = await Promise.all([a.runOnce(now), b.runOnce(now), a.runOnce(now), b.runOnce(now)]);
      handled[name] = runs.reduce((sum, r) => sum + (r[name] ?? 0), 0);
    }
    await other.close();

    expect(extendable).toBe(2);
    expect(handled).toEqual({ 'auto-extend': extendable, reminders: 8 + (8 - extendable), expiry: 8 });
    expect((await parkingEntries()) - ledgerBefore).toBe(extendable);
    for (const d of drivers) {
      const w = await walletState(db, d.who.memberId);
      expect(w.ledger).toBe(w.balance);
      const bodies = await messagesTo(d.who.phone);
      expect(new Set(bodies).size).toBe(bodies.length);
    }
    // And the runner the server uses holds all three jobs.
    const server = createJobRunner(db, log);
    registerParkingJobs(server);
    expect(Object.keys(await server.runOnce(now))).toEqual(['parking.auto-extend', 'parking.reminders', 'parking.expiry']);
  });
});
