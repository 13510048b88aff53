import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import app from '../src/app.ts';
import { createServer } from '../src/server-instance.ts';
import { applyMigrations } from '../src/db/client.ts';
import { ReferenceCache } from '../src/vehicles/reference-repository.ts';
import { defaultOperatorId } from '../src/zones/operator-repository.ts';
import { AccountDetails } from '@parkit/contract';
import { as, freshDatabase, registerAndSignIn, TEST_APP_CONFIG } from './helpers.ts';
import { migrationsCopy } from './support/migrations.ts';

// Makes, models, colors, states and the plans' names are served from memory. They change only with a
// migration, which runs before the app starts: a process started after a migration that changes
// them serves the new lists; the lists are never read from the database per request.
const database = await freshDatabase();
const started: FastifyInstance[] = [];
// The apps first (each holds pool connections), then the database.
afterAll(async () => {
  for (const a of started) await a.close();
  await database.close();
});
await defaultOperatorId(database.db);

async function start(): Promise<FastifyInstance> {
  const instance = createServer({ LOG_LEVEL: 'silent', TRUST_PROXY: false });
  await instance.register(app, {
    // DEV_OUTBOX: the test signs a driver in with the code from the outbox.
    config: {
      ...TEST_APP_CONFIG,
      DEV_OUTBOX: true,
    },
    database,
  });
  await instance.ready();
  started.push(instance);
  return instance;
}

/** The app's migrations plus one more that changes every list, applied as a deploy would. */
async function migrateWithNewLists() {
  const folder = migrationsCopy((entries, dir) => {
    const last = entries.at(-1)!;
    const tag = `${String(last.idx + 1).padStart(4, '0')}_test_lists`;
    writeFileSync(
      join(dir, `${tag}.sql`),
      [
        "INSERT INTO vehicle_makes (id, name) VALUES (990001, 'Zephyrmobile');",
        "INSERT INTO vehicle_models (id, make_id, name) VALUES (990002, 990001, 'Breeze');",
        "UPDATE vehicle_colors SET name = 'Sky Blue' WHERE id = (SELECT min(id) FROM vehicle_colors);",
        "INSERT INTO us_states (code, name) VALUES ('PR', 'Puerto Rico');",
        "UPDATE plans SET name = 'Basic Plus' WHERE code = 'basic';",
      ].join('\n--> statement-breakpoint\n'),
    );
    return [...entries, { ...last, idx: last.idx + 1, when: last.when + 1, tag }];
  });
  await applyMigrations(database, folder);
}

const get = async (a: FastifyInstance, url: string) => (await a.inject({ method: 'GET', url })).json<unknown>();

describe('reference lists in memory', () => {
  it('a process started after a migration serves the changed lists; one started before keeps the lists it read', async () => {
    const before = await start();
    const makes = (await get(before, '/api/Vehicle/Makes')) as { PVID: number; PvValue: string }[];
    expect(makes.some((m) => m.PvValue === 'Zephyrmobile')).toBe(false);
    const colors = await get(before, '/api/Vehicle/Colors');
    const states = await get(before, '/api/Core/States');
    expect(states).not.toContain('PR');
    const driver = await registerAndSignIn(before);
    const planName = async (a: FastifyInstance) =>
      AccountDetails.parse((await as(a, driver, { method: 'GET', url: '/api/Account/Details' })).json()).Plan.Name;
    const basicName = await planName(before);
    expect(basicName).not.toBe('Basic Plus');

    await migrateWithNewLists();

    const after = await start();
    expect(await get(after, '/api/Vehicle/Makes')).toContainEqual({ PVID: 990001, PvValue: 'Zephyrmobile' });
    expect(await get(after, '/api/Vehicle/Models/990001')).toEqual([{ PVID: 990002, PvValue: 'Breeze' }]);
    expect(((await get(after, '/api/Vehicle/Colors')) as { PvDescription: string }[])[0]).toEqual({
      PvDescription: 'Sky Blue',
    });
    expect(await get(after, '/api/Core/States')).toContain('PR');
    // The plans too (GET /api/Account/Details names the member's plan from memory).
    expect(await planName(after)).toBe('Basic Plus');

    // The earlier process answers from memory: not one list was read again.
    expect(await get(before, '/api/Vehicle/Makes')).toEqual(makes);
    expect(await get(before, '/api/Vehicle/Colors')).toEqual(colors);
    expect(await get(before, '/api/Core/States')).toEqual(states);
    expect(await planName(before)).toBe(basicName);
    expect((await before.inject({ method: 'GET', url: '/api/Vehicle/Models/990001' })).statusCode).toBe(404);
  });

  it('names a plan added after the lists were read from the database, not a 500', async () => {
    const cache = new ReferenceCache();
    const basic = await cache.plan(database.db, null);
    expect(basic.code).toBe('basic');
    await database.db.execute(
      sql`INSERT INTO plans (id, code, name, price_cents, convenience_fee_cents) VALUES (990010, 'gold', 'Gold', 1500, 0)`,
    );
    expect(await cache.plan(database.db, 990010)).toEqual({ id: 990010, code: 'gold', name: 'Gold' });
    await expect(cache.plan(database.db, 990011)).rejects.toThrow('plan 990011 does not exist');
  });
});
