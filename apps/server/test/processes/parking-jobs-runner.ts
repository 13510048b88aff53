import { createInterface } from 'node:readline';
import { openDatabase } from '../../src/db/client.ts';
import { createJobRunner } from '../../src/infra/jobs/job-runner.ts';
import { registerParkingJobs } from '../../src/parking/parking-jobs.ts';

/**
 * A second OS process running the server's job runner with parking's jobs against one database
 * (JOBS_DATABASE_URL), for test/parking-jobs.test.ts: it connects, says "ready", waits for "go" on
 * stdin (so two of them tick at the same moment), runs every job RUNS times (default 2), prints
 * what each run handled as one JSON line and exits.
 */
const url = process.env.JOBS_DATABASE_URL;
if (!url) throw new Error('JOBS_DATABASE_URL is required');
const database = await openDatabase({ url, poolSize: 4 });
const errors: string[] = [];
const runner = createJobRunner(database.db, {
  error: (o: unknown) => errors.push(String((o as { err?: Error }).err?.message ?? o)),
});
registerParkingJobs(runner);
process.stdout.write('ready\n');
const lines = createInterface({ input: process.stdin });
for await (const line of lines) if (line.trim() === 'go') break;
const runs: Record<string, number>[] = [];
for (let i = 0; i < Number(process.env.RUNS ?? 2); i++) runs.push(await runner.runOnce());
process.stdout.write(`${JSON.stringify({ pid: process.pid, runs, errors })}\n`);
await database.close();
process.exit(0);
