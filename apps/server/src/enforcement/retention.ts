import { and, eq, lt, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { apdsAssignedRights, enforcementChecks, operators, permits, visitorDays } from '../db/schema/index.ts';
import { atMostEvery, type JobRunner } from '../infra/jobs/job-runner.ts';
import { anonymiseChalksBefore } from './chalk-repository.ts';
import { ANONYMISED_PLATE } from '../lib/plate.ts';

const WEEK_MS = 7 * 24 * 60 * 60 * 1000;
/** How often the retention job does its work (it is called on every jobs tick). */
export const RETENTION_EVERY_MS = 60 * 60_000;

/**
 * One kind of record whose plates the retention job anonymises: everything of the operator older
 * than the cutoff, once (a row already anonymised is left alone). Answers how many rows changed.
 */
export type AnonymiseBefore = (db: Db, operatorId: number, cutoff: Date) => Promise<number>;

/** The plate checks' log: the plate goes; who checked, where, when and the answer stay for reports. */
export const anonymiseChecksBefore: AnonymiseBefore = async (db, operatorId, cutoff) => {
  const rows = await db
    .update(enforcementChecks)
    .set({ plate: ANONYMISED_PLATE })
    .where(
      and(
        eq(enforcementChecks.operatorId, operatorId),
        lt(enforcementChecks.checkedAt, cutoff),
        ne(enforcementChecks.plate, ANONYMISED_PLATE),
      ),
    )
    .returning({ id: enforcementChecks.id });
  return rows.length;
};

/**
 * Permits expired before the cutoff, and applications refused before it: each plate becomes
 * ANONYMISED_PLATE (their number stays, as the type, zones, window, price, holder and the refusal's
 * reason do), and so do the plates of their visitor days.
 */
export const anonymisePermitsBefore: AnonymiseBefore = async (db, operatorId, cutoff) => {
  const expired = and(
    eq(permits.operatorId, operatorId),
    or(
      and(eq(permits.status, 'active'), lt(permits.validUntil, cutoff)),
      and(eq(permits.status, 'refused'), lt(permits.decidedAt, cutoff)),
    ),
  );
  const days = await db
    .update(visitorDays)
    .set({ plate: sql`${ANONYMISED_PLATE} || ${visitorDays.id}` })
    .where(
      and(
        eq(visitorDays.operatorId, operatorId),
        sql`left(${visitorDays.plate}, 1) <> ${ANONYMISED_PLATE}`,
        sql`${visitorDays.permitId} in (select ${permits.id} from ${permits} where ${expired})`,
      ),
    )
    .returning({ id: visitorDays.id });
  const rows = await db
    .update(permits)
    .set({ plates: sql`array_fill(${ANONYMISED_PLATE}::text, array[cardinality(${permits.plates})])` })
    .where(and(expired, sql`not (${permits.plates} <@ array[${ANONYMISED_PLATE}]::text[])`))
    .returning({ id: permits.id });
  return rows.length + days.length;
};

/**
 * APDS assigned rights that ended before the cutoff: their plates become ANONYMISED_PLATE, and so
 * does every credential's id as it was sent (a plate, or a card's or a token's number); the zone,
 * window and the creator's id stay.
 */
export const anonymiseAssignedRightsBefore: AnonymiseBefore = async (db, operatorId, cutoff) => {
  const a = apdsAssignedRights;
  const rows = await db
    .update(a)
    .set({
      plates: sql`array_fill(${ANONYMISED_PLATE}::text, array[cardinality(${a.plates})])`,
      credentials: sql`(select coalesce(jsonb_agg(jsonb_set(c, '{identifier,id}', to_jsonb(${ANONYMISED_PLATE}::text))), '[]'::jsonb)
                          from jsonb_array_elements(${a.credentials}) c)`,
    })
    .where(
      and(
        eq(a.operatorId, operatorId),
        lt(a.endsAt, cutoff),
        sql`not (${a.plates} <@ array[${ANONYMISED_PLATE}]::text[])`,
      ),
    )
    .returning({ id: a.id });
  return rows.length;
};

/**
 * Every kind of record the retention job anonymises, in order: plate checks, expired permits (and
 * refused applications) and their visitor days, the chalks (digital chalking's first sightings),
 * and the APDS assigned rights that ended.
 */
export const RETENTION_STEPS: AnonymiseBefore[] = [
  anonymiseChecksBefore,
  anonymisePermitsBefore,
  anonymiseChalksBefore,
  anonymiseAssignedRightsBefore,
];

/**
 * Anonymises the plates each operator keeps longer than its retention period
 * (operators.retention_weeks, 13 unless the owner changed it): the cutoff is `now` less that
 * many weeks, per operator. Each step is one UPDATE that skips rows already anonymised, so a
 * second run, or two processes at once, change nothing more. Answers how many rows changed.
 */
export async function anonymiseExpiredPlates(db: Db, now: Date): Promise<number> {
  const all = await db.select({ id: operators.id, weeks: operators.retentionWeeks }).from(operators);
  let changed = 0;
  for (const o of all) {
    const cutoff = new Date(now.getTime() - o.weeks * WEEK_MS);
    for (const step of RETENTION_STEPS) changed += await step(db, o.id, cutoff);
  }
  return changed;
}

export function registerEnforcementJobs(jobs: JobRunner) {
  jobs.register('enforcement.retention', atMostEvery(RETENTION_EVERY_MS, anonymiseExpiredPlates));
}
