import { bigint, bigserial, date, index, integer, pgTable, primaryKey, smallint } from 'drizzle-orm/pg-core';
import { moment } from './columns.ts';

/**
 * What the operator's dashboard and reports read (docs/reports.md): per operator, zone and UTC
 * hour, the sums of its parking sessions, kept by the database. The triggers of parking_sessions
 * (migration 0031, function rollup_sessions) add a session's share when it is written and take
 * the old share off when it changes or goes, in the writing statement's own transaction; no code
 * writes here. Money and counts of the sessions that STARTED in the hour; occupied_seconds of
 * every session parked during the hour (a session spanning three hours adds to three rows).
 */
export const operatorHourlyRollups = pgTable(
  'operator_hourly_rollups',
  {
    operatorId: integer('operator_id').notNull(),
    zoneId: integer('zone_id').notNull(),
    /** The UTC hour (date_trunc('hour', …)). */
    hour: moment('hour').notNull(),
    sessionsStarted: bigint('sessions_started', { mode: 'number' }).notNull().default(0),
    /** Seconds parked (started_at to ended_at, or to ends_at while running) of the sessions started in the hour. */
    staySeconds: bigint('stay_seconds', { mode: 'number' }).notNull().default(0),
    parkingCents: bigint('parking_cents', { mode: 'number' }).notNull().default(0),
    feeCents: bigint('fee_cents', { mode: 'number' }).notNull().default(0),
    refundedCents: bigint('refunded_cents', { mode: 'number' }).notNull().default(0),
    discountCents: bigint('discount_cents', { mode: 'number' }).notNull().default(0),
    /** Seconds of any session parked inside this hour (occupancy = this ÷ (capacity × 3600)). */
    occupiedSeconds: bigint('occupied_seconds', { mode: 'number' }).notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.operatorId, t.hour, t.zoneId] }),
    index('operator_hourly_rollups_zone_idx').on(t.operatorId, t.zoneId, t.hour),
  ],
);

/** occupied_h00 … occupied_h23: seconds parked in each hour of the operator's day. */
const occupiedByHour = Object.fromEntries(
  Array.from({ length: 24 }, (_, h) => {
    const name = `occupied_h${String(h).padStart(2, '0')}`;
    return [name, bigint(name, { mode: 'number' }).notNull().default(0)];
  }),
) as Record<`occupied_h${string}`, ReturnType<typeof bigint>>;

/**
 * The same sums per operator, zone and the operator's calendar day (in its time zone when the
 * session was written), kept by the same triggers from the same shares: what a 30-day report or the
 * dashboard's trend reads (a row per zone and day, not per hour), with the seconds parked in each
 * hour of the day as 24 columns for occupancy by hour of day.
 */
export const operatorDailyRollups = pgTable(
  'operator_daily_rollups',
  {
    operatorId: integer('operator_id').notNull(),
    zoneId: integer('zone_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    sessionsStarted: bigint('sessions_started', { mode: 'number' }).notNull().default(0),
    staySeconds: bigint('stay_seconds', { mode: 'number' }).notNull().default(0),
    parkingCents: bigint('parking_cents', { mode: 'number' }).notNull().default(0),
    feeCents: bigint('fee_cents', { mode: 'number' }).notNull().default(0),
    refundedCents: bigint('refunded_cents', { mode: 'number' }).notNull().default(0),
    discountCents: bigint('discount_cents', { mode: 'number' }).notNull().default(0),
    occupiedSeconds: bigint('occupied_seconds', { mode: 'number' }).notNull().default(0),
    ...occupiedByHour,
  },
  (t) => [primaryKey({ columns: [t.operatorId, t.day, t.zoneId] })],
);

/**
 * The shares written since the last fold (docs/reports.md#rollups): the parking_sessions triggers
 * append a row per operator, zone and UTC hour that a statement moved, and never update a shared
 * row, so Starts in one zone and hour do not queue on one rollup row's lock until they commit. The
 * job `reports.fold-rollups` moves them into the two rollup tables above in one statement
 * (fold_rollup_deltas); readers read the views operator_hourly_totals and operator_daily_totals,
 * which add the rows not folded yet.
 */
export const operatorRollupDeltas = pgTable(
  'operator_rollup_deltas',
  {
    id: bigserial('id', { mode: 'number' }).notNull(),
    operatorId: integer('operator_id').notNull(),
    zoneId: integer('zone_id').notNull(),
    hour: moment('hour').notNull(),
    /** The hour's day and hour in the operator's time zone when the share was written. */
    localDay: date('local_day', { mode: 'string' }).notNull(),
    localHour: smallint('local_hour').notNull(),
    sessionsStarted: bigint('sessions_started', { mode: 'number' }).notNull(),
    staySeconds: bigint('stay_seconds', { mode: 'number' }).notNull(),
    parkingCents: bigint('parking_cents', { mode: 'number' }).notNull(),
    feeCents: bigint('fee_cents', { mode: 'number' }).notNull(),
    refundedCents: bigint('refunded_cents', { mode: 'number' }).notNull(),
    discountCents: bigint('discount_cents', { mode: 'number' }).notNull(),
    occupiedSeconds: bigint('occupied_seconds', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.operatorId, t.id] }),
    index('operator_rollup_deltas_operator_idx').on(t.operatorId, t.hour),
    // The fold takes the oldest shares first.
    index('operator_rollup_deltas_id_idx').on(t.id),
  ],
);
