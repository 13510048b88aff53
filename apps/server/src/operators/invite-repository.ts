import { and, desc, eq, gt, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { OperatorRole, PendingInvite } from '@parkit/contract';
import type { Executor, Tx } from '../db/client.ts';
import { operatorInvites } from '../db/schema/index.ts';

/** Wrong codes an invitation takes before it stops working. */
export const INVITE_ATTEMPTS = 5;
/** How long an invitation code works. */
export const INVITE_DAYS = 7;

export type InviteRow = typeof operatorInvites.$inferSelect;

const open = () =>
  and(
    isNull(operatorInvites.acceptedAt),
    isNull(operatorInvites.revokedAt),
    gt(operatorInvites.expiresAt, sql`now()`),
    lt(operatorInvites.attempts, INVITE_ATTEMPTS),
  );

export async function insertInvite(
  db: Executor,
  row: { operatorId: number; contact: string; role: OperatorRole; codeHash: string; invitedBy: number | null },
): Promise<InviteRow> {
  const [made] = await db
    .insert(operatorInvites)
    .values({ ...row, expiresAt: sql`now() + make_interval(days => ${INVITE_DAYS})` })
    .returning();
  return made!;
}

/** The operator's invitations still waiting for their code, newest first. */
export async function pendingInvites(db: Executor, operatorId: number): Promise<PendingInvite[]> {
  const rows = await db
    .select()
    .from(operatorInvites)
    .where(and(eq(operatorInvites.operatorId, operatorId), open()))
    .orderBy(desc(operatorInvites.id))
    .limit(200);
  return rows.map((r) => ({
    InviteId: r.id,
    Contact: r.contact,
    Role: r.role as OperatorRole,
    ExpiresAt: r.expiresAt.toISOString(),
    CreatedAt: r.createdAt.toISOString(),
  }));
}

/** The open invitations to any of these contacts, locked until the transaction ends. */
export async function lockOpenInvites(tx: Tx, contacts: string[]): Promise<InviteRow[]> {
  return tx
    .select()
    .from(operatorInvites)
    .where(and(inArray(operatorInvites.contact, contacts), open()))
    .orderBy(operatorInvites.id)
    .for('update');
}

export async function markAccepted(tx: Tx, id: number, memberId: number): Promise<void> {
  await tx
    .update(operatorInvites)
    .set({ acceptedAt: sql`now()`, acceptedBy: memberId })
    .where(eq(operatorInvites.id, id));
}

export async function countWrongCode(tx: Tx, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await tx
    .update(operatorInvites)
    .set({ attempts: sql`${operatorInvites.attempts} + 1` })
    .where(inArray(operatorInvites.id, ids));
}

/** Withdraws an open invitation of the operator: its row as it was, or null (none such, or not open). */
export async function revokeInvite(tx: Tx, operatorId: number, inviteId: number): Promise<InviteRow | null> {
  const [row] = await tx
    .update(operatorInvites)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(operatorInvites.id, inviteId), eq(operatorInvites.operatorId, operatorId), open()))
    .returning();
  return row ?? null;
}
