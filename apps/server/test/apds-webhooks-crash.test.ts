import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { queryRows, type Db } from '../src/db/client.ts';
import { claimDue } from '../src/apds/apds-webhook-outbox.ts';
import { subscribe, webhookSender } from '../src/apds/index.ts';
import { defaultOperatorId } from '../src/zones/index.ts';
import { freshDatabase } from './helpers.ts';
import { addZone } from './parking-helpers.ts';
import { killMidBatch } from './support/kill-mid-batch.ts';
import { accepted, webhookReceiver, type Hit } from './support/webhook-receiver.ts';

/**
 * The webhook outbox survives a crash mid-delivery (docs/decisions/016-webhook-outbox.md). On
 * PostgreSQL the job runs in a child process (test/processes/apds-webhooks-runner.ts) that is
 * killed with SIGKILL while a batch is being delivered, then started again: every event arrives,
 * in order per subscription, and only what was in flight at the kill arrives twice. The embedded
 * PGlite lives in this process only, so there the same claim is left unsettled in-process.
 */
const database = await freshDatabase();
afterAll(() => database.close());
const { db } = database;
const A = await defaultOperatorId(db);
const zone = await addZone(db, 'WHK1');
const SESSIONS = 20;
const PATHS = ['/s0', '/s1', '/s2'];

/** One session inserted per statement, as Start does: the trigger writes its events. */
async function sessions(d: Db, n: number, tag: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const [row] = await queryRows<{ id: number }>(
      d,
      sql`insert into parking_sessions (guest_phone, operator_id, zone_id, vehicle_make, vehicle_model, plate, plate_state,
            started_at, ends_at, duration_minutes, initial_minutes, rate_cents, parking_cents, fee_cents, paid_via)
          values ('5125550100', ${A}, ${zone}, 'TOYOTA', 'CAMRY', ${`${tag} ${i}`}, 'TX', now(), now() + interval '1 hour',
            60, 60, 200, 200, 0, 'Card')
          returning id`,
    );
    ids.push(`session-${row!.id}`);
  }
  return ids;
}

/** Every event of every path arrived, in order; answers how many arrived more than once. */
function expectAllInOrder(hits: Hit[], expected: string[]): number {
  let duplicates = 0;
  for (const path of PATHS) {
    expect(
      accepted(hits, path).map((e) => e.objectId),
      path,
    ).toEqual(expected);
    duplicates += hits.filter((h) => h.path === path).length - expected.length;
  }
  return duplicates;
}

const RUNNER = join(dirname(fileURLToPath(import.meta.url)), 'processes/apds-webhooks-runner.ts');

if (process.env.TEST_DB === 'postgres') {
  describe('APDS webhooks: kill -9 of the worker mid-batch', () => {
    it(
      'loses nothing, keeps each subscription’s order, and repeats only what was in flight',
      { timeout: 120_000 },
      async () => {
        const crash = killMidBatch(RUNNER, 15);
        // Slow answers, so a batch (one event per subscription) is in flight when the kill comes.
        const receiver = await webhookReceiver(() => {
          crash.onRequest();
          return 200;
        }, 150);
        try {
          for (const path of PATHS)
            await subscribe(db, A, { endpoint: `${receiver.url}${path}`, topics: ['SessionCreated'] }, true);
          const expected = await sessions(db, SESSIONS, 'KILL');
          await crash.run(db, { LEASE_MS: '2000' });
          await crash.firstKilled();
          // The kill left claimed events: counted as tried, not delivered, due again after the lease.
          const claimed = await queryRows<{ n: number }>(
            db,
            sql`select count(*)::int as n from apds_webhook_deliveries where attempts > 0 and next_attempt_at > now()`,
          );
          expect(claimed[0]!.n).toBeGreaterThan(0);
          const before = receiver.hits.length;
          expect(before).toBeLessThan(SESSIONS * PATHS.length);

          await crash.run(db, { LEASE_MS: '2000' });
          await expect
            .poll(
              async () =>
                (await queryRows<{ n: number }>(db, sql`select count(*)::int as n from apds_webhook_deliveries`))[0]!.n,
              { timeout: 60_000, interval: 200 },
            )
            .toBe(0);
          const duplicates = expectAllInOrder(receiver.hits, expected);
          // At least once: only the events in flight at the kill (at most one per subscription) came twice.
          expect(duplicates).toBeLessThanOrEqual(PATHS.length);
        } finally {
          await crash.stop();
          await receiver.close();
        }
      },
    );
  });
} else {
  describe('APDS webhooks: a worker that died mid-delivery', () => {
    it('leaves its claimed events due again after the lease, then each is sent, in order', async () => {
      const receiver = await webhookReceiver(() => 200);
      try {
        await subscribe(db, A, { endpoint: `${receiver.url}/s0`, topics: ['SessionCreated'] }, true);
        const expected = await sessions(db, 3, 'DIED');
        const now = new Date();
        // A process claims the head and dies before it settles it.
        expect(await claimDue(db, now, 10, 60_000)).toHaveLength(1);
        const send = webhookSender({ currency: 'USD', privateOk: true, log: { warn: () => {}, info: () => {} } });
        expect(await send(db, new Date(now.getTime() + 30_000))).toBe(0);
        expect(receiver.hits).toEqual([]);
        expect(await send(db, new Date(now.getTime() + 61_000))).toBe(3);
        expect(accepted(receiver.hits, '/s0').map((e) => e.objectId)).toEqual(expected);
      } finally {
        await receiver.close();
      }
    });
  });
}
