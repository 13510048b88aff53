import { PgDialect } from 'drizzle-orm/pg-core';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Executor } from '@parkit/server/src/db/client.ts';
import { priceOf, stopPriced } from '@parkit/server/src/parking/pricing.ts';
import { quoteStartSql } from '@parkit/server/src/parking/quote-statement.ts';
import { stopSql, type HeldTerms } from '@parkit/server/src/parking/stop-statement.ts';
import { compilePolicy, presetPolicy, type SessionPolicy } from '@parkit/server/src/pricing/index.ts';

/**
 * The parking bench's Quote and Stop (parking.ts): what the loads ask, and their statements sent
 * bare (parking-bare.ts's bareRun), as the server renders them (quote-statement.ts's quoteStartSql,
 * stop-statement.ts's stopSql) with the values the server would hold: the bench zone's row version
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
 * Start quotes to ask: every bench vehicle in the bench zone for 60 minutes, interleaved so that
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
    let i = 0;
    const bare = () => {
      const a = asks[i++ % asks.length]!;
      const statement = quoteStartSql(builders, a.member, a.body, new Date(), {
        operatorId: zone.operatorId,
        zoneVersion: zone.version,
        versionId: null,
        rows,
      });
      const { sql: text, params } = dialect.sqlToQuery(statement);
      return { text, values: params };
    };
    return { asks, bare };
  } finally {
    await db.end();
  }
}

/**
 * `count` running sessions written for the bare Stops (new vehicles of the bench members, started
 * now for 60 minutes, paid 2.85 from the wallet), and each Stop's statement rendered before the
 * load, as the server renders it at a Stop 30 s later, with the refund the server would price.
 */
export async function bareStops(url: string, count: number): Promise<{ text: string; values: unknown[] }[]> {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    const zone = await benchZone(db);
    const members = (
      await db.query<{ id: number }>(`select id from members where user_name like 'bench%' order by id`)
    ).rows.map((r) => r.id);
    const out: { text: string; values: unknown[] }[] = [];
    // In statements of 1,000 (each session's trigger takes an advisory lock until its statement commits).
    for (let done = 0, k = 0; done < count; k++) {
      const batch = Math.min(1000, count - done);
      const chunk = Array.from({ length: batch }, (_, j) => members[(done + j) % members.length]!);
      const sessions = (
        await db.query<HeldTerms & { member: number }>(
          `with v as (
             insert into vehicles (member_id, make_id, model_id, plate, plate_state, color_id, year)
             select m, mo.make_id, mo.id, 'S' || m || 'K' || $2::int || 'N' || n, 'TX', (select min(id) from vehicle_colors), 2020
             from unnest($1::int[]) with ordinality as u(m, n) cross join (select id, make_id from vehicle_models order by id limit 1) mo
             returning id, member_id, plate
           )
           insert into parking_sessions (member_id, operator_id, zone_id, vehicle_id, vehicle_make, vehicle_model, plate, plate_state,
             started_at, ends_at, duration_minutes, initial_minutes, rate_cents, parking_cents, fee_cents, paid_via, status, updated_at)
           select v.member_id, $3, $4, v.id, 'Make', 'Model', v.plate, 'TX', now(), now() + interval '60 minutes', 60, 60, 250, 250, 35,
             'Wallet', 'active', now()
           from v
           returning id, member_id as member, zone_id as "zoneId", plate, started_at as "startedAt", ends_at as "endsAt",
             duration_minutes as "durationMinutes", parking_cents as "parkingCents", refunded_cents as "refundedCents",
             discount_percent as "discountPercent", rate_cents as "rateCents", policy_version_id as "policyVersionId"`,
          [chunk, k, zone.operatorId, zone.id],
        )
      ).rows;
      for (const s of sessions) {
        const now = new Date(s.startedAt.getTime() + 30_000);
        const { unused, refundCents } = stopPriced(zone.policy, zone.timezone, s, now);
        const { sql: text, params } = dialect.sqlToQuery(
          stopSql(
            builders,
            s.member,
            s,
            { operatorId: zone.operatorId, zoneVersion: zone.version, unused, refundCents },
            now,
          ),
        );
        out.push({ text, values: params });
      }
      done += batch;
    }
    return out;
  } finally {
    await db.end();
  }
}

/** The running sessions (the route's Starts, extended), oldest first: what the Stop load stops. */
export async function runningSessions(url: string): Promise<{ id: number; member: number }[]> {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    return (
      await db.query<{ id: number; member: number }>(
        `select id, member_id as member from parking_sessions where status = 'active' and ends_at > now() order by id`,
      )
    ).rows;
  } finally {
    await db.end();
  }
}
