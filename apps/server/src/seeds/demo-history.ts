import { sql } from 'drizzle-orm';
import { queryRows, type Db, type Tx } from '../db/client.ts';
import { postEntrySql, type LedgerKind } from '../wallet/index.ts';
import { DEMO_MEMBER } from './demo-member.ts';

/**
 * The demo member's past, so that a newcomer opening the demo sees what a regular driver sees: a
 * saved card, top-ups, a month of Deluxe and parking sessions across zones and weeks, with their
 * receipts. Every amount goes through the ledger's one writer (post_ledger_entry), in time order,
 * so the balance is still the sum of the ledger; the entries are then dated in the past. One
 * transaction, once: a start that finds the demo's first top-up does nothing.
 */

/** Days ago, local hour in Austin (UTC-6 in winter, near enough for a demo), minutes parked, zone index. */
const SESSIONS: [number, number, number, number][] = [
  [53, 9, 120, 0],
  [49, 13, 60, 1],
  [40, 10, 90, 2],
  [35, 17, 45, 0],
  [30, 12, 60, 3],
  [24, 8, 180, 1],
  [20, 11, 30, 2],
  [10, 14, 60, 0],
  [6, 9, 120, 3],
  [3, 15, 45, 1],
];
/** Days ago and cents. */
const TOP_UPS: [number, number][] = [
  [55, 2000],
  [42, 3000],
  [14, 2000],
];
/** The Deluxe month: from this many days ago, 30 days (ended before today). */
const DELUXE_FROM = 45;
/** The opening balance (demo-member.ts) dates from before all of it. */
const OPENING_DAYS_AGO = 56;

const DAY_MS = 86_400_000;

interface Zone {
  id: number;
  rate_cents: number;
}

/**
 * Seeds the history when the demo member has none yet; true when it did. `cards`: the sandbox
 * provider's tokenizer, for the saved card (null under Stripe: no card is seeded).
 */
export async function seedDemoHistory(db: Db, cards: SandboxCards | null): Promise<boolean> {
  return db.transaction(async (tx) => {
    // The member's row, locked: two starts on one database do not both seed.
    const [member] = await queryRows<{
      id: number;
      plate: string | null;
      vehicle_id: number | null;
      make: string;
      model: string;
    }>(
      tx,
      sql`select m.id, v.plate, v.id as vehicle_id, coalesce(mk.name, '') as make, coalesce(md.name, '') as model
          from members m
          left join vehicles v on v.member_id = m.id
          left join vehicle_makes mk on mk.id = v.make_id
          left join vehicle_models md on md.id = v.model_id
          where m.user_name = ${DEMO_MEMBER.UserName}
          order by v.id limit 1
          for update of m`,
    );
    if (!member?.plate || member.vehicle_id === null) return false;
    const [seeded] = await queryRows<{ n: number }>(
      tx,
      sql`select count(*)::int as n from ledger_entries where member_id = ${member.id} and reference like 'demo:%' and reference <> 'demo:opening-balance'`,
    );
    if ((seeded?.n ?? 0) > 0) return false;
    const zones = await queryRows<Zone>(
      tx,
      sql`select z.id, z.rate_cents from zones z join members m on m.client_id = z.operator_id
          where m.id = ${member.id} order by z.id limit 4`,
    );
    if (zones.length === 0) return false;
    const [plans] = await queryRows<{ basic_fee: number; deluxe_fee: number; deluxe_price: number; deluxe_id: number }>(
      tx,
      sql`select (select convenience_fee_cents from plans where code = 'basic') as basic_fee,
                 (select convenience_fee_cents from plans where code = 'deluxe') as deluxe_fee,
                 (select price_cents from plans where code = 'deluxe') as deluxe_price,
                 (select id from plans where code = 'deluxe') as deluxe_id`,
    );
    const now = Date.now();
    const at = (daysAgo: number, hourLocal = 12) => {
      const d = new Date(now - daysAgo * DAY_MS);
      d.setUTCHours(hourLocal + 6, 0, 0, 0);
      return d;
    };

    // The card: Visa 4242, the default, usable for Add Money on the sandbox provider.
    const year = new Date(now).getUTCFullYear() + 3;
    if (cards) {
      const { token, brand, last4 } = cards.tokenize({
        number: '4242424242424242',
        expMonth: 12,
        expYear: year,
        cvc: '123',
      });
      await tx.execute(
        sql`insert into payment_methods (member_id, provider, provider_ref, brand, last4, exp_month, exp_year, is_default, created_at)
            values (${member.id}, 'sandbox', ${token}, ${brand}, ${last4}, 12, ${year}, true, ${at(OPENING_DAYS_AGO)})`,
      );
    }

    // Everything that moves money, in time order.
    type Step = {
      when: Date;
      cents: number;
      kind: LedgerKind;
      reference: (id: number | null) => string;
      make?: () => Promise<number | null>;
    };
    const steps: Step[] = [];
    TOP_UPS.forEach(([daysAgo, cents], i) =>
      steps.push({ when: at(daysAgo, 8), cents, kind: 'top-up', reference: () => `demo:top-up:${i + 1}` }),
    );
    const deluxeStart = at(DELUXE_FROM, 9);
    const deluxeEnd = new Date(deluxeStart.getTime() + 30 * DAY_MS);
    if (plans?.deluxe_id) {
      steps.push({
        when: deluxeStart,
        cents: -plans.deluxe_price,
        kind: 'plan',
        reference: (id) => `subscription:${id}`,
        make: async () => {
          const [sub] = await queryRows<{ id: number }>(
            tx,
            sql`insert into subscriptions (member_id, plan_id, status, current_period_start, current_period_end, cancel_at_period_end, created_at, ended_at)
                values (${member.id}, ${plans.deluxe_id}, 'ended', ${deluxeStart}, ${deluxeEnd}, true, ${deluxeStart}, ${deluxeEnd})
                returning id`,
          );
          return sub?.id ?? null;
        },
      });
    }
    for (const [daysAgo, hour, minutes, zi] of SESSIONS) {
      const zone = zones[zi % zones.length]!;
      const start = at(daysAgo, hour);
      const end = new Date(start.getTime() + minutes * 60_000);
      const deluxe = start >= deluxeStart && start < deluxeEnd;
      const parking = Math.floor((2 * zone.rate_cents * minutes * 100 + 6000) / 12000);
      const fee = (deluxe ? plans?.deluxe_fee : plans?.basic_fee) ?? 0;
      if (parking + fee === 0) continue;
      steps.push({
        when: start,
        cents: -(parking + fee),
        kind: 'parking',
        reference: (id) => `session:${id}`,
        make: async () => {
          const [s] = await queryRows<{ id: number }>(
            tx,
            sql`insert into parking_sessions (member_id, operator_id, zone_id, vehicle_id, vehicle_make, vehicle_model, plate,
                  plate_state, started_at, ends_at, ended_at, duration_minutes, initial_minutes, rate_cents, parking_cents,
                  fee_cents, paid_via, status, reminder_sent_at, end_notice_sent_at, created_at)
                select ${member.id}, z.operator_id, z.id, ${member.vehicle_id}, ${member.make}, ${member.model}, ${member.plate},
                  v.plate_state, ${start}, ${end}, ${end}, ${minutes}, ${minutes}, z.rate_cents, ${parking},
                  ${fee}, 'Wallet', 'ended', ${end}, ${end}, ${start}
                from zones z, vehicles v where z.id = ${zone.id} and v.id = ${member.vehicle_id}
                returning id`,
          );
          return s?.id ?? null;
        },
      });
    }
    steps.sort((a, b) => a.when.getTime() - b.when.getTime());

    await tx.execute(
      sql`update ledger_entries set created_at = ${at(OPENING_DAYS_AGO, 8)}
          where member_id = ${member.id} and reference = 'demo:opening-balance'`,
    );
    for (const step of steps)
      await post(tx, member.id, step.cents, step.kind, step.reference(step.make ? await step.make() : null), step.when);
    return true;
  });
}

/** One entry through the ledger's writer, then dated when it happened. */
async function post(tx: Tx, memberId: number, cents: number, kind: LedgerKind, reference: string, when: Date) {
  const [row] = await queryRows<{ entry_id: number | string }>(
    tx,
    sql`select * from ${postEntrySql(sql`${memberId}::int`, sql`${cents}::int`, kind, sql`${reference}::text`, null)}`,
  );
  if (!row) throw new Error(`the demo history would take the balance below zero at ${reference}`);
  await tx.execute(sql`update ledger_entries set created_at = ${when} where id = ${Number(row.entry_id)}`);
}

/** What the seed needs of the sandbox provider: a card's token, as its tokenizer makes one. */
export interface SandboxCards {
  tokenize(card: { number: string; expMonth: number; expYear: number; cvc: string }): {
    token: string;
    brand: string;
    last4: string;
  };
}
