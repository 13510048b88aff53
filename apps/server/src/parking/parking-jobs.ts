import { sql } from 'drizzle-orm';
import { formatMoney, REMINDER_MINUTES } from '@parkit/contract';
import { queryRows, type Db, type Tx } from '../db/client.ts';
import { enqueue } from '../infra/outbox-repository.ts';
import { enqueueForMember, type Localised } from '../infra/push/push-repository.ts';
import { guestLanguage } from '../infra/recipient-language.ts';
import { languageOr, type Language } from '../lib/language.ts';
import type { JobRunner } from '../infra/jobs/job-runner.ts';
import { InsufficientFundsError, lockWallet } from '../wallet/index.ts';
import { REMINDER_DEFAULTS } from '../members/index.ts';
import { policyOfSession } from '../pricing/index.ts';
import { priceMore } from './pricing.ts';
import { overMaxPayment } from './rules.ts';
import { extendWith } from './session-service.ts';
import * as sessions from './session-repository.ts';
import { endedPush, reminderPush } from './reminder-texts.ts';
import * as texts from './sms-texts.ts';

/**
 * Parking's background jobs. Each claims due sessions with FOR UPDATE SKIP LOCKED in
 * its transaction and marks them in the same transaction, so two processes never handle one
 * session twice, and a crash before COMMIT leaves the row due for the next tick.
 */

const BATCH = 100;
/** Auto Extend acts this long before the end (after the 10-minute reminder). */
export const AUTO_EXTEND_LEAD_MINUTES = 5;
const MINUTE = 60_000;

interface Due {
  id: number;
  member_id: number | null;
  guest_phone: string | null;
  phone: string | null;
  plate: string;
  zone_number: string;
  ends_at: Date | string;
  timezone: string;
  /** The member's reminder channels (reminder_settings; a guest: SMS only). */
  sms: boolean;
  push: boolean;
  /** The SMS's language: the member's saved one, a guest's phone's (infra/recipient-language.ts). */
  language: Language;
}

/** The longest reminder lead a member may choose: the claim's bound that an index serves. */
const LONGEST_LEAD = Math.max(...REMINDER_MINUTES);
/** A guest's, and a member's who never chose (members/reminder-settings-repository.ts). */
const REMINDER_DEFAULT_MINUTES = REMINDER_DEFAULTS.minutesBefore;
/** An end notice not delivered within this is not pushed any more. */
const END_NOTICE_PUSH_MS = 60 * MINUTE;

const clock = (at: Date | string, timeZone: string) => (lang: Language) => texts.clock(lang, at, timeZone);

async function notify(tx: Tx, d: Due, body: Localised) {
  const to = d.phone ?? d.guest_phone;
  if (to) await enqueue(tx, 'sms', to, body[d.language]);
}

/**
 * A reminder or an end notice, on the channels the member chose (docs/product.md#reminders): the
 * SMS to the outbox, a push to each of the member's subscriptions through the push outbox, both
 * in this transaction; the push job sends after COMMIT (infra/push/README.md).
 */
async function remind(tx: Tx, d: Due, sms: Localised, push: Localised, at: { now: Date; expiresAt: Date }) {
  if (d.sms) await notify(tx, d, sms);
  if (d.push && d.member_id !== null) await enqueueForMember(tx, d.member_id, push, at);
}

/** The facts a message needs, for the sessions just claimed (same transaction). */
async function describe(tx: Tx, ids: number[]): Promise<Due[]> {
  if (ids.length === 0) return [];
  const rows = await queryRows<Due>(
    tx,
    sql`select s.id, s.member_id, s.guest_phone, m.phone, s.plate, z.zone_number, s.ends_at, o.timezone,
               coalesce(r.sms, true) as sms, coalesce(r.push, false) as push, m.language
        from parking_sessions s
        join zones z on z.id = s.zone_id
        join operators o on o.id = s.operator_id
        left join members m on m.id = s.member_id
        left join reminder_settings r on r.member_id = s.member_id
        where s.id in (${sql.join(
          ids.map((i) => sql`${i}`),
          sql`, `,
        )})
        order by s.id`,
  );
  // A guest's language is kept with their phone on the coordinator (a local table): its own query.
  for (const d of rows)
    d.language =
      d.member_id === null && d.guest_phone ? await guestLanguage(tx, d.guest_phone) : languageOr(d.language);
  return rows;
}

/** Sessions whose time is up: ended at their end time, and the driver told. */
export async function expireSessions(db: Db, now: Date): Promise<number> {
  return db.transaction(async (tx) => {
    const rows = await queryRows<{ id: number }>(
      tx,
      sql`with due as (
            select id from parking_sessions
            where status = 'active' and ends_at <= ${now}
            order by ends_at limit ${BATCH}
            for update skip locked)
          update parking_sessions s
          set status = 'ended', ended_at = s.ends_at, end_notice_sent_at = ${now}, updated_at = ${now}
          from due where s.id = due.id
          returning s.id`,
    );
    for (const d of await describe(
      tx,
      rows.map((r) => r.id),
    )) {
      await remind(tx, d, texts.endedSms(d, clock(d.ends_at, d.timezone)), endedPush(d), {
        now,
        expiresAt: new Date(now.getTime() + END_NOTICE_PUSH_MS),
      });
    }
    return rows.length;
  });
}

/**
 * Sessions ending within their member's reminder lead (10, 15 or 30 minutes; a guest's: 10): one
 * reminder per end time (an extension re-arms it).
 */
export async function sendReminders(db: Db, now: Date): Promise<number> {
  return db.transaction(async (tx) => {
    const soon = new Date(now.getTime() + LONGEST_LEAD * MINUTE);
    const rows = await queryRows<{ id: number }>(
      tx,
      sql`with due as (
            select s.id from parking_sessions s
            left join reminder_settings r on r.member_id = s.member_id
            where s.status = 'active' and s.reminder_sent_at is null and s.ends_at > ${now} and s.ends_at <= ${soon}
              and s.ends_at <= ${now}::timestamptz + make_interval(mins => coalesce(r.minutes_before, ${REMINDER_DEFAULT_MINUTES}))
            order by s.ends_at limit ${BATCH}
            for update of s skip locked)
          update parking_sessions s set reminder_sent_at = ${now}
          from due where s.id = due.id
          returning s.id`,
    );
    for (const d of await describe(
      tx,
      rows.map((r) => r.id),
    )) {
      const left = Math.max(1, Math.round((new Date(d.ends_at).getTime() - now.getTime()) / MINUTE));
      await remind(tx, d, texts.reminderSms(d, clock(d.ends_at, d.timezone), left), reminderPush(d, left), {
        now,
        expiresAt: new Date(d.ends_at),
      });
    }
    return rows.length;
  });
}

/**
 * Auto Extend: shortly before the end, extends a member's session by its first duration while
 * the zone's maximum stay and the member's Max Payment Amount (for the whole session) allow and
 * the wallet pays. Each session's end time is looked at once (auto_extend_checked_ends_at), so a
 * refusal is told once and not retried every tick. One session per transaction.
 */
export async function autoExtend(db: Db, now: Date): Promise<number> {
  const soon = new Date(now.getTime() + AUTO_EXTEND_LEAD_MINUTES * MINUTE);
  let done = 0;
  for (let i = 0; i < BATCH; i++) {
    const due = (now: Date, soon: Date) => sql`s.status = 'active' and s.ends_at > ${now} and s.ends_at <= ${soon}
              and s.auto_extend_checked_ends_at is distinct from s.ends_at`;
    const [candidate] = await queryRows<{ id: number; member_id: number }>(
      db,
      sql`select s.id, s.member_id from parking_sessions s
          join parking_options po on po.member_id = s.member_id and po.auto_extend
          where ${due(now, soon)}
          order by s.ends_at limit 1`,
    );
    if (!candidate) break;
    const handled = await db.transaction(async (tx) => {
      // The member's wallet first, then the session, as every money path (wallet/ledger.ts's lockWallet).
      await lockWallet(tx, candidate.member_id);
      const [row] = await queryRows<{ id: number; member_id: number }>(
        tx,
        sql`select s.id, s.member_id from parking_sessions s where s.id = ${candidate.id} and ${due(now, soon)} for update skip locked`,
      );
      // Another replica handled it meanwhile (not counted here): the next one.
      if (!row) return 'elsewhere' as const;
      const found = await sessions.findOwned(tx, { memberId: row.member_id }, row.id);
      if (!found) return false;
      const { session: s, zone, timezone } = found;
      await sessions.updateSession(tx, s.id, { autoExtendCheckedEndsAt: s.endsAt });
      const [d] = await describe(tx, [s.id]);
      if (!d) return false;
      const policy = await policyOfSession(tx, s, zone);
      const minutes = Math.min(
        s.initialMinutes,
        Math.min(zone.maxStayMinutes, policy.policy.maxStayMinutes) - s.durationMinutes,
      );
      if (minutes <= 0) {
        await notify(tx, d, texts.autoExtendMaxStaySms(d));
        return true;
      }
      const price = priceMore(policy, timezone, s, minutes);
      const sessionTotal = s.parkingCents + s.feeCents - s.refundedCents + price.parkingCents;
      if (await overMaxPayment(tx, row.member_id, sessionTotal)) {
        await notify(tx, d, texts.autoExtendMaxPaymentSms(d));
        return true;
      }
      try {
        // A savepoint: a refused payment undoes the extension but keeps the "looked at" mark.
        const v = await tx.transaction((sp) =>
          extendWith(
            sp,
            { memberId: row.member_id },
            {
              sessionId: s.id,
              zoneId: s.zoneId,
              startsAt: s.endsAt,
              durationMinutes: minutes,
              parkingCents: price.parkingCents,
              totalCents: price.parkingCents,
            },
            { key: null, auto: true, now },
          ),
        );
        await notify(
          tx,
          d,
          texts.autoExtendedSms(
            d,
            minutes,
            `$${formatMoney(price.parkingCents / 100)}`,
            clock(v.session.EndsAt, timezone),
          ),
        );
      } catch (err) {
        if (!(err instanceof InsufficientFundsError)) throw err;
        await notify(tx, d, texts.autoExtendLowBalanceSms(d));
      }
      return true;
    });
    if (!handled) break;
    if (handled !== 'elsewhere') done += 1;
  }
  return done;
}

/** Order matters within a tick: extend first, then remind what is still ending, then expire. */
export function registerParkingJobs(jobs: JobRunner) {
  jobs.register('parking.auto-extend', autoExtend);
  jobs.register('parking.reminders', sendReminders);
  jobs.register('parking.expiry', expireSessions);
}
