import { z } from 'zod';
import { OperatorParams } from './operator.ts';
import { PermitKind } from './permits.ts';
import { WireId } from './vehicle.ts';

/**
 * Price policies (docs/pricing.md): what a zone charges, as time spans each with its rate, billing
 * increment, fees, stays and user classes. The body is stored as validated JSON per version; each
 * span maps to one Curb Data Specification Policy (docs/pricing.md#cds-mapping).
 */

export const PRICING_MESSAGES = {
  clock: 'Use a time of day as HH:MM, from 00:00 to 24:00',
  date: 'Use a date as YYYY-MM-DD',
  sameClock: 'A time span cannot start and end at the same time',
  rateFirst: 'The first rate must start at minute 0',
  rateOrder: 'Each rate must start later than the one before it',
  dateOrder: 'The end date cannot be before the start date',
  minOverMax: 'The minimum fee cannot be more than the maximum fee',
  spanIds: 'Each time span needs its own id',
  classRate: 'A user class is either exempt or has its own rate',
  classWho: 'Name one of a user class, a permit kind or a permit type',
  classOnce: 'Each user class once',
  permitTypeUnknown: 'Choose a permit type of this operator that is not retired',
  effectivePast: 'A new version cannot take effect in the past',
  eventWindow: 'The event must end after it starts',
  noReturn: 'This vehicle left this zone too recently to park here again yet',
  policyNotFound: 'Price policy not found',
  nameTaken: 'A price policy with this name already exists',
  zonesNotFound: 'One or more of these zones are not this operator’s',
  eventNotFound: 'Event not found',
  eventOver: 'This event has ended or was cancelled already',
} as const;

/** The highest rate a policy may charge: $1,000 an hour (keeps every sum an exact integer). */
export const MAX_CENTS_PER_HOUR = 100_000;
/** The highest fee a policy may name: $10,000. */
export const MAX_FEE_CENTS = 1_000_000;
/** A week: the longest stay, no-return or free period a policy may name. */
const WEEK_MINUTES = 7 * 24 * 60;

const CLOCK = /^(([01]\d|2[0-3]):[0-5]\d|24:00)$/;
export const Clock = z.string().regex(CLOCK, PRICING_MESSAGES.clock);

export const LocalDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, PRICING_MESSAGES.date)
  .refine((s) => {
    const d = new Date(`${s}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
  }, PRICING_MESSAGES.date);

const Cents = z.number().int('Must be a whole number').min(0, 'Cannot be negative').max(MAX_FEE_CENTS, 'Too large');
const Minutes = z.number().int('Must be a whole number').min(0, 'Cannot be negative').max(WEEK_MINUTES, 'Too large');

/** A rate from a minute of the stay on (minutes since arrival), in cents per hour, charged by the minute. */
export const RateStep = z
  .object({
    FromMinute: Minutes,
    CentsPerHour: z
      .number()
      .int('Must be a whole number')
      .min(0, 'Cannot be negative')
      .max(MAX_CENTS_PER_HOUR, 'Too large'),
  })
  .strict();

/** Per hour: one step from minute 0. Progressive: the first hour, then each further hour. */
export const Rate = z
  .array(RateStep)
  .min(1, PRICING_MESSAGES.rateFirst)
  .max(10, 'At most 10 rates')
  .superRefine((steps, ctx) => {
    if (steps[0] && steps[0].FromMinute !== 0)
      ctx.addIssue({ code: 'custom', path: [0, 'FromMinute'], message: PRICING_MESSAGES.rateFirst });
    for (let i = 1; i < steps.length; i++)
      if (steps[i]!.FromMinute <= steps[i - 1]!.FromMinute)
        ctx.addIssue({ code: 'custom', path: [i, 'FromMinute'], message: PRICING_MESSAGES.rateOrder });
  });

export const USER_CLASSES = ['permit', 'disabled', 'ev'] as const;
export const UserClass = z.enum(USER_CLASSES);
export type UserClass = z.infer<typeof UserClass>;

/**
 * A user class inside a span: exempt (pays nothing there) or priced apart (its own rate). It names
 * who, by exactly one of: a user class (`permit` holds for resident, visitor and business permits),
 * a permit kind, or one of the operator's permit types (docs/pricing.md#permit-holders).
 */
export const UserClassPrice = z
  .object({
    UserClass: UserClass.optional(),
    PermitKind: PermitKind.optional(),
    PermitTypeId: z.number().int().positive().max(2_147_483_647).optional(),
    Exempt: z.boolean(),
    Rate: Rate.optional(),
  })
  .strict()
  .superRefine((c, ctx) => {
    const named = [c.UserClass, c.PermitKind, c.PermitTypeId].filter((x) => x !== undefined).length;
    if (named !== 1) ctx.addIssue({ code: 'custom', path: ['UserClass'], message: PRICING_MESSAGES.classWho });
    if (c.Exempt !== (c.Rate === undefined))
      ctx.addIssue({ code: 'custom', path: ['Rate'], message: PRICING_MESSAGES.classRate });
  });
export type UserClassPrice = z.infer<typeof UserClassPrice>;

/** One key per whom a user class names, so a span names each once. */
export function userClassKey(c: Pick<UserClassPrice, 'UserClass' | 'PermitKind' | 'PermitTypeId'>): string {
  if (c.PermitTypeId !== undefined) return `type:${c.PermitTypeId}`;
  if (c.PermitKind !== undefined) return `kind:${c.PermitKind}`;
  return `class:${c.UserClass ?? ''}`;
}

export const TimeSpan = z
  .object({
    Id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'Use 1 to 40 lower-case letters, digits and dashes'),
    Name: z.string().trim().min(1, 'Name is required').max(80, 'At most 80 characters'),
    /** ISO weekdays, 1 = Monday; absent: every day. */
    Days: z.array(z.number().int().min(1, 'Days are 1 to 7').max(7, 'Days are 1 to 7')).min(1).max(7).optional(),
    /** Days of the month (1..31); absent: every day. With Days, both must hold (the 2nd Monday: Days [1], DaysOfMonth 8..14). */
    DaysOfMonth: z
      .array(z.number().int().min(1, 'Days of the month are 1 to 31').max(31, 'Days of the month are 1 to 31'))
      .min(1)
      .max(31)
      .optional(),
    /** Months (1 = January); absent: every month. */
    Months: z
      .array(z.number().int().min(1, 'Months are 1 to 12').max(12, 'Months are 1 to 12'))
      .min(1)
      .max(12)
      .optional(),
    /** Local time, inclusive; absent: 00:00. A From after Until crosses midnight (the day it starts on counts). */
    From: Clock.optional(),
    /** Local time, exclusive; absent: 24:00. */
    Until: Clock.optional(),
    /** Local dates, both inclusive. */
    StartDate: LocalDate.optional(),
    EndDate: LocalDate.optional(),
    /** Only on the policy's holidays, or never on them; absent: either. */
    Holidays: z.enum(['only', 'except']).optional(),
    Rate,
    IncrementMinutes: z.number().int().min(1, 'At least 1 minute').max(1440, 'At most 1440 minutes').default(1),
    FreeMinutes: Minutes.default(0),
    MinSessionCents: Cents.optional(),
    MaxSessionCents: Cents.optional(),
    MaxDayCents: Cents.optional(),
    MaxStayMinutes: Minutes.min(1, 'At least 1 minute').optional(),
    NoReturnMinutes: Minutes.optional(),
    /** At most 9: each is published as a CDS Policy numbered just before its span's (docs/pricing.md#cds-mapping). */
    UserClasses: z.array(UserClassPrice).max(9, 'At most 9 user classes in a time span').default([]),
  })
  .strict()
  .superRefine((s, ctx) => {
    const from = s.From ?? '00:00';
    const until = s.Until ?? '24:00';
    if (from === '24:00') ctx.addIssue({ code: 'custom', path: ['From'], message: PRICING_MESSAGES.clock });
    if (from === until || (from === '00:00' && until === '00:00'))
      ctx.addIssue({ code: 'custom', path: ['Until'], message: PRICING_MESSAGES.sameClock });
    if (s.StartDate && s.EndDate && s.EndDate < s.StartDate)
      ctx.addIssue({ code: 'custom', path: ['EndDate'], message: PRICING_MESSAGES.dateOrder });
    for (const max of ['MaxSessionCents', 'MaxDayCents'] as const)
      if (s.MinSessionCents !== undefined && s[max] !== undefined && s.MinSessionCents > s[max]!)
        ctx.addIssue({ code: 'custom', path: ['MinSessionCents'], message: PRICING_MESSAGES.minOverMax });
    const classes = s.UserClasses.map(userClassKey);
    if (new Set(classes).size !== classes.length)
      ctx.addIssue({ code: 'custom', path: ['UserClasses'], message: PRICING_MESSAGES.classOnce });
  });

/** The rules of one version of a price policy. A minute in no span is free; the first span that matches wins. */
export const PolicyBody = z
  .object({
    Spans: z.array(TimeSpan).max(50, 'At most 50 time spans'),
    /** Local dates that are holidays for spans' Holidays. */
    Holidays: z.array(LocalDate).max(400, 'At most 400 holidays').default([]),
    /** The longest session in the zone, free minutes included. */
    MaxStayMinutes: Minutes.min(1, 'At least 1 minute'),
  })
  .strict()
  .superRefine((b, ctx) => {
    const ids = b.Spans.map((s) => s.Id);
    if (new Set(ids).size !== ids.length)
      ctx.addIssue({ code: 'custom', path: ['Spans'], message: PRICING_MESSAGES.spanIds });
  });
export type PolicyBody = z.infer<typeof PolicyBody>;
export type PolicyBodyInput = z.input<typeof PolicyBody>;
export type TimeSpan = z.infer<typeof TimeSpan>;

const Instant = z.iso.datetime({ offset: true, error: 'Use a date and time as ISO 8601' });

/** A new version of a policy (or the first, with a Name): it prices sessions started from EffectiveFrom (default: now). */
export const PolicyVersionRequest = z
  .object({
    Name: z.string().trim().min(1, 'Name is required').max(80, 'At most 80 characters').optional(),
    EffectiveFrom: Instant.optional(),
    Body: PolicyBody,
  })
  .strict();
export type PolicyVersionRequest = z.input<typeof PolicyVersionRequest>;

export const PolicyVersion = z.object({
  PolicyId: z.number().int(),
  Name: z.string(),
  Version: z.number().int(),
  EffectiveFrom: z.string(),
  CreatedAt: z.string(),
  Body: PolicyBody,
});
export type PolicyVersion = z.infer<typeof PolicyVersion>;

/** "A 2-hour stay at 17:30 on a Saturday": a stay priced by a saved policy or a draft body. */
export const PricePreviewRequest = z
  .object({
    StartsAt: Instant,
    DurationMinutes: z.number().int().min(1, 'At least 1 minute').max(WEEK_MINUTES, 'Too large'),
    UserClasses: z.array(UserClass).max(USER_CLASSES.length).default([]),
  })
  .strict();
export type PricePreviewRequest = z.input<typeof PricePreviewRequest>;

/** One stretch of a stay inside one time span (Name null: in no span, free). */
export const PriceSpan = z.object({
  Name: z.string().nullable(),
  StartsAt: z.string(),
  EndsAt: z.string(),
  Minutes: z.number().int(),
  /** Dollars, before any plan discount; the stretches add up to the amount before the discount. */
  Amount: z.number(),
});
export type PriceSpan = z.infer<typeof PriceSpan>;

export const PricePreview = z.object({
  StartsAt: z.string(),
  EndsAt: z.string(),
  DurationMinutes: z.number().int(),
  PaidMinutes: z.number().int(),
  Amount: z.number(),
  /** Null when the stay is allowed; else why not (longer than a maximum stay). */
  Refusal: z.string().nullable(),
  Spans: z.array(PriceSpan),
});
export type PricePreview = z.infer<typeof PricePreview>;

/** A named event (a match, a concert) whose policy prices sessions started in its window in the chosen zones. */
export const PriceEventRequest = z
  .object({
    Name: z.string().trim().min(1, 'Name is required').max(80, 'At most 80 characters'),
    StartsAt: Instant,
    EndsAt: Instant,
    PolicyId: z.number().int().positive().max(2_147_483_647),
    ZoneIds: z.array(z.number().int().positive().max(2_147_483_647)).min(1, 'Choose at least one zone').max(10_000),
  })
  .strict()
  .refine((e) => Date.parse(e.EndsAt) > Date.parse(e.StartsAt), {
    path: ['EndsAt'],
    message: PRICING_MESSAGES.eventWindow,
  });
export type PriceEventRequest = z.input<typeof PriceEventRequest>;

/** A policy of an operator's price list: its latest version, the one in force now, and how many zones it prices. */
export const PolicySummary = z.object({
  PolicyId: z.number().int(),
  Name: z.string(),
  LatestVersion: z.number().int(),
  /** The version pricing sessions that start now (0: none yet). */
  CurrentVersion: z.number().int(),
  ZoneCount: z.number().int(),
});
export type PolicySummary = z.infer<typeof PolicySummary>;
export const PolicyList = z.array(PolicySummary);

/** One policy with all its versions (oldest first) and the zones it prices. */
export const PolicyDetail = z.object({
  PolicyId: z.number().int(),
  Name: z.string(),
  CurrentVersion: z.number().int(),
  Versions: z.array(PolicyVersion),
  ZoneIds: z.array(z.number().int()),
});
export type PolicyDetail = z.infer<typeof PolicyDetail>;

/** /api/Operator/{operatorId}/Policies/{policyId} */
export const OperatorPolicyParams = OperatorParams.extend({ policyId: WireId });
/** /api/Operator/{operatorId}/PriceEvents/{eventId} */
export const OperatorPriceEventParams = OperatorParams.extend({ eventId: WireId });

const PolicyName = z.string().trim().min(1, 'Name is required').max(80, 'At most 80 characters');

/** POST /api/Operator/{operatorId}/Policies: a new policy and its version 1. */
export const CreatePolicyRequest = z
  .object({ Name: PolicyName, EffectiveFrom: Instant.optional(), Body: PolicyBody })
  .strict();
export type CreatePolicyRequest = z.input<typeof CreatePolicyRequest>;

/** POST /api/Operator/{operatorId}/Policies/Preview: a draft body priced before it is saved. */
export const DraftPreviewRequest = z
  .object({
    Body: PolicyBody,
    StartsAt: Instant,
    DurationMinutes: z.number().int().min(1, 'At least 1 minute').max(WEEK_MINUTES, 'Too large'),
    UserClasses: z.array(UserClass).max(USER_CLASSES.length).default([]),
  })
  .strict();
export type DraftPreviewRequest = z.input<typeof DraftPreviewRequest>;

/** POST /api/Operator/{operatorId}/Policies/{policyId}/Zones: these zones are priced by the policy from now on. */
export const AssignPolicyRequest = z
  .object({
    ZoneIds: z
      .array(z.number().int().positive().max(2_147_483_647))
      .min(1, 'Choose at least one zone')
      .max(10_000, 'At most 10000 zones'),
  })
  .strict();
export type AssignPolicyRequest = z.input<typeof AssignPolicyRequest>;
export const AssignPolicyResponse = z.object({ PolicyId: z.number().int(), ZoneIds: z.array(z.number().int()) });

export const PriceEvent = z.object({
  EventId: z.number().int(),
  Name: z.string(),
  StartsAt: z.string(),
  EndsAt: z.string(),
  PolicyId: z.number().int(),
  ZoneIds: z.array(z.number().int()),
  /** When it was cancelled; null: it prices its window. */
  CancelledAt: z.string().nullable(),
});
export type PriceEvent = z.infer<typeof PriceEvent>;
export const PriceEventList = z.array(PriceEvent);
