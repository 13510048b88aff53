import { bigint, index, integer, pgTable, primaryKey } from 'drizzle-orm/pg-core';
import { moment } from './columns.ts';

/**
 * What the operator's dashboard and reports read (docs/reports.md): per operator, zone and UTC
 * hour, the sums of its parking sessions, kept by the database. The triggers of parking_sessions
 * (migration 0029, function rollup_sessions) add a session's share when it is written and take
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
