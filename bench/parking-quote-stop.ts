import { fillPlaceholders, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Executor } from '@parkit/server/src/db/client.ts';
import { priceOf, stopPriced } from '@parkit/server/src/parking/pricing.ts';
import { quoteStartQuery, quoteStartValues } from '@parkit/server/src/parking/quote-statement.ts';
import { termsValues, type HeldSession, type HeldTerms } from '@parkit/server/src/parking/session-terms.ts';
import { stopQuery } from '@parkit/server/src/parking/stop-statement.ts';
import type { ZoneRecord } from '@parkit/server/src/zones/index.ts';
import { compilePolicy, presetPolicy, type SessionPolicy } from '@parkit/server/src/pricing/index.ts';

/**
 * The parking bench's Quote and Stop (parking.ts): what the loads ask, and their statements sent
 * bare (parking-bare.ts's bareRun), built as the server builds them (quote-statement.ts's quoteStartQuery,
 * stop-statement.ts's stopQuery) with the values the server would hold: the bench zone's row version
 * and preset, the plans' prices, each session's terms.
 */

const dialect = new PgDialect();
// The statements' builders (the permit read, auto-reload's read) need a database only for its dialect.
const builders = drizzle.mock() as unknown as Executor;
const QUOTE_MINUTES = 60;

/** The bench zone as the server holds it: its id, operator, row version, timezone and preset policy. */
interface BenchZone {
  id: number;
  operatorId: number;
  version: string;
  timezone: string;
  policy: SessionPolicy;
}

async function benchZone(db: pg.Client): Promise<BenchZone> {
  const z = (
    await db.query<{
      id: number;
      operator_id: number;
      version: string;
      timezone: string;
      rate_cents: number;
      max_stay_minutes: number;
      paid_days: number[];
      paid_from_minute: number;
      paid_until_minute: number;
    }>(
      `select z.id, z.operator_id, z.xmin::text as version, o.timezone, z.rate_cents, z.max_stay_minutes, z.paid_days,
         z.paid_from_minute, z.paid_until_minute
       from zones z join operators o on o.id = z.operator_id where z.zone_number = 'BENCH1'`,
    )
  ).rows[0]!;
  const preset = {
    rateCents: z.rate_cents,
    maxStayMinutes: z.max_stay_minutes,
    paidDays: z.paid_days,
    paidFromMinute: z.paid_from_minute,
    paidUntilMinute: z.paid_until_minute,
  };
  return {
    id: z.id,
    operatorId: z.operator_id,
    version: z.version,
    timezone: z.timezone,
    policy: { versionId: null, policy: compilePolicy(presetPolicy(preset)), permits: [] },
  };
}

export interface QuoteAsk {
  member: number;
  body: { ZoneId: number; VehicleId: number; DurationMinutes: number };
}

/**
 * Start quotes to ask: every bench vehicle not parked, in the bench zone for 60 minutes, interleaved so that
 * concurrent requests are mostly of different members; and the same as the statement's bare
 * requests (text and values), with the plans priced as the server prices them.
 */
export async function quoteAsks(
  url: string,
): Promise<{ asks: QuoteAsk[]; bare: () => { text: string; values: unknown[] } }> {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    const zone = await benchZone(db);
    const vehicles = (
      await db.query<{ member: number; vehicle: number }>(
        `select v.member_id as member, v.id as vehicle from vehicles v join members m on m.id = v.member_id
         where m.user_name like 'bench%' and v.plate like 'B%'
           and not exists (select 1 from parking_sessions s where s.vehicle_id = v.id and s.status = 'active')
         order by row_number() over (partition by v.member_id order by v.id), v.member_id`,
      )
    ).rows;
    const plans = (
      await db.query<{ id: number; discount: number; fee: number }>(
        'select id, zone_discount_percent as discount, convenience_fee_cents as fee from plans',
      )
    ).rows;
    const rows = plans.map((p) => {
      const parking = priceOf(zone.policy, zone.timezone, new Date(), 0, QUOTE_MINUTES, p.discount).parkingCents;
      return { plan_id: p.id, discount: p.discount, fee: p.fee, parking, total: parking + p.fee };
    });
    const asks = vehicles.map((v) => ({
      member: v.member,
      body: { ZoneId: zone.id, VehicleId: v.vehicle, DurationMinutes: QUOTE_MINUTES },
    }));
    // Built once with placeholders, as the server builds it; each request fills the values.
    const built = dialect.sqlToQuery(quoteStartQuery(builders, (n) => sql.placeholder(n)));
    const held = { operatorId: zone.operatorId, zoneVersion: zone.version, versionId: null, rows };
    let i = 0;
    const bare = () => {
      const a = asks[i++ % asks.length]!;
      return {
        text: built.sql,
        values: fillPlaceholders(built.params, quoteStartValues(a.member, a.body, new Date(), held)),
      };
    };
    return { asks, bare };
  } finally {
    await db.end();
  }
}

/**
 * `count` running sessions written for a bare Stop run `run` (a letter: new vehicles of the bench members, started
 * now for 60 minutes, paid 2.85 from the wallet), and each Stop's values filled in before the
 * load, as the server fills them at a Stop 30 s later, with the refund the server would price.
 */
export async function bareStops(
  url: string,
  count: number,
  run: string,
): Promise<{ text: string; values: unknown[] }[]> {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    const zone = await benchZone(db);
    const members = (
      await db.query<{ id: number }>(`select id from members where user_name like 'bench%' order by id`)
    ).rows.map((r) => r.id);
    const built = dialect.sqlToQuery(stopQuery(builders, (n) => sql.placeholder(n)));
    const out: { text: string; values: unknown[] }[] = [];
    // In statements of 1,000 (each session's trigger takes an advisory lock until its statement commits).
    for (let done = 0, k = 0; done < count; k++) {
      const batch = Math.min(1000, count - done);
      const chunk = Array.from({ length: batch }, (_, j) => members[(done + j) % members.length]!);
      const sessions = (
        await db.query<HeldTerms & { member: number }>(
          `with v as (
             insert into vehicles (member_id, make_id, model_id, plate, plate_state, color_id, year)
             select m, mo.make_id, mo.id, 'S' || $5::text || 'M' || m || 'K' || $2::int || 'N' || n, 'TX', (select min(id) from vehicle_colors), 2020
             from unnest($1::int[]) with ordinality as u(m, n) cross join (select id, make_id from vehicle_models order by id limit 1) mo
             returning id, member_id, plate
           )
           -- Started at a whole millisecond, as the server starts a session (a JavaScript Date).
           insert into parking_sessions (member_id, operator_id, zone_id, vehicle_id, vehicle_make, vehicle_model, plate, plate_state,
             started_at, ends_at, duration_minutes, initial_minutes, rate_cents, parking_cents, fee_cents, paid_via, status, updated_at)
           select v.member_id, $3, $4, v.id, 'Make', 'Model', v.plate, 'TX', date_trunc('milliseconds', now()),
             date_trunc('milliseconds', now()) + interval '60 minutes', 60, 60, 250, 250, 35,
             'Wallet', 'active', now()
           from v
           returning id, member_id as member, zone_id as "zoneId", plate, started_at as "startedAt", ends_at as "endsAt",
             duration_minutes as "durationMinutes", parking_cents as "parkingCents", refunded_cents as "refundedCents",
             discount_percent as "discountPercent", rate_cents as "rateCents", policy_version_id as "policyVersionId",
             vehicle_id as "vehicleId"`,
          [chunk, k, zone.operatorId, zone.id, run],
        )
      ).rows;
      for (const s of sessions) {
        const now = new Date(s.startedAt.getTime() + 30_000);
        const { unused, refundCents } = stopPriced(zone.policy, zone.timezone, s, now);
        // What termsValues reads of the zone: its operator (the session's zone is the bench zone).
        const h: HeldSession = {
          terms: s,
          zone: { operatorId: zone.operatorId } as ZoneRecord,
          zoneVersion: zone.version,
          timezone: zone.timezone,
          policy: zone.policy,
        };
        const values = { ...termsValues(s.member, h, now), unused, refund: refundCents };
        out.push({ text: built.sql, values: fillPlaceholders(built.params, values) });
      }
      done += batch;
    }
    return out;
  } finally {
    await db.end();
  }
}
