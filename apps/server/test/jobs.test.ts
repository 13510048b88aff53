import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/client.ts';
import { atMostEvery } from '../src/infra/jobs/job-runner.ts';
import { buildTestApp, registerAndSignIn } from './helpers.ts';

// One job runner: the wallet's jobs run on the runner's tick (app.ts), not on a timer of their own.
describe('the one job runner', () => {
  it('atMostEvery: does the work on the first tick, then not again until its interval has passed', async () => {
    const runs: number[] = [];
    const job = atMostEvery(60_000, async (_db, now) => {
      runs.push(now.getTime());
      return 3;
    });
    const at = (ms: number) => new Date(Date.UTC(2026, 10, 27) + ms);
    const db = null as never;
    expect([
      await job(db, at(0)),
      await job(db, at(15_000)),
      await job(db, at(59_999)),
      await job(db, at(60_000)),
      await job(db, at(75_000)),
    ]).toEqual([3, 0, 0, 3, 0]);
    expect(runs).toEqual([at(0).getTime(), at(60_000).getTime()]);
  });

  it(
    "holds the wallet's jobs outside tests, and runs them: an expired idempotency key is purged",
    { timeout: 120_000 },
    async () => {
      const { app, database } = await buildTestApp(
        { NODE_ENV: 'production', WALLET_JOB_INTERVAL_MS: 60_000 },
        { decorations: true },
      );
      const who = await registerAndSignIn(app);
      await database.db.execute(sql`
      INSERT INTO idempotency_keys (member_id, key, request_hash, created_at)
      VALUES (${who.memberId}, 'jobs-test-old', 'x', now() - interval '30 days')`);
      const done = await app.jobs.runOnce(new Date());
      expect(Object.keys(done)).toEqual([
        'parking.auto-extend',
        'parking.reminders',
        'parking.expiry',
        'parking.forget-cards',
        'citations.late-fees',
        'citations.auto-cancel',
        'reports.fold-rollups',
        'enforcement.retention',
        'prune.expired',
        'push.send',
        'apds.webhooks',
        'wallet',
      ]);
      const left = await queryRows<{ n: number }>(
        database.db,
        sql`SELECT count(*)::int AS n FROM idempotency_keys WHERE key = 'jobs-test-old'`,
      );
      expect(left[0]!.n).toBe(0);
    },
  );

  it(
    "leaves the wallet's jobs out of a test app, and out when WALLET_JOB_INTERVAL_MS is 0",
    { timeout: 120_000 },
    async () => {
      for (const overrides of [{}, { NODE_ENV: 'production', WALLET_JOB_INTERVAL_MS: 0 }] as const) {
        const { app } = await buildTestApp(overrides, { decorations: true });
        expect(Object.keys(await app.jobs.runOnce(new Date()))).not.toContain('wallet');
      }
    },
  );
});
