import { and, asc, eq, sql } from 'drizzle-orm';
import { centsToAmount, CITATION_MESSAGES as M, type Violation } from '@parkit/contract';
import type { Db, Executor } from '../db/client.ts';
import { violations } from '../db/schema/index.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { audit, type Actor } from '../infra/audit-log.ts';
import { conflict, notFound } from '../lib/http-error.ts';

// An operator's violations list: what an officer may cite, each with its fine, due days and late fee.

const violationView = (v: typeof violations.$inferSelect): Violation => ({
  ViolationId: v.id,
  Code: v.code,
  Description: v.description,
  Fine: centsToAmount(v.fineCents),
  DueDays: v.dueDays,
  LateFee: centsToAmount(v.lateFeeCents),
  Retired: v.retiredAt !== null,
});

export async function listViolations(db: Executor, operatorId: number): Promise<Violation[]> {
  const rows = await db
    .select()
    .from(violations)
    .where(eq(violations.operatorId, operatorId))
    .orderBy(asc(violations.retiredAt), asc(violations.code));
  return rows.map(violationView);
}

export interface ViolationInput {
  Code: string;
  Description: string;
  Fine: number;
  DueDays: number;
  LateFee: number;
}

/** Adds a violation to the operator's list (a code once per operator, any case), audited. */
export async function createViolation(db: Db, operatorId: number, actor: Actor, v: ViolationInput): Promise<Violation> {
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(violations)
        .values({
          operatorId,
          code: v.Code,
          description: v.Description,
          fineCents: v.Fine,
          dueDays: v.DueDays,
          lateFeeCents: v.LateFee,
        })
        .returning();
      const out = violationView(row!);
      await audit(tx, {
        operatorId,
        actor,
        action: 'violation.create',
        entity: 'violation',
        entityId: row!.id,
        before: null,
        after: out,
      });
      return out;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('Code', M.codeTaken);
    throw err;
  }
}

/** Changes a violation; citations already issued keep the fine they were issued with. */
export async function updateViolation(
  db: Db,
  operatorId: number,
  actor: Actor,
  id: number,
  v: ViolationInput,
): Promise<Violation> {
  try {
    return await db.transaction(async (tx) => {
      const [before] = await tx
        .select()
        .from(violations)
        .where(and(eq(violations.id, id), eq(violations.operatorId, operatorId)))
        .for('update');
      if (!before) throw notFound(M.violationNotFound);
      const [row] = await tx
        .update(violations)
        .set({
          code: v.Code,
          description: v.Description,
          fineCents: v.Fine,
          dueDays: v.DueDays,
          lateFeeCents: v.LateFee,
        })
        .where(eq(violations.id, id))
        .returning();
      const out = violationView(row!);
      await audit(tx, {
        operatorId,
        actor,
        action: 'violation.update',
        entity: 'violation',
        entityId: id,
        before: violationView(before),
        after: out,
      });
      return out;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('Code', M.codeTaken);
    throw err;
  }
}

/** Retires a violation: no new citation names it; those issued keep it. */
export async function retireViolation(
  db: Db,
  operatorId: number,
  actor: Actor,
  id: number,
  now: Date,
): Promise<Violation> {
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select()
      .from(violations)
      .where(and(eq(violations.id, id), eq(violations.operatorId, operatorId)))
      .for('update');
    if (!before) throw notFound(M.violationNotFound);
    const [row] = await tx
      .update(violations)
      .set({ retiredAt: sql`coalesce(${violations.retiredAt}, ${now})` })
      .where(eq(violations.id, id))
      .returning();
    const out = violationView(row!);
    await audit(tx, {
      operatorId,
      actor,
      action: 'violation.retire',
      entity: 'violation',
      entityId: id,
      before: violationView(before),
      after: out,
    });
    return out;
  });
}
