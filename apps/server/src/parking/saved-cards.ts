import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { queryRows, type Executor } from '../db/client.ts';
import type { JobRunner } from '../infra/jobs/job-runner.ts';
import type { ChargeContext } from '../wallet/index.ts';

/**
 * Leaving cleanly (issue 28): a Quick Park typed card is saved by its first charge, under a
 * provider customer of its own (guest-service.ts), only so that Extend can charge it again. Once
 * its session can no longer be extended (stopped, or its end passed), the card is forgotten: the
 * customer is deleted at the provider, which removes the card saved under it (Stripe's
 * DELETE /v1/customers/{id}), and the session's card_ref and card_customer_ref are cleared. A
 * customer that another session still running names is kept until that one is over too.
 *
 * The job's shape is the outbox's (infra/sms/sms-repository.ts): one statement claims a batch of
 * due sessions (FOR UPDATE SKIP LOCKED; a Stop's own claim waits for its rows instead) and leases them (card_forget_at) and commits; the provider
 * is called after COMMIT, no lock or transaction held; a success clears the session's card, a
 * provider out of reach releases the lease so the next run tries again, and a process killed in
 * between leaves the rows due again when the lease ends. A customer the provider no longer has is
 * deleted already: a retry, or two processes, delete it once.
 */

/** Sessions claimed per run; a provider out of reach stops the run at its first failure. */
const BATCH = 20;
/** How long a claim keeps other processes off its sessions (a killed process: due again after it). */
export const FORGET_LEASE_MS = 10 * 60_000;

interface Claimed {
  id: number;
  customer: string | null;
}

/**
 * Claims the sessions whose saved card is due to be forgotten (`sessionId`: only that one and those
 * sharing its customer, so that the customer is deleted once for all of them), in one
 * statement: a card kept (card_ref), on a session that cannot be extended any more, not claimed by
 * another process, with no charge or refund of it pending (an Extend being charged, a Stop's
 * refunds: the stop may still be undone), and whose customer no running session names.
 */
async function claimDueCards(db: Executor, now: Date, sessionId: number | null): Promise<Claimed[]> {
  return queryRows<Claimed>(
    db,
    sql`with due as (
          select s.id from parking_sessions s
          where s.card_ref is not null
            and (s.status <> 'active' or s.ends_at <= ${now})
            and (s.card_forget_at is null or s.card_forget_at <= ${now})
            ${
              sessionId === null
                ? sql.empty()
                : sql`and (s.id = ${sessionId} or s.card_customer_ref = (
              select card_customer_ref from parking_sessions where id = ${sessionId}))`
            }
            and (s.card_customer_ref is null or not exists (
              select 1 from parking_sessions o
              where o.card_ref is not null and o.card_customer_ref = s.card_customer_ref
                and o.status = 'active' and o.ends_at > ${now}))
            and not exists (
              select 1 from wallet_charges c
              left join parking_quotes q on q.id = c.quote_id
              left join parking_card_payments p on p.id = c.card_payment_id
              where c.status = 'pending' and (q.session_id = s.id or p.session_id = s.id))
          order by s.id limit ${BATCH}
          -- The job skips rows another transaction holds; a Stop waits for them (a second Stop
          -- of the same session, refused, may hold the row a moment), or its card would be left
          -- to the job's next run.
          for update of s ${sessionId === null ? sql`skip locked` : sql.empty()})
        update parking_sessions s
        set card_forget_at = ${new Date(now.getTime() + FORGET_LEASE_MS)}
        from due where s.id = due.id
        returning s.id, s.card_customer_ref as customer`,
  );
}

/** The provider forgot them (or kept nothing): the sessions keep no card. */
async function clearCards(db: Executor, ids: number[]): Promise<void> {
  await db.execute(
    sql`update parking_sessions set card_ref = null, card_customer_ref = null, card_forget_at = null
        where id in (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )})`,
  );
}

/** Not forgotten this time (the provider out of reach): due again at the next run. */
async function releaseCards(db: Executor, ids: number[]): Promise<void> {
  await db.execute(
    sql`update parking_sessions set card_forget_at = null
        where card_ref is not null and id in (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )})`,
  );
}

export interface ForgetOptions {
  /** Only this session (its Stop) and those sharing its customer, not every due one. */
  sessionId?: number;
  /**
   * Logs name the sessions and what the provider said: never the card nor the customer (as the
   * outbox's sender never logs a number).
   */
  log?: Pick<FastifyBaseLogger, 'warn'>;
}

/**
 * Forgets the saved cards that are due (claimDueCards), one provider call per customer, after the
 * claim's COMMIT. Answers how many sessions no longer keep a card.
 */
export async function forgetSavedCards(ctx: ChargeContext, now: Date, opts: ForgetOptions = {}): Promise<number> {
  const claimed = await claimDueCards(ctx.db, now, opts.sessionId ?? null);
  if (claimed.length === 0) return 0;
  // A customer two claimed sessions share is deleted once for both.
  const byCustomer = new Map<string | null, number[]>();
  for (const c of claimed) byCustomer.set(c.customer, [...(byCustomer.get(c.customer) ?? []), c.id]);
  let forgotten = 0;
  const groups = [...byCustomer];
  for (const [i, [customer, ids]] of groups.entries()) {
    // No customer: the sandbox's token, or a Stripe card of no customer (saved by no charge).
    const deleted = customer === null ? { ok: true as const } : await ctx.provider.deleteCustomer(customer);
    if (!deleted.ok && deleted.reason === 'unavailable') {
      // The rest would fail the same way: every session not forgotten yet is due at the next run.
      const left = groups.slice(i).flatMap(([, rest]) => rest);
      await releaseCards(ctx.db, left);
      opts.log?.warn({ sessions: left }, 'saved card not forgotten: the payment provider is unreachable; will retry');
      return forgotten;
    }
    if (!deleted.ok)
      // Refused for good (not this account's customer): retrying cannot help, and the session keeps
      // no card either way; the charge's row still names the customer for a person to look at.
      opts.log?.warn(
        { sessions: ids, reason: deleted.reason },
        'saved card: the provider refused to delete its customer',
      );
    await clearCards(ctx.db, ids);
    forgotten += ids.length;
  }
  return forgotten;
}

/**
 * The job `parking.forget-cards`: after the expiry job in a tick (registered after it), so a
 * session whose time ran out has its card forgotten in the same tick.
 */
export function registerSavedCardJob(jobs: JobRunner, wallet: ChargeContext, log: Pick<FastifyBaseLogger, 'warn'>) {
  jobs.register('parking.forget-cards', (_db, now) => forgetSavedCards(wallet, now, { log }));
}
