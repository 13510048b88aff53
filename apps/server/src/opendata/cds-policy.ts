/**
 * A price policy version's body as CDS Policies, and back (docs/pricing.md#cds-mapping, one to one):
 * each span is a Policy (priority by its place), each user class priced apart or exempt in a span
 * its own Policy just before the span's, and one last Policy for the rest of the week (free, with
 * the body's maximum stay). The reverse (cdsToBody, cds-policy-import.ts) reads exactly those shapes, and refuses with a
 * reason what ParkIt's prices cannot say.
 */
import {
  PERMIT_KIND_VALUES,
  type PolicyBody,
  type TimeSpan,
  type UserClass,
  type UserClassPrice,
} from '@parkit/contract';
import { clockMinutes, localTimeAt } from '../lib/local-clock.ts';
import { CDS_WEEKDAYS, type CdsPolicy, type CdsRate, type CdsRule, type CdsTimeSpan } from './cds-types.ts';

/** Our user classes and CDS's well-known values (curbs.md, User Classes). */
const CLASS_TO_CDS: Record<UserClass, string> = {
  permit: 'permit',
  disabled: 'disabled_parking_permit',
  ev: 'electric',
};
const CDS_TO_CLASS = new Map(Object.entries(CLASS_TO_CDS).map(([ours, cds]) => [cds, ours as UserClass]));
/** Locally generated user classes (CDS allows them): a permit kind, and one of the operator's permit types. */
const KIND_PREFIX = 'permit_';
const TYPE_PREFIX = 'permit_type_';

/** A rule's user class as CDS names it. */
function classToCds(c: UserClassPrice): string {
  if (c.PermitTypeId !== undefined) return `${TYPE_PREFIX}${c.PermitTypeId}`;
  if (c.PermitKind !== undefined) return `${KIND_PREFIX}${c.PermitKind}`;
  return CLASS_TO_CDS[c.UserClass!];
}

/** A CDS user class as a rule of ours names it; null: none of ours (a feed's permit types are not this operator's). */
export function classFromCds(v: string): Pick<UserClassPrice, 'UserClass' | 'PermitKind'> | null {
  const ours = CDS_TO_CLASS.get(v);
  if (ours) return { UserClass: ours };
  const kind = PERMIT_KIND_VALUES.find((k) => v === `${KIND_PREFIX}${k}`);
  return kind ? { PermitKind: kind } : null;
}

/** The key a class's Policy id is made from: the user class's name as before, the permit's kind or type otherwise. */
export function classKey(c: UserClassPrice): string {
  return c.UserClass ?? (c.PermitKind !== undefined ? `kind:${c.PermitKind}` : `type:${c.PermitTypeId}`);
}

/** The key of the last Policy (the minutes in no span). */
export const REST_KEY = '*';
const STEP = 10;

/** Local midnight of a local date, as epoch milliseconds. */
export function localMidnightMs(date: string, timeZone: string): number {
  const wanted = Date.parse(`${date}T00:00:00Z`);
  let t = wanted;
  for (let i = 0; i < 4; i++) {
    const l = localTimeAt(t, timeZone);
    const diff = Date.parse(`${l.date}T00:00:00Z`) + l.minute * 60_000 - wanted;
    if (diff === 0) break;
    t -= diff;
  }
  return t;
}

const nextDay = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

function timeSpans(s: TimeSpan, timeZone: string): CdsTimeSpan[] | undefined {
  const base: CdsTimeSpan = {};
  if (s.StartDate) base.start_date = localMidnightMs(s.StartDate, timeZone);
  if (s.EndDate) base.end_date = localMidnightMs(nextDay(s.EndDate), timeZone);
  if (s.Days) base.days_of_week = [...s.Days].sort((a, b) => a - b).map((d) => CDS_WEEKDAYS[d - 1]!);
  if (s.DaysOfMonth) base.days_of_month = [...s.DaysOfMonth].sort((a, b) => a - b);
  if (s.Months) base.months = [...s.Months].sort((a, b) => a - b);
  if (s.Holidays) {
    base.designated_period = 'holidays';
    if (s.Holidays === 'except') base.designated_period_except = true;
  }
  const from = s.From ?? '00:00';
  const until = s.Until === undefined || s.Until === '00:00' ? '24:00' : s.Until;
  if (clockMinutes(until) > clockMinutes(from)) {
    const one: CdsTimeSpan = { ...base };
    if (from !== '00:00') one.time_of_day_start = from;
    if (until !== '24:00') one.time_of_day_end = until;
    return Object.keys(one).length === 0 ? undefined : [one];
  }
  // Crossing midnight: the evening on its days, the morning on the days after.
  const after: CdsTimeSpan = { ...base, time_of_day_end: until };
  if (base.days_of_week)
    after.days_of_week = [...s.Days!]
      .map((d) => (d % 7) + 1)
      .sort((a, b) => a - b)
      .map((d) => CDS_WEEKDAYS[d - 1]!);
  if (base.days_of_month) after.days_of_month = base.days_of_month.map((d) => (d % 31) + 1).sort((a, b) => a - b);
  if (base.start_date !== undefined) after.start_date = localMidnightMs(nextDay(s.StartDate!), timeZone);
  if (base.end_date !== undefined) after.end_date = localMidnightMs(nextDay(nextDay(s.EndDate!)), timeZone);
  return [{ ...base, time_of_day_start: from }, after];
}

/** A span's (or a class's) rate steps as CDS Rates: free minutes first, then each step to the next. */
function rates(
  steps: readonly { FromMinute: number; CentsPerHour: number }[],
  s: Pick<TimeSpan, 'FreeMinutes' | 'IncrementMinutes' | 'MaxSessionCents'>,
): CdsRate[] {
  const parts: { start: number; end?: number; cph: number }[] = [];
  if (s.FreeMinutes > 0) parts.push({ start: 0, end: s.FreeMinutes, cph: 0 });
  steps.forEach((st, i) => {
    const start = Math.max(st.FromMinute, s.FreeMinutes);
    const end = steps[i + 1]?.FromMinute;
    if (end === undefined || end > start)
      parts.push({ start, ...(end === undefined ? {} : { end }), cph: st.CentsPerHour });
  });
  const inc = s.IncrementMinutes > 1 ? s.IncrementMinutes : undefined;
  const hours = [inc ?? 0, ...parts.flatMap((p) => [p.start, p.end ?? 0])].every((m) => m % 60 === 0);
  const per = hours ? 60 : 1;
  return parts.map((p) => {
    const r: CdsRate = { rate: hours ? p.cph : Math.round(p.cph / 60), rate_unit: hours ? 'hour' : 'minute' };
    if (inc !== undefined) r.increment_duration = inc / per;
    if (p.start > 0) r.start_duration = p.start / per;
    if (p.end !== undefined) r.end_duration = p.end / per;
    if (s.MaxSessionCents !== undefined) r.maximum_fee = s.MaxSessionCents;
    return r;
  });
}

function stayRule(s: TimeSpan, body: PolicyBody): Omit<CdsRule, 'activity'> {
  const r: Omit<CdsRule, 'activity'> = { max_stay: s.MaxStayMinutes ?? body.MaxStayMinutes, max_stay_unit: 'minute' };
  if (s.NoReturnMinutes !== undefined) Object.assign(r, { no_return: s.NoReturnMinutes, no_return_unit: 'minute' });
  return r;
}

/**
 * The CDS Policies of a body, most precedence first. `id` names each from its key (span Id,
 * `span Id/class`, or REST_KEY); `published` is the version's creation.
 */
export function bodyToCdsPolicies(
  body: PolicyBody,
  id: (key: string) => string,
  published: number,
  timeZone: string,
): CdsPolicy[] {
  const out: CdsPolicy[] = [];
  body.Spans.forEach((s, i) => {
    const spans = timeSpans(s, timeZone);
    const priority = STEP * (i + 1);
    const withSpans = (p: CdsPolicy): CdsPolicy => (spans ? { ...p, time_spans: spans } : p);
    s.UserClasses.forEach((c, k) => {
      const rule: CdsRule = {
        activity: 'parking',
        ...stayRule(s, body),
        user_classes: [classToCds(c)],
        rate: c.Exempt ? [{ rate: 0, rate_unit: 'hour' }] : rates(c.Rate!, s),
      };
      out.push(
        withSpans({
          curb_policy_id: id(`${s.Id}/${classKey(c)}`),
          published_date: published,
          priority: priority - s.UserClasses.length + k,
          rules: [rule],
        }),
      );
    });
    out.push(
      withSpans({
        curb_policy_id: id(s.Id),
        published_date: published,
        priority,
        rules: [{ activity: 'parking', ...stayRule(s, body), rate: rates(s.Rate, s) }],
      }),
    );
  });
  out.push({
    curb_policy_id: id(REST_KEY),
    published_date: published,
    priority: STEP * (body.Spans.length + 1),
    rules: [{ activity: 'parking', max_stay: body.MaxStayMinutes, max_stay_unit: 'minute' }],
  });
  return out;
}
