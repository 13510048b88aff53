import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.ts';
import { as, buildTestApp, registerAndSignIn, type SignedIn } from '../helpers.ts';
import { secondApp } from '../support/second-app.ts';
import { recordStatements } from '../support/statements.ts';

// The session check costs no statement once a member's version is cached, and a
// logout or password change still ends every token at once, in this process and in others.
const { app: a, database } = await buildTestApp();
const VEHICLE = {
  VehicleMake: 'TOYOTA',
  VehicleModel: 'CAMRY',
  PlateState: 'TX',
  VehicleColor: 'SILVER',
  VehicleYear: '2021',
};
let plates = 0;

const versionReads = (seen: string[]) => seen.filter((t) => /"session_version"/.test(t)).length;

const active = (instance: FastifyInstance, who: SignedIn) =>
  as(instance, who, { method: 'GET', url: '/api/Parking/Active' });
const addVehicle = (instance: FastifyInstance, who: SignedIn) =>
  as(instance, who, {
    method: 'POST',
    url: '/api/Vehicle/Add',
    payload: { ...VEHICLE, PlateNumber: `SC ${++plates}` },
  });

const seen = recordStatements(database.db);

describe('one process', () => {
  it('reads the session version on a member’s first request only', async () => {
    const who = await registerAndSignIn(a);
    seen.length = 0;
    expect((await active(a, who)).statusCode).toBe(200);
    expect(versionReads(seen)).toBe(1);
    for (const send of [active, addVehicle, active, addVehicle]) {
      seen.length = 0;
      expect([200, 201]).toContain((await send(a, who)).statusCode);
      expect(versionReads(seen)).toBe(0);
      // The recorder sees the request's own statement (a write's transaction runs on a pool
      // connection it does not see; the session check never runs in one).
      if (send === active) expect(seen.length).toBeGreaterThan(0);
    }
  });

  it('logout ends a cached access token at once', async () => {
    const who = await registerAndSignIn(a);
    expect((await active(a, who)).statusCode).toBe(200);
    expect((await active(a, who)).statusCode).toBe(200);
    expect(
      (
        await a.inject({
          method: 'POST',
          url: '/api/Account/Logout',
          headers: { authorization: who.headers.authorization! },
        })
      ).statusCode,
    ).toBe(200);
    expect((await active(a, who)).statusCode).toBe(401);
    expect((await addVehicle(a, who)).statusCode).toBe(401);
  });

  it('a password change ends a cached access token at once; the new one works', async () => {
    const who = await registerAndSignIn(a);
    const other = { ...who };
    expect((await addVehicle(a, other)).statusCode).toBe(201);
    const res = await as(a, who, {
      method: 'POST',
      url: '/api/Account/ResetPassword',
      payload: { NewPassword: 'a new password 42' },
    });
    expect(res.statusCode).toBe(200);
    expect((await active(a, other)).statusCode).toBe(401);
    expect((await addVehicle(a, other)).statusCode).toBe(401);
    const fresh = {
      ...who,
      headers: { ...who.headers, authorization: `Bearer ${res.json<{ access_token: string }>().access_token}` },
    };
    expect((await active(a, fresh)).statusCode).toBe(200);
  });
});

if (process.env.TEST_DB === 'postgres') {
  // A second app instance on the same database: another server process, as far as the cache knows.
  const { app: b, database: second } = await secondApp(database);
  const seenB = recordStatements(second.db);

  describe('two processes on one PostgreSQL database', () => {
    it('a logout on A makes B refuse the old token within a second', async () => {
      const who = await registerAndSignIn(a);
      expect((await active(b, who)).statusCode).toBe(200);
      seenB.length = 0;
      expect((await active(b, who)).statusCode).toBe(200);
      expect(versionReads(seenB)).toBe(0);
      expect(
        (
          await a.inject({
            method: 'POST',
            url: '/api/Account/Logout',
            headers: { authorization: who.headers.authorization! },
          })
        ).statusCode,
      ).toBe(200);
      const started = Date.now();
      await expect.poll(async () => (await active(b, who)).statusCode, { timeout: 1000, interval: 5 }).toBe(401);
      console.log(`B refused the token ${Date.now() - started} ms after A's logout answered`);
      expect((await addVehicle(b, who)).statusCode).toBe(401);
    });

    it('with B’s LISTEN connection cut, B reads the database: no stale acceptance', async () => {
      const who = await registerAndSignIn(a);
      expect((await active(b, who)).statusCode).toBe(200);
      expect((await active(b, who)).statusCode).toBe(200);
      const before = b.notifications.generation;
      const name = (await queryRows<{ db: string }>(database.db, sql`select current_database() as db`))[0]!.db;
      const cut = await queryRows<{ ok: boolean }>(
        database.db,
        sql`select pg_terminate_backend(pid) as ok from pg_stat_activity where datname = ${name} and query ilike 'LISTEN%'`,
      );
      expect(cut.length).toBe(2);
      await expect.poll(() => b.notifications.generation, { timeout: 5000, interval: 5 }).not.toBe(before);
      // The logout's notification may be lost (B is not listening): B must not trust its entry.
      expect(
        (
          await a.inject({
            method: 'POST',
            url: '/api/Account/Logout',
            headers: { authorization: who.headers.authorization! },
          })
        ).statusCode,
      ).toBe(200);
      seenB.length = 0;
      expect((await active(b, who)).statusCode).toBe(401);
      expect(versionReads(seenB)).toBe(1);
      // Back up (a new generation): the old entry is read again, never trusted.
      await expect.poll(() => b.notifications.live, { timeout: 10_000 }).toBe(true);
      expect((await active(b, who)).statusCode).toBe(401);
      // And the cache serves again once LISTEN is up: a fresh member's second request reads nothing.
      const next = await registerAndSignIn(a);
      expect((await active(b, next)).statusCode).toBe(200);
      seenB.length = 0;
      expect((await active(b, next)).statusCode).toBe(200);
      expect(versionReads(seenB)).toBe(0);
    });
  });
}
