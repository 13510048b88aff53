import { asc, eq, sql, type SQL } from 'drizzle-orm';
import { centsToAmount, type PlanSummary } from '@parkit/contract';
import type { Executor } from '../db/client.ts';
import { plans } from '../db/schema/index.ts';

export type Plan = typeof plans.$inferSelect;
export const BASIC_PLAN_CODE = 'basic';

/** A plan as GET /api/Account/Details names it (the reference lists keep one per plan). */
export interface PlanName {
  id: number;
  code: string;
  name: string;
}

export async function listPlans(db: Executor): Promise<Plan[]> {
  return db.select().from(plans).orderBy(asc(plans.sortOrder), asc(plans.id));
}

export async function basicPlan(db: Executor): Promise<Plan> {
  const [p] = await db.select().from(plans).where(eq(plans.code, BASIC_PLAN_CODE));
  if (!p) throw new Error('the Basic plan is missing (migration wallet_data)');
  return p;
}

/**
 * The id of the member's plan now, as SQL (the member's id as SQL: a value or a column of the
 * statement it is part of): the active subscription's, else Basic. planForMember reads it, and
 * parking's one-statement quote (parking/quote-statement.ts) embeds it.
 */
export function memberPlanIdSql(memberId: SQL): SQL {
  return sql`coalesce(
      (select s.plan_id from subscriptions s where s.member_id = ${memberId} and s.status = 'active' limit 1),
      (select p.id from plans p where p.code = ${BASIC_PLAN_CODE}))`;
}

/** The member's plan now: the active subscription's, else Basic. */
export async function planForMember(db: Executor, memberId: number): Promise<Plan> {
  const [row] = await db
    .select()
    .from(plans)
    .where(sql`${plans.id} = ${memberPlanIdSql(sql`${memberId}::int`)}`);
  if (!row) throw new Error('the Basic plan is missing (migration wallet_data)');
  return row;
}

/** What parking adds to a session for this member (Basic 35, Deluxe 0), in cents. */
export async function convenienceFeeCents(db: Executor, memberId: number): Promise<number> {
  return (await planForMember(db, memberId)).convenienceFeeCents;
}

/** The member's plan's discount on zone rates, in percent (apply only where the operator allows it). */
export async function zoneDiscountPercent(db: Executor, memberId: number): Promise<number> {
  return (await planForMember(db, memberId)).zoneDiscountPercent;
}

/** A plan on the wire. */
export const toPlan = (p: Plan): PlanSummary => ({
  PlanId: p.id,
  Code: p.code,
  Name: p.name,
  Price: centsToAmount(p.priceCents),
  ConvenienceFee: centsToAmount(p.convenienceFeeCents),
  ZoneDiscountPercent: p.zoneDiscountPercent,
});
