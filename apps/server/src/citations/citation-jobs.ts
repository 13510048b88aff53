import type { Db } from '../db/client.ts';
import { atMostEvery, type JobRunner } from '../infra/jobs/job-runner.ts';
import type { ChargeContext } from '../wallet/index.ts';
import { cancelCoveredCitations } from './citation-auto-cancel.ts';
import { applyLateFees } from './citation-dues.ts';

/** How often the automatic cancellation looks at every open citation again (each tick is cheaper). */
export const AUTO_CANCEL_EVERY_MS = 5 * 60_000;

/** The late fee after the due date (citation-dues.ts's applyLateFees: once per citation). */
export async function lateFeeJob(db: Db, now: Date): Promise<number> {
  return applyLateFees(db, now);
}

/** `wallet`: the provider a cancellation refunds a card payment through. */
export function registerCitationJobs(jobs: JobRunner, wallet: ChargeContext) {
  jobs.register('citations.late-fees', lateFeeJob);
  // A right found after the citation (citation-auto-cancel.ts): cancelled, refunded, the driver told.
  jobs.register(
    'citations.auto-cancel',
    atMostEvery(AUTO_CANCEL_EVERY_MS, (_db: Db, now: Date) => cancelCoveredCitations(wallet, now)),
  );
}
