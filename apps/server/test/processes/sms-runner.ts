import { openDatabase } from '../../src/db/client.ts';
import { createJobRunner } from '../../src/infra/jobs/job-runner.ts';
import { smsSender } from '../../src/infra/sms/sms-sender.ts';

/**
 * A second OS process running the SMS job against one database (JOBS_DATABASE_URL) and a Twilio
 * stand-in (SMS_GATEWAY_URL), for test/sms-sender-crash.test.ts: it connects, says "ready", then
 * ticks every 20 ms until it is killed.
 */
const url = process.env.JOBS_DATABASE_URL;
const gateway = process.env.SMS_GATEWAY_URL;
if (!url || !gateway) throw new Error('JOBS_DATABASE_URL and SMS_GATEWAY_URL are required');
const database = await openDatabase({ url, poolSize: 4 });
const runner = createJobRunner(database.db, { error: (o: unknown) => process.stderr.write(`${String(o)}\n`) });
const quiet = { warn: () => {}, info: () => {} };
runner.register(
  'outbox.sms',
  smsSender({
    apiUrl: gateway,
    accountSid: `AC${'b2'.repeat(16)}`,
    authToken: 'crash-test-auth-token',
    from: '+15125550100',
    log: quiet,
  }),
);
process.stdout.write('ready\n');
for (;;) {
  await runner.runOnce();
  await new Promise((r) => setTimeout(r, 20));
}
