import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { CallBack, CallBackStatus, ConsoleCallBack } from '@parkit/contract';
import { queryRows, type Executor } from '../db/client.ts';
import { members, supportCallBacks } from '../db/schema/index.ts';

const columns = {
  CallBackId: supportCallBacks.id,
  MemberId: supportCallBacks.memberId,
  Phone: supportCallBacks.phone,
  Date: supportCallBacks.slotDate,
  Time: supportCallBacks.slotTime,
  scheduledAt: supportCallBacks.scheduledAt,
  Status: supportCallBacks.status,
  createdAt: supportCallBacks.createdAt,
};
type Row = {
  CallBackId: number;
  MemberId: number;
  Phone: string;
  Date: string;
  Time: string;
  scheduledAt: Date;
  Status: string;
  createdAt: Date;
};

const toCallBack = ({ scheduledAt, createdAt, Status, MemberId: _m, ...r }: Row): CallBack => ({
  ...r,
  Status: Status as CallBackStatus,
  ScheduledAt: new Date(scheduledAt).toISOString(),
  CreatedAt: new Date(createdAt).toISOString(),
});

/** The member's requests: open ones first by slot, then the closed ones, newest first. */
export async function listByMember(db: Executor, memberId: number): Promise<CallBack[]> {
  const rows = await db
    .select(columns)
    .from(supportCallBacks)
    .where(eq(supportCallBacks.memberId, memberId))
    .orderBy(
      sql`${supportCallBacks.status} = 'open' desc`,
      sql`case when ${supportCallBacks.status} = 'open' then ${supportCallBacks.scheduledAt} end asc`,
      desc(supportCallBacks.id),
    )
    .limit(50);
  return rows.map(toCallBack);
}

export async function countOpen(db: Executor, memberId: number): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from support_callbacks where member_id = ${memberId} and status = 'open'`,
  );
  return Number(row?.n ?? 0);
}

export async function slotTaken(db: Executor, memberId: number, at: Date): Promise<boolean> {
  const rows = await db
    .select({ id: supportCallBacks.id })
    .from(supportCallBacks)
    .where(
      and(
        eq(supportCallBacks.memberId, memberId),
        eq(supportCallBacks.scheduledAt, at),
        eq(supportCallBacks.status, 'open'),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

export async function insert(
  db: Executor,
  memberId: number,
  v: { phone: string; date: string; time: string; at: Date },
): Promise<CallBack> {
  const [row] = await db
    .insert(supportCallBacks)
    .values({ memberId, phone: v.phone, slotDate: v.date, slotTime: v.time, scheduledAt: v.at })
    .returning(columns);
  if (!row) throw new Error('insert returned no row');
  return toCallBack(row);
}

/** The console's queue: open requests by slot, then the 50 most recently closed. */
export async function queue(db: Executor): Promise<ConsoleCallBack[]> {
  const select = { ...columns, UserName: members.userName, first: members.firstName, last: members.lastName };
  const open = await db
    .select(select)
    .from(supportCallBacks)
    .innerJoin(members, eq(members.id, supportCallBacks.memberId))
    .where(eq(supportCallBacks.status, 'open'))
    .orderBy(asc(supportCallBacks.scheduledAt), asc(supportCallBacks.id))
    .limit(200);
  const closed = await db
    .select(select)
    .from(supportCallBacks)
    .innerJoin(members, eq(members.id, supportCallBacks.memberId))
    .where(sql`${supportCallBacks.status} <> 'open'`)
    .orderBy(desc(supportCallBacks.closedAt))
    .limit(50);
  return [...open, ...closed].map(({ UserName, first, last, ...r }) => ({
    ...toCallBack(r),
    MemberId: r.MemberId,
    UserName,
    Name: `${first} ${last}`.trim(),
  }));
}

export async function findForConsole(db: Executor, id: number): Promise<(CallBack & { MemberId: number }) | null> {
  const [row] = await db.select(columns).from(supportCallBacks).where(eq(supportCallBacks.id, id)).limit(1);
  return row ? { ...toCallBack(row), MemberId: row.MemberId } : null;
}

/** Closes an open request; null when there is none with that id, 'closed' when already closed. */
export async function close(
  db: Executor,
  id: number,
  status: 'called' | 'no_answer',
  agentId: number,
): Promise<'closed' | CallBack | null> {
  const [row] = await db
    .update(supportCallBacks)
    .set({ status, closedBy: agentId, closedAt: sql`now()` })
    .where(and(eq(supportCallBacks.id, id), eq(supportCallBacks.status, 'open')))
    .returning(columns);
  if (row) return toCallBack(row);
  const exists = await db
    .select({ id: supportCallBacks.id })
    .from(supportCallBacks)
    .where(eq(supportCallBacks.id, id))
    .limit(1);
  return exists.length > 0 ? 'closed' : null;
}
