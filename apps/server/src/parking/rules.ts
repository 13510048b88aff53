import { sql, type SQL } from 'drizzle-orm';
import { PARKING_MESSAGES } from '@parkit/contract';
import { queryRows, type Executor } from '../db/client.ts';
import { HttpError } from '../lib/http-error.ts';

/**
 * Max Payment Amount, written once: a total above the member's cap, with the cap on,
 * needs a second confirmation (`confirmed`: ConfirmOverMax, or an Auto Start quote). Start's one
 * statement embeds this condition; the quote's OverMaxPayment and the step-by-step Start and
 * Extend ask it through overMaxPayment below.
 */
export function overMaxPaymentSql(memberId: SQL, totalCents: SQL, confirmed: SQL = sql`false`): SQL {
  return sql`(not ${confirmed} and exists (select 1 from parking_options o where o.member_id = ${memberId} and o.max_payment_enabled and ${totalCents} > o.max_payment_cents))`;
}

/** Whether `totalCents` is over the member's Max Payment Amount (and not confirmed). */
export async function overMaxPayment(
  db: Executor,
  memberId: number,
  totalCents: number,
  confirmed = false,
): Promise<boolean> {
  const [row] = await queryRows<{ over: boolean }>(
    db,
    sql`select ${overMaxPaymentSql(sql`${memberId}::int`, sql`${totalCents}::int`, sql`${confirmed}::boolean`)} as over`,
  );
  return Boolean(row?.over);
}

/** 409 when the total needs ConfirmOverMax (Start and Extend). */
export async function checkMaxPayment(
  db: Executor,
  memberId: number,
  totalCents: number,
  confirmed: boolean,
): Promise<void> {
  if (confirmed) return;
  if (await overMaxPayment(db, memberId, totalCents)) {
    throw new HttpError(409, PARKING_MESSAGES.overMaxPayment, [
      { field: 'ConfirmOverMax', message: PARKING_MESSAGES.overMaxPayment },
    ]);
  }
}

/**
 * The busy-vehicle rule, written once: a vehicle is busy while it has a running session,
 * an active row whose end is after `at` (the vehicle's sessions whose ids this selects). An active
 * row whose time ran out does not make it busy: the step-by-step Start closes it first
 * (closeExpiredOfVehicle), so the unique "one active session per vehicle" index admits the new
 * one. Start's one statement cannot close it, so it passes no `at` (any active row) and leaves such
 * a vehicle to the step-by-step path. The quotes and the step-by-step Start ask it through
 * session-repository.ts's activeOfVehicle.
 */
export function vehicleSessionsSql(vehicleId: SQL, at: SQL | null): SQL {
  const running = at === null ? sql`true` : sql`s.ends_at > ${at}`;
  return sql`select s.id from parking_sessions s where s.vehicle_id = ${vehicleId} and s.status = 'active' and ${running}`;
}
