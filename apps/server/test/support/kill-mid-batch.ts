import type { ChildProcess } from 'node:child_process';
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { queryRows, type Db } from '../../src/db/client.ts';
import { exited, startRunner } from './local-server.ts';

/**
 * The outboxes' crash tests (SMS, push, APDS webhooks; docs/operations.md#the-outbox): a job runner
 * (test/processes/*-runner.ts) on this test's PostgreSQL database, killed with SIGKILL while a batch
 * is at the stand-in service, then started again. `onRequest` goes in the stand-in's request handler:
 * the first run dies at the `killAtRequest`th request, with the rest of its batch in flight.
 */
export function killMidBatch(runner: string, killAtRequest: number) {
  const children: ChildProcess[] = [];
  let left = killAtRequest;
  return {
    onRequest: () => {
      if (--left === 0) children[0]!.kill('SIGKILL');
    },
    /** Starts the runner (again) on the test's database, with the stand-in's settings. */
    run: async (db: Db, env: Record<string, string> = {}) => {
      const [{ name } = { name: '' }] = await queryRows<{ name: string }>(db, sql`select current_database() as name`);
      const url = new URL(process.env.TEST_DATABASE_URL!);
      url.pathname = `/${name}`;
      children.push(await startRunner(runner, { JOBS_DATABASE_URL: url.toString(), ...env }));
    },
    /** Waits for the first run to end, and checks the kill ended it. */
    firstKilled: async () => {
      await exited(children[0]!);
      expect(children[0]!.signalCode).toBe('SIGKILL');
    },
    /** Stops every run still going (the test's `finally`). */
    stop: async () => {
      for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGTERM');
      await Promise.all(children.map(exited));
    },
  };
}
