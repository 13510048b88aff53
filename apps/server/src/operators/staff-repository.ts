import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { OperatorMembership, OperatorRole, StaffMember } from '@parkit/contract';
import type { Executor, Tx } from '../db/client.ts';
import { members, operators, operatorStaff } from '../db/schema/index.ts';

/**
 * The member's role at each operator they work for (none: not staff). What lets them past the
 * operator scope at all, and their role at the operator a route names, in one read a request.
 */
export async function rolesOf(db: Executor, memberId: number): Promise<Map<number, OperatorRole>> {
  const rows = await db
    .select({ operatorId: operatorStaff.operatorId, role: operatorStaff.role })
    .from(operatorStaff)
    .where(eq(operatorStaff.memberId, memberId));
  return new Map(rows.map((r) => [r.operatorId, r.role as OperatorRole]));
}

/** The member's role at the operator, or null when they do not work for it. */
export async function roleAt(db: Executor, operatorId: number, memberId: number): Promise<OperatorRole | null> {
  const [row] = await db
    .select({ role: operatorStaff.role })
    .from(operatorStaff)
    .where(and(eq(operatorStaff.operatorId, operatorId), eq(operatorStaff.memberId, memberId)))
    .limit(1);
  return (row?.role as OperatorRole | undefined) ?? null;
}

/** The operators a member works for, by name. */
export async function membershipsOf(db: Executor, memberId: number): Promise<OperatorMembership[]> {
  const rows = await db
    .select({ OperatorId: operators.id, Name: operators.name, Role: operatorStaff.role })
    .from(operatorStaff)
    .innerJoin(operators, eq(operators.id, operatorStaff.operatorId))
    .where(eq(operatorStaff.memberId, memberId))
    .orderBy(asc(operators.name), asc(operators.id));
  return rows.map((r) => ({ ...r, Role: r.Role as OperatorRole }));
}

/** An operator's people, by name. */
export async function staffOf(db: Executor, operatorId: number): Promise<StaffMember[]> {
  const rows = await db
    .select({
      MemberId: members.id,
      UserName: members.userName,
      first: members.firstName,
      last: members.lastName,
      Role: operatorStaff.role,
      since: operatorStaff.createdAt,
    })
    .from(operatorStaff)
    .innerJoin(members, eq(members.id, operatorStaff.memberId))
    .where(eq(operatorStaff.operatorId, operatorId))
    .orderBy(asc(sql`lower(${members.userName})`));
  return rows.map((r) => ({
    MemberId: r.MemberId,
    UserName: r.UserName,
    Name: `${r.first} ${r.last}`.trim(),
    Role: r.Role as OperatorRole,
    Since: r.since.toISOString(),
  }));
}

/**
 * Locks the operator's row: every change of its people takes this lock first, so two changes of
 * one operator's people run one after the other (no race removes the last owner). False: no such
 * operator.
 */
export async function lockOperator(tx: Tx, operatorId: number): Promise<boolean> {
  const rows = await tx.select({ id: operators.id }).from(operators).where(eq(operators.id, operatorId)).for('update');
  return rows.length > 0;
}

/** How many owners the operator has (call with the operator locked). */
export async function ownerCount(tx: Tx, operatorId: number): Promise<number> {
  const [row] = await tx
    .select({ n: count() })
    .from(operatorStaff)
    .where(and(eq(operatorStaff.operatorId, operatorId), eq(operatorStaff.role, 'owner')));
  return row?.n ?? 0;
}

/** Adds the member with the role; an existing membership keeps its role. True when added. */
export async function addStaff(db: Executor, operatorId: number, memberId: number, role: OperatorRole) {
  const rows = await db
    .insert(operatorStaff)
    .values({ operatorId, memberId, role })
    .onConflictDoNothing()
    .returning({ m: operatorStaff.memberId });
  return rows.length > 0;
}

export async function setRole(tx: Tx, operatorId: number, memberId: number, role: OperatorRole): Promise<void> {
  await tx
    .update(operatorStaff)
    .set({ role })
    .where(and(eq(operatorStaff.operatorId, operatorId), eq(operatorStaff.memberId, memberId)));
}

export async function deleteStaff(tx: Tx, operatorId: number, memberId: number): Promise<void> {
  await tx
    .delete(operatorStaff)
    .where(and(eq(operatorStaff.operatorId, operatorId), eq(operatorStaff.memberId, memberId)));
}

/** Whether someone with this phone or (lower-case) e-mail already works for the operator. */
export async function contactIsStaff(db: Executor, operatorId: number, contact: string): Promise<boolean> {
  const rows = await db
    .select({ m: operatorStaff.memberId })
    .from(operatorStaff)
    .innerJoin(members, eq(members.id, operatorStaff.memberId))
    .where(
      and(
        eq(operatorStaff.operatorId, operatorId),
        sql`(${members.phone} = ${contact} or lower(${members.email}) = ${contact})`,
      ),
    )
    .limit(1);
  return rows.length > 0;
}
