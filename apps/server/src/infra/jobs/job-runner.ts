import fp from 'fastify-plugin';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';

/**
 * Background jobs, the server's one runner: parking's (parking-jobs.ts), the prune (prune.ts) and
 * the wallet's (app.ts) all run on its tick, one after the other. Each job claims its due rows with
 * `FOR UPDATE SKIP LOCKED` inside its own transaction, so any number of server processes on one
 * database run the same jobs without doing one row twice. A job returns how many rows it handled.
 */
export type Job = (db: Db, now: Date) => Promise<number>;

export interface JobRunner {
  /** Adds a job (name → function); registered jobs run on every tick, one after the other. */
  register(name: string, job: Job): void;
  /** Runs every job once now (tests and the tick). Errors are logged, never thrown: one bad job does not stop the others. */
  runOnce(now?: Date): Promise<Record<string, number>>;
}

declare module 'fastify' {
  interface FastifyInstance {
    jobs: JobRunner;
  }
}

/**
 * A job that does its work at most once every `everyMs` in this process, however short the tick
 * (judged by the `now` it is given); in between it handles nothing (0).
 */
export function atMostEvery(everyMs: number, job: Job): Job {
  let last = -Infinity;
  return async (db, now) => {
    if (now.getTime() - last < everyMs) return 0;
    last = now.getTime();
    return job(db, now);
  };
}

export function createJobRunner(db: Db, log: Pick<FastifyBaseLogger, 'error'>): JobRunner {
  const jobs = new Map<string, Job>();
  return {
    register(name, job) {
      if (jobs.has(name)) throw new Error(`job ${name} is registered twice`);
      jobs.set(name, job);
    },
    async runOnce(now = new Date()) {
      const done: Record<string, number> = {};
      for (const [name, job] of jobs) {
        try {
          done[name] = await job(db, now);
        } catch (err) {
          log.error({ err, job: name }, 'job failed');
          done[name] = 0;
        }
      }
      return done;
    },
  };
}

/**
 * `app.jobs`: the registry every feature adds its jobs to. With `intervalMs` > 0 the server runs
 * them on a timer (a tick never overlaps the previous one); tests pass 0 and call runOnce.
 */
export default fp<{ intervalMs: number }>(
  async (app, { intervalMs }) => {
    const runner = createJobRunner(app.db, app.log);
    app.decorate('jobs', runner);
    if (intervalMs <= 0) return;
    let running: Promise<unknown> | null = null;
    let timer: NodeJS.Timeout | null = null;
    app.addHook('onReady', async () => {
      timer = setInterval(() => {
        if (running) return;
        running = runner.runOnce().finally(() => {
          running = null;
        });
      }, intervalMs);
      timer.unref();
    });
    app.addHook('onClose', async () => {
      if (timer) clearInterval(timer);
      await running;
    });
  },
  { name: 'jobs', dependencies: ['db'] },
);
