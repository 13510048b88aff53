import { z } from 'zod';
import { OperatorParams } from './operator.ts';

/**
 * The console's money and reports (docs/reports.md): the live dashboard and the report of a date
 * range and zone set, /api/Operator/{operatorId}/Dashboard and /Report, read by every role.
 * Days are the operator's calendar days (its time zone); money is integer cents.
 */
export const OPERATOR_REPORT_MESSAGES = {
  dateFormat: 'Use a date as YYYY-MM-DD',
  dateRange: 'The first day must not be after the last',
  rangeTooLong: 'A report covers at most 366 days',
  zonesFormat: 'Zones are zone ids separated by commas',
  tooManyZones: 'Choose at most 500 zones',
  zoneNotFound: 'Zone not found',
} as const;
const M = OPERATOR_REPORT_MESSAGES;

/** The longest report, in days. */
export const MAX_REPORT_DAYS = 366;

const day = z
  .string({ error: M.dateFormat })
  .regex(/^\d{4}-\d{2}-\d{2}$/, M.dateFormat)
  .refine((s) => {
    const d = new Date(`${s}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(s) && s >= '2000-01-01' && s <= '2100-12-31';
  }, M.dateFormat);

/** Days from `from` to `to`, both counted (YYYY-MM-DD). */
export const daysInRange = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;

/** GET /Report and its CSVs: From and To (the operator's days, both included), Zones (ids, comma separated; none: all). */
export const ReportQuery = z
  .object({
    From: day,
    To: day,
    Zones: z
      .string({ error: M.zonesFormat })
      .max(5000, M.tooManyZones)
      .regex(/^(\d{1,9}(,\d{1,9})*)?$/, M.zonesFormat)
      .optional(),
  })
  .superRefine((q, ctx) => {
    if (q.From > q.To) ctx.addIssue({ code: 'custom', path: ['To'], message: M.dateRange });
    else if (daysInRange(q.From, q.To) > MAX_REPORT_DAYS)
      ctx.addIssue({ code: 'custom', path: ['To'], message: M.rangeTooLong });
    if (q.Zones && q.Zones.split(',').length > 500)
      ctx.addIssue({ code: 'custom', path: ['Zones'], message: M.tooManyZones });
  });
export type ReportQuery = z.infer<typeof ReportQuery>;

/** The zone ids a report's Zones names (empty: all the operator's zones). */
export const reportZoneIds = (zones: string | undefined) => (zones ? [...new Set(zones.split(',').map(Number))] : []);

export const ReportParams = OperatorParams;

/** The money of a set of sessions; Revenue = Parking + Fees - Refunds (Discounts were never charged). */
const money = {
  ParkingCents: z.number().int(),
  FeeCents: z.number().int(),
  RefundedCents: z.number().int(),
  DiscountCents: z.number().int(),
  RevenueCents: z.number().int(),
};

export const DashboardZone = z.object({
  ZoneId: z.number().int(),
  ZoneNumber: z.string(),
  Name: z.string(),
  Latitude: z.number(),
  Longitude: z.number(),
  Capacity: z.number().int(),
  Running: z.number().int(),
  /** Running ÷ Capacity (0 when the zone has no spaces); above 1 when more park than the signs count. */
  Occupancy: z.number(),
});
export type DashboardZone = z.infer<typeof DashboardZone>;

export const DayFigures = z.object({
  /** The operator's calendar day, YYYY-MM-DD. */
  Date: z.string(),
  Sessions: z.number().int(),
  RevenueCents: z.number().int(),
});
export type DayFigures = z.infer<typeof DayFigures>;

/** GET /Dashboard: now, today (the operator's day) and the last 30 days, today included. */
export const OperatorDashboard = z.object({
  AsOf: z.string(),
  Timezone: z.string(),
  RunningSessions: z.number().int(),
  Today: z.object({ Sessions: z.number().int(), ...money }),
  Zones: z.array(DashboardZone),
  Trend: z.array(DayFigures),
});
export type OperatorDashboard = z.infer<typeof OperatorDashboard>;

export const ReportZone = z.object({
  ZoneId: z.number().int(),
  ZoneNumber: z.string(),
  Name: z.string(),
  Capacity: z.number().int(),
  Sessions: z.number().int(),
  ...money,
  Occupancy: z.number(),
});
export type ReportZone = z.infer<typeof ReportZone>;

/** GET /Report: the sessions started in the range, in the zones chosen, and how full those zones were. */
export const OperatorReport = z.object({
  From: z.string(),
  To: z.string(),
  Timezone: z.string(),
  Days: z.number().int(),
  /** The spaces of the zones chosen (today's capacities). */
  Capacity: z.number().int(),
  Sessions: z.number().int(),
  ...money,
  /** Minutes, started to ended (or to the paid end while running), averaged over the sessions. */
  AverageStayMinutes: z.number(),
  /** Sessions per space per day. */
  Turnover: z.number(),
  /** Time parked ÷ (spaces × the range's time). */
  Occupancy: z.number(),
  /** 24 rows: the operator's hour of the day, 0 to 23. */
  ByHourOfDay: z.array(z.object({ Hour: z.number().int(), Occupancy: z.number() })),
  /** 7 rows: ISO weekday, 1 (Monday) to 7. */
  ByDayOfWeek: z.array(z.object({ IsoDay: z.number().int(), Occupancy: z.number() })),
  ByDay: z.array(DayFigures),
  ByZone: z.array(ReportZone),
});
export type OperatorReport = z.infer<typeof OperatorReport>;
