import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { ParkingSession } from '@parkit/contract';
import { queryRows } from '../src/db/client.ts';
import { createJobRunner } from '../src/infra/jobs/job-runner.ts';
import { autoExtend, expireSessions, registerParkingJobs, sendReminders } from '../src/parking/parking-jobs.ts';
import { as, buildTestApp, registerAndSignIn, type SignedIn } from './helpers.ts';
import { addVehicle, addZone, credit, startSession, walletState } from './parking-helpers.ts';
import { TEST_ADMIN_URL } from './support/test-database.ts';

const { app, database } = await buildTestApp();
const db = database.db;
const zone = await addZone(db, '8101', { maxStayMinutes: 120 });
const MIN = 60_000;

/** Moves a session so that it ends `minutes` from `now` (negative: already over). */
async function endIn(id: number, minutes: number, now = new Date()) {
  const endsAt = new Date(now.getTime() + minutes * MIN);
  await db.execute(
    sql`update parking_sessions set ends_at = ${endsAt}, started_at = ${endsAt}::timestamptz - make_interval(mins => duration_minutes) where id = ${id}`,
  );
}

const messagesTo = async (phone: string) =>
  (
    await queryRows<{ body: string }>(
      db,
      sql`select body from outbox where recipient = ${phone} and body like 'ParkIt: %parking%' or recipient = ${phone} and body like 'ParkIt: Auto Extend%' order by id`,
    )
  ).map((r) => r.body);

async function driver(
  balanceCents = 10_000,
  options: Record<string, unknown> = {},
): Promise<{ who: SignedIn; park: (minutes?: number) => Promise<ParkingSession> }> {
  const who = await registerAndSignIn(app);
  await credit(db, who.memberId, balanceCents);
  if (Object.keys(options).length > 0)
    await as(app, who, { method: 'POST', url: '/api/Account/ParkingOptions', payload: options });
  return {
    who,
    park: async (minutes = 30) =>
      startSession(app, who, { zoneId: zone, vehicleId: await addVehicle(app, who), minutes }),
  };
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
    expect(reminder).toMatch(
      /^ParkIt: your parking for PK\d+ in zone 8101 ends at \d\d:\d\d [AP]M \(in 9 minutes\)\.$/,
    );

    await endIn(s.SessionId, -1, now);
    expect(await expireSessions(db, now)).toBe(1);
    expect(await expireSessions(db, now)).toBe(0);
    const view = (
      await as(app, who, { method: 'GET', url: `/api/Parking/Session/${s.SessionId}` })
    ).json<ParkingSession>();
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
    const v = (
      await as(app, who, { method: 'GET', url: `/api/Parking/Session/${s.SessionId}` })
    ).json<ParkingSession>();
    expect(v).toMatchObject({ DurationMinutes: 90, AutoExtendedUsed: true });
    expect(Date.parse(v.EndsAt)).toBe(now.getTime() + 49 * MIN);
    const after = await walletState(db, who.memberId);
    expect(after.ledger).toBe(after.balance);
    expect(after.balance).toBe(before.balance - 188); // 250 × 45 / 60 = 187.5 → 188, no fee
    expect((await messagesTo(who.phone)).at(-1)).toMatch(
      /^ParkIt: Auto Extend added 45 minutes for .* \(\$1\.88\); it now ends at/,
    );

    // 90 of 120 minutes used: the next extension is cut to the 30 minutes left, then it stops.
    await endIn(s.SessionId, 3, now);
    expect(await autoExtend(db, now)).toBe(1);
    expect(
      (await as(app, who, { method: 'GET', url: `/api/Parking/Session/${s.SessionId}` })).json<ParkingSession>()
        .DurationMinutes,
    ).toBe(120);
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

/** This test database's URL, for another process. */
async function databaseUrl(): Promise<string> {
  const [row] = await queryRows<{ name: string }>(db, sql`select current_database() as name`);
  const url = new URL(TEST_ADMIN_URL);
  url.pathname = `/${row!.name}`;
  return url.toString();
}

const RUNNER = join(dirname(fileURLToPath(import.meta.url)), 'processes/parking-jobs-runner.ts');

/** Starts test/processes/parking-jobs-runner.ts; resolves once it is connected and waiting for "go". */
function startRunner(url: string): Promise<{
  child: ChildProcess;
  result: Promise<{ pid: number; runs: Record<string, number>[]; errors: string[] }>;
}> {
  const child = spawn(process.execPath, ['--import', 'tsx', RUNNER], {
    env: { ...process.env, JOBS_DATABASE_URL: url },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const result = new Promise<{ pid: number; runs: Record<string, number>[]; errors: string[] }>((resolve, reject) => {
    child.on('exit', (code) => {
      const last = out.trim().split('\n').at(-1) ?? '';
      if (code === 0 && last.startsWith('{')) resolve(JSON.parse(last));
      else reject(new Error(`job runner exited with ${code}: ${err}`));
    });
  });
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.startsWith('ready\n')) resolve({ child, result });
    });
    result.catch(reject);
  });
}

async function runInTwoProcesses(): Promise<Record<string, number>> {
  const url = await databaseUrl();
  const runners = await Promise.all([startRunner(url), startRunner(url)]);
  for (const r of runners) r.child.stdin!.end('go\n');
  const results = await Promise.all(runners.map((r) => r.result));
  expect(new Set(results.map((r) => r.pid)).size).toBe(2);
  expect(results.flatMap((r) => r.errors)).toEqual([]);
  const sum: Record<string, number> = {};
  for (const run of results.flatMap((r) => r.runs))
    for (const [name, n] of Object.entries(run)) sum[name] = (sum[name] ?? 0) + n;
  return sum;
}

/** PGlite: two runners of the same jobs in this process, each ticking twice at once. */
async function runInOneProcess(now: Date): Promise<Record<string, number>> {
  const log = { error: (o: unknown) => console.error(o) };
  const [a, b] = [createJobRunner(db, log), createJobRunner(db, log)];
  registerParkingJobs(a);
  registerParkingJobs(b);
  const runs = await Promise.all([a.runOnce(now), b.runOnce(now), a.runOnce(now), b.runOnce(now)]);
  const sum: Record<string, number> = {};
  for (const run of runs) for (const [name, n] of Object.entries(run)) sum[name] = (sum[name] ?? 0) + n;
  return sum;
}

describe('two job runners on one database', () => {
  it('handle every due session exactly once', { timeout: 180_000 }, async () => {
    // Only this test's sessions are due.
    await db.execute(sql`update parking_sessions set status = 'ended', ended_at = now()`);
    const drivers = await Promise.all(Array.from({ length: 4 }, () => driver(20_000, { AutoExtendParking: true })));
    const parked: { s: ParkingSession; d: number }[] = [];
    for (const [d, dr] of drivers.entries()) for (let i = 0; i < 6; i++) parked.push({ s: await dr.park(30), d });
    const now = new Date();
    // A third ends in 4 minutes (auto-extend, else a reminder), a third in 8 (reminder), a third is over (expiry).
    for (const [i, p] of parked.entries()) await endIn(p.s.SessionId, [4, 8, -1][i % 3]!, now);
    // Auto Extend stays on only for the first driver.
    for (const d of drivers.slice(1))
      await as(app, d.who, {
        method: 'POST',
        url: '/api/Account/ParkingOptions',
        payload: { AutoExtendParking: false },
      });
    const extendable = parked.filter((p, i) => i % 3 === 0 && p.d === 0).length;
    const parkingEntries = async () =>
      Number(
        (
          await queryRows<{ n: number }>(db, sql`select count(*)::int as n from ledger_entries where kind = 'parking'`)
        )[0]?.n,
      );
    const ledgerBefore = await parkingEntries();

    // On PostgreSQL: two OS processes running the server's job runner against this database, each
    // ticking twice, at the same moment. PGlite lives inside this process: two runners on it.
    const handled = database.driver === 'postgres' ? await runInTwoProcesses() : await runInOneProcess(now);
    expect(extendable).toBe(2);
    expect(handled).toEqual({
      'parking.auto-extend': extendable,
      'parking.reminders': 8 + (8 - extendable),
      'parking.expiry': 8,
    });
    expect((await parkingEntries()) - ledgerBefore).toBe(extendable);
    for (const d of drivers) {
      const w = await walletState(db, d.who.memberId);
      expect(w.ledger).toBe(w.balance);
      const bodies = await messagesTo(d.who.phone);
      expect(new Set(bodies).size).toBe(bodies.length);
    }
    // And the runner the server uses holds all three jobs.
    const server = createJobRunner(db, { error: (o: unknown) => console.error(o) });
    registerParkingJobs(server);
    expect(Object.keys(await server.runOnce(now))).toEqual([
      'parking.auto-extend',
      'parking.reminders',
      'parking.expiry',
    ]);
  });
});
