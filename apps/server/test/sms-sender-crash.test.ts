import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/client.ts';
import { enqueue } from '../src/infra/outbox-repository.ts';
import { claimDueTexts } from '../src/infra/sms/sms-repository.ts';
import { smsSender } from '../src/infra/sms/sms-sender.ts';
import { freshDatabase } from './helpers.ts';
import { killMidBatch } from './support/kill-mid-batch.ts';
import { taken, twilioGateway } from './support/twilio-gateway.ts';

/**
 * The outbox's texts survive a crash mid-delivery (docs/operations.md#the-outbox). On PostgreSQL
 * the SMS job runs in a child process (test/processes/sms-runner.ts) that is killed with SIGKILL
 * while a batch is at the gateway, then started again: every text is taken by the gateway, and only
 * what was in flight at the kill arrives twice (at least once). The embedded PGlite lives in this
 * process only, so there the same claim is left unsettled in-process.
 */
const database = await freshDatabase();
afterAll(() => database.close());
const { db } = database;
const TEXTS = 40;
const phone = (i: number) => `51255502${String(i).padStart(2, '0')}`;
const expected = Array.from({ length: TEXTS }, (_, i) => `+1${phone(i)}`);

const RUNNER = join(dirname(fileURLToPath(import.meta.url)), 'processes/sms-runner.ts');

if (process.env.TEST_DB === 'postgres') {
  describe('the SMS job: kill -9 mid-batch', () => {
    it('loses no text and repeats only what was in flight', { timeout: 120_000 }, async () => {
      const crash = killMidBatch(RUNNER, 25);
      // Slow answers, so a batch is at the gateway when the kill comes.
      const gateway = await twilioGateway(() => {
        crash.onRequest();
        return 201;
      }, 100);
      try {
        for (let i = 0; i < TEXTS; i++) await enqueue(db, 'sms', phone(i), `Your ParkIt code is ${100000 + i}`);
        await crash.run(db, { SMS_GATEWAY_URL: gateway.url });
        await crash.firstKilled();
        const unsent = async () =>
          (await queryRows<{ n: number }>(db, sql`select count(*)::int as n from outbox where sent_at is null`))[0]!.n;
        // The kill left texts claimed and not marked: counted as tried, due again after the back-off.
        const left = await unsent();
        expect(left).toBeGreaterThan(0);
        // Their back-off made due now, as 30 s later would.
        await db.execute(sql`update outbox set next_attempt_at = now() where sent_at is null`);

        await crash.run(db, { SMS_GATEWAY_URL: gateway.url });
        await expect.poll(unsent, { timeout: 60_000, interval: 200 }).toBe(0);
        expect(
          taken(gateway.hits)
            .map((f) => f.To)
            .sort(),
        ).toEqual([...expected].sort());
        // At least once: only the texts in flight at the kill (at most one batch) came twice.
        const duplicates = gateway.hits.length - TEXTS;
        expect(duplicates).toBeGreaterThanOrEqual(0);
        expect(duplicates).toBeLessThanOrEqual(left);
        expect(left).toBeLessThanOrEqual(20);
      } finally {
        await crash.stop();
        await gateway.close();
      }
    });
  });
} else {
  describe('the SMS job: a worker that died mid-send', () => {
    it('leaves its claimed texts due again after the back-off, then each is sent', async () => {
      const gateway = await twilioGateway(() => 201);
      try {
        for (let i = 0; i < 3; i++) await enqueue(db, 'sms', phone(i), `Your ParkIt code is ${200000 + i}`);
        const now = new Date();
        // A process claims them and dies before it marks them.
        expect(await claimDueTexts(db, now, 10)).toHaveLength(3);
        const send = smsSender({
          apiUrl: gateway.url,
          accountSid: `AC${'c3'.repeat(16)}`,
          authToken: 'crash-test-auth-token',
          from: '+15125550100',
          log: { warn: () => {}, info: () => {} },
        });
        expect(await send(db, new Date(now.getTime() + 10_000))).toBe(0);
        expect(gateway.hits).toEqual([]);
        expect(await send(db, new Date(now.getTime() + 31_000))).toBe(3);
        expect(taken(gateway.hits).map((f) => f.To)).toEqual(expected.slice(0, 3));
      } finally {
        await gateway.close();
      }
    });
  });
}
