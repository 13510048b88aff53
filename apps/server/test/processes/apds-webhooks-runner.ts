import { openDatabase } from '../../src/db/client.ts';
import { createJobRunner } from '../../src/infra/jobs/job-runner.ts';
import { webhookSender } from '../../src/apds/index.ts';

/**
 * A second OS process running the APDS webhook job against one database (JOBS_DATABASE_URL), for
 * test/apds-webhooks-crash.test.ts: it connects, says "ready", then ticks every 20 ms until it is
 * killed. The lease (LEASE_MS) is short, so an event it claimed before being killed is due again
 * soon for the next process.
 */
const url = process.env.JOBS_DATABASE_URL;
if (!url) throw new Error('JOBS_DATABASE_URL is required');
const leaseMs = Number(process.env.LEASE_MS ?? 2000);
const database = await openDatabase({ url, poolSize: 4 });
const runner = createJobRunner(database.db, { error: (o: unknown) => process.stderr.write(`${String(o)}\n`) });
const quiet = { warn: () => {}, info: () => {} };
runner.register(
  'apds.webhooks',
  webhookSender({ currency: 'USD', privateOk: true, log: quiet, leaseMs, timeoutMs: leaseMs / 2, retryMs: 100 }),
);
process.stdout.write('ready\n');
for (;;) {
  await runner.runOnce();
  await new Promise((r) => setTimeout(r, 20));
}
