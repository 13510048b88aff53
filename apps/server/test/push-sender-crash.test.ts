import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import webpush from 'web-push';
import { afterAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/client.ts';
import { members } from '../src/db/schema/index.ts';
import { claimDue, enqueueForMember, subscribe } from '../src/infra/push/push-repository.ts';
import { pushSender } from '../src/infra/push/push-sender.ts';
import { defaultOperatorId } from '../src/zones/operator-repository.ts';
import { freshDatabase } from './helpers.ts';
import { browserKeys, decryptPush, fakePushService, type PushRequest } from './push/fake-push-service.ts';
import { killMidBatch } from './support/kill-mid-batch.ts';

/**
 * Push notifications leave through their outbox (push_messages, infra/push/README.md) and survive a
 * crash mid-delivery, as the SMS outbox does (sms-sender-crash.test.ts). On PostgreSQL the push job
 * runs in a child process (test/processes/push-runner.ts) that is killed with SIGKILL while a batch
 * is at the push service, then started again: every message arrives, and only what was in flight
 * at the kill arrives twice (at least once; the service worker shows one notification per tag).
 * The embedded PGlite lives in this process only, so there the same claim is left unsettled.
 */
const database = await freshDatabase();
afterAll(() => database.close());
const { db } = database;
const MESSAGES = 40;
const RUNNER = join(dirname(fileURLToPath(import.meta.url)), 'processes/push-runner.ts');

/** A member with one subscribed browser at the stand-in service, and `n` messages queued for it. */
async function queued(origin: string, n: number) {
  const [member] = await db
    .insert(members)
    .values({
      clientId: await defaultOperatorId(db),
      userName: `push_crash_${Date.now()}`,
      email: `push.crash.${Date.now()}@example.com`,
      phone: `512555${String(Date.now()).slice(-4)}`,
      passwordHash: 'x',
    })
    .returning({ id: members.id });
  const keys = browserKeys();
  await subscribe(db, member!.id, { endpoint: `${origin}/push/crash`, ...keys.json, language: 'en' });
  const now = new Date();
  for (let i = 0; i < n; i++)
    await enqueueForMember(
      db,
      member!.id,
      { en: `message ${i}`, hi: `संदेश ${i}`, es: `mensaje ${i}` },
      { now, expiresAt: new Date(now.getTime() + 3_600_000) },
    );
  return keys;
}

const unsent = async () =>
  (await queryRows<{ n: number }>(db, sql`select count(*)::int as n from push_messages`))[0]!.n;

if (process.env.TEST_DB === 'postgres') {
  describe('the push job: kill -9 mid-batch', () => {
    it('loses no notification and repeats only what was in flight', { timeout: 120_000 }, async () => {
      const crash = killMidBatch(RUNNER, 25);
      // Slow answers, so a batch is at the push service when the kill comes.
      const service = await fakePushService({ delayMs: 100, onRequest: crash.onRequest });
      try {
        const keys = await queued(service.origin, MESSAGES);
        const env = { WEB_PUSH_CA: service.ca };
        await crash.run(db, env);
        await crash.firstKilled();
        // The kill left messages claimed and not removed: counted as tried, due again after the back-off.
        const left = await unsent();
        expect(left).toBeGreaterThan(0);
        await db.execute(sql`update push_messages set next_attempt_at = now()`);

        await crash.run(db, env);
        await expect.poll(unsent, { timeout: 60_000, interval: 200 }).toBe(0);
        const texts = (r: PushRequest[]) => r.map((p) => decryptPush(p.body, keys));
        expect([...new Set(texts(service.requests))].sort()).toEqual(
          Array.from({ length: MESSAGES }, (_, i) => `message ${i}`).sort(),
        );
        // At least once: only the messages in flight at the kill (at most one batch) came twice.
        const duplicates = service.requests.length - MESSAGES;
        expect(duplicates).toBeGreaterThanOrEqual(0);
        expect(duplicates).toBeLessThanOrEqual(left);
        expect(left).toBeLessThanOrEqual(20);
      } finally {
        await crash.stop();
        await service.close();
      }
    });
  });
} else {
  describe('the push job: a worker that died mid-send', () => {
    it('leaves its claimed messages due again after the back-off, then each is sent once', async () => {
      const service = await fakePushService();
      try {
        const keys = await queued(service.origin, 3);
        const now = new Date();
        // A process claims them and dies before it sends them.
        expect(await claimDue(db, now, 10)).toHaveLength(3);
        const send = pushSender({
          vapid: webpush.generateVAPIDKeys(),
          subject: 'mailto:crash-test@example.test',
          ca: service.ca,
          log: { warn: () => {}, info: () => {} },
        });
        expect(await send(db, new Date(now.getTime() + 10_000))).toBe(0);
        expect(service.requests).toEqual([]);
        expect(await send(db, new Date(now.getTime() + 31_000))).toBe(3);
        expect(service.requests.map((r) => decryptPush(r.body, keys)).sort()).toEqual([
          'message 0',
          'message 1',
          'message 2',
        ]);
        expect(await unsent()).toBe(0);
      } finally {
        await service.close();
      }
    });
  });
}
