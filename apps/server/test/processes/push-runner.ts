import webpush from 'web-push';
import { openDatabase } from '../../src/db/client.ts';
import { createJobRunner } from '../../src/infra/jobs/job-runner.ts';
import { pushSender } from '../../src/infra/push/push-sender.ts';

/**
 * A second OS process running the push job against one database (JOBS_DATABASE_URL), trusting a
 * stand-in push service's certificate (WEB_PUSH_CA), for test/push-sender-crash.test.ts: it
 * connects, says "ready", then ticks every 20 ms until it is killed.
 */
const url = process.env.JOBS_DATABASE_URL;
const ca = process.env.WEB_PUSH_CA;
if (!url || !ca) throw new Error('JOBS_DATABASE_URL and WEB_PUSH_CA are required');
const database = await openDatabase({ url, poolSize: 4 });
const runner = createJobRunner(database.db, { error: (o: unknown) => process.stderr.write(`${String(o)}\n`) });
runner.register(
  'push.send',
  pushSender({
    vapid: webpush.generateVAPIDKeys(),
    subject: 'mailto:crash-test@example.test',
    ca,
    log: { warn: () => {}, info: () => {} },
  }),
);
process.stdout.write('ready\n');
for (;;) {
  await runner.runOnce();
  await new Promise((r) => setTimeout(r, 20));
}
