import { and, eq, isNull, sql } from 'drizzle-orm';
import { CITATION_MESSAGES as M, ENFORCEMENT_MESSAGES, type Citation } from '@parkit/contract';
import type { Db, Tx } from '../db/client.ts';
import { citations, violations, zones } from '../db/schema/index.ts';
import { audit, type Actor } from '../infra/audit-log.ts';
import { conflict, HttpError, notFound } from '../lib/http-error.ts';
import { observedMoment, rightToPark } from '../enforcement/index.ts';
import { bindFiles } from './file-store.ts';
import { citationPlate, getOperatorCitation } from './citation-view.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface IssueInput {
  ZoneId: number;
  PlateNumber: string;
  PlateState: string;
  ViolationId: number;
  Location: string;
  PhotoIds: string[];
  /** When the officer saw the vehicle (a citation written offline); absent: now. */
  ObservedAt?: string | undefined;
}

/**
 * Issues a citation, or refuses it (409) when a right to park covers the plate at this moment.
 * One transaction: the (zone, plate) advisory lock that a new parking session's insert also takes
 * (migration 0033's trigger), then the moment is read, then the right is looked for, then the row
 * and its photos are written. A Start that committed first is seen; one that commits after waits
 * for this transaction and its session begins after this citation (the trigger moves it), so no
 * citation stands at a moment a right covers. `clock` is read after the lock (tests pass one).
 */
export async function issueCitation(
  db: Db,
  operatorId: number,
  actor: Actor,
  input: IssueInput,
  clock: () => Date = () => new Date(),
): Promise<Citation> {
  const id = await db.transaction((tx) => issueCitationIn(tx, operatorId, actor, input, clock));
  return getOperatorCitation(db, operatorId, id);
}

/**
 * issueCitation's transaction, in the caller's (the Idempotency-Key's, for a citation sent from an
 * officer's offline queue). With `ObservedAt` the citation stands at that moment, and the right is
 * looked for then (a session ended since still counts for the moments it held): refused (400)
 * when it is ahead of the clock or more than 24 hours ago. Answers the citation's id.
 */
export async function issueCitationIn(
  tx: Tx,
  operatorId: number,
  actor: Actor,
  input: IssueInput,
  clock: () => Date = () => new Date(),
): Promise<number> {
  const plate = citationPlate(input.PlateNumber);
  const [zone] = await tx
    .select({ id: zones.id })
    .from(zones)
    .where(and(eq(zones.id, input.ZoneId), eq(zones.operatorId, operatorId)));
  if (!zone) throw notFound(M.zoneNotFound);
  const [violation] = await tx
    .select()
    .from(violations)
    .where(
      and(eq(violations.id, input.ViolationId), eq(violations.operatorId, operatorId), isNull(violations.retiredAt)),
    );
  if (!violation) throw notFound(M.violationNotFound);
  await tx.execute(sql`select pg_advisory_xact_lock(parking_right_lock_key(${zone.id}::int, ${plate}::text))`);
  const now = clock();
  const observed = observedMoment(input.ObservedAt, now, ENFORCEMENT_MESSAGES.observedTooOld);
  const at = observed ?? now;
  const right = await rightToPark(tx, { zoneId: zone.id, plate, at, pastMoment: at < now });
  if (right) throw new HttpError(409, M.rightCovers, [{ field: 'PlateNumber', message: M.rightCovers }]);
  const [row] = await tx
    .insert(citations)
    .values({
      operatorId,
      zoneId: zone.id,
      plate,
      plateState: input.PlateState,
      violationId: violation.id,
      fineCents: violation.fineCents,
      lateFeeCents: violation.lateFeeCents,
      officerId: actor.id,
      officerName: actor.name,
      issuedAt: at,
      location: input.Location,
      dueAt: new Date(at.getTime() + violation.dueDays * DAY_MS),
    })
    .returning({ id: citations.id });
  const photos = [...new Set(input.PhotoIds)];
  const bound = await bindFiles(tx, row!.id, photos, { kind: 'photo', uploadedBy: actor.id ?? -1, operatorId });
  if (bound !== photos.length) throw conflict('PhotoIds', M.photoNotFound);
  await audit(tx, {
    operatorId,
    actor,
    action: 'citation.issue',
    entity: 'citation',
    entityId: row!.id,
    before: null,
    after: {
      zoneId: zone.id,
      violation: violation.code,
      fineCents: violation.fineCents,
      issuedAt: at.toISOString(),
      ...(observed ? { sentAt: now.toISOString() } : {}),
    },
  });
  return row!.id;
}
