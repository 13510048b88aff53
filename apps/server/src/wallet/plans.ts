import { and, asc, eq } from 'drizzle-orm';
import { centsToAmount, type PlanSummary } from '@parkit/contract';
import type { Executor } from '../db/client.ts';
import { plans, subscriptions } from '../db/schema/index.ts';

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

/** The member's plan now: the active subscription's, else Basic. */
export async function planForMember(db: Executor, memberId: number): Promise<Plan> {
  const [row] = await db
    .select({ plan: plans })
    .from(subscriptions)
    .innerJoin(plans, eq(plans.id, subscriptions.planId))
    .where(and(eq(subscriptions.memberId, memberId), eq(subscriptions.status, 'active')))
    .limit(1);
  return row?.plan ?? basicPlan(db);
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
