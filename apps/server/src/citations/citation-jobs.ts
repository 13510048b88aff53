import type { Db } from '../db/client.ts';
import type { JobRunner } from '../infra/jobs/job-runner.ts';
import { applyLateFees } from './citation-repository.ts';

/** The late fee after the due date (citation-repository.ts's applyLateFees: once per citation). */
export async function lateFeeJob(db: Db, now: Date): Promise<number> {
  return applyLateFees(db, now);
}

export function registerCitationJobs(jobs: JobRunner) {
  jobs.register('citations.late-fees', lateFeeJob);
}
