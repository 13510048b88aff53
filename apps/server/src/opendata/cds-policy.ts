/**
 * A price policy version's body as CDS Policies, and back (docs/pricing.md#cds-mapping, one to one):
 * each span is a Policy (priority by its place), each user class priced apart or exempt in a span
 * its own Policy just before the span's, and one last Policy for the rest of the week (free, with
 * the body's maximum stay). The reverse (cdsToBody) reads exactly those shapes, and refuses with a
 * reason what ParkIt's prices cannot say.
 */
import { PERMIT_KIND_VALUES, PolicyBody, type TimeSpan, type UserClass, type UserClassPrice } from '@parkit/contract';
import { clockMinutes, dayBefore, localTimeAt } from '../lib/local-clock.ts';
import {
  CDS_WEEKDAYS,
  type CdsPolicy,
  type CdsRate,
  type CdsRule,
  type CdsTimeSpan,
  type CdsTimeUnit,
  type CdsWeekday,
} from './cds-types.ts';

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
function classFromCds(v: string): Pick<UserClassPrice, 'UserClass' | 'PermitKind'> | null {
  const ours = CDS_TO_CLASS.get(v);
  if (ours) return { UserClass: ours };
  const kind = PERMIT_KIND_VALUES.find((k) => v === `${KIND_PREFIX}${k}`);
  return kind ? { PermitKind: kind } : null;
}

/** The key a class's Policy id is made from: the user class's name as before, the permit's kind or type otherwise. */
function classKey(c: UserClassPrice): string {
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

/** Refused: the reason, as the import reports it. */
export class CdsPolicyRefused extends Error {
  override name = 'CdsPolicyRefused';
}

const UNIT_MINUTES: Partial<Record<CdsTimeUnit, number>> = { minute: 1, hour: 60, day: 1440, week: 10_080 };

function minutesOf(n: number | undefined, unit: CdsTimeUnit | undefined, field: string): number | undefined {
  if (n === undefined) return undefined;
  const u = unit ?? 'minute';
  if (u === 'second') {
    if (n % 60 !== 0) throw new CdsPolicyRefused(`${field} in seconds must be whole minutes`);
    return n / 60;
  }
  const per = UNIT_MINUTES[u];
  if (per === undefined) throw new CdsPolicyRefused(`${field} in ${u}s has no equal in ParkIt's prices`);
  return n * per;
}

type Step = { FromMinute: number; CentsPerHour: number };

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

function readRates(
  list: readonly CdsRate[] | undefined,
  where: string,
): { steps: Step[]; all: Step[]; free: number; inc?: number; maxFee?: number } {
  if (!list || list.length === 0) {
    const steps = [{ FromMinute: 0, CentsPerHour: 0 }];
    return { steps, all: steps, free: 0 };
  }
  const read = list.map((r) => {
    if (r.increment_amount !== undefined)
      throw new CdsPolicyRefused(`${where}: increment_amount has no equal in ParkIt's prices`);
    if (r.rate_unit_period === 'calendar')
      throw new CdsPolicyRefused(`${where}: a calendar rate_unit_period has no equal in ParkIt's prices`);
    const per =
      r.rate_unit === 'hour' ? 60 : r.rate_unit === 'minute' ? 1 : r.rate_unit === 'second' ? 1 / 60 : undefined;
    if (per === undefined)
      throw new CdsPolicyRefused(
        `${where}: a rate per ${r.rate_unit} has no equal in ParkIt's prices (per hour, minute or second)`,
      );
    const span = (n: number | undefined) => (n === undefined ? undefined : n * per);
    const start = span(r.start_duration) ?? 0;
    const end = span(r.end_duration);
    const inc = span(r.increment_duration);
    for (const [v, f] of [
      [start, 'start_duration'],
      [end, 'end_duration'],
      [inc, 'increment_duration'],
    ] as const)
      if (v !== undefined && !Number.isInteger(v)) throw new CdsPolicyRefused(`${where}: ${f} must be whole minutes`);
    return { start, end, inc, cph: r.rate * (60 / per), maxFee: r.maximum_fee };
  });
  read.sort((a, b) => a.start - b.start);
  if (read[0]!.start !== 0) throw new CdsPolicyRefused(`${where}: the rates must start when the vehicle arrives`);
  for (let i = 1; i < read.length; i++)
    if (read[i - 1]!.end !== read[i]!.start)
      throw new CdsPolicyRefused(`${where}: each rate must end where the next starts`);
  if (read.at(-1)!.end !== undefined)
    throw new CdsPolicyRefused(`${where}: the last rate must run until the vehicle leaves`);
  const incs = new Set(read.map((r) => r.inc));
  const fees = new Set(read.map((r) => r.maxFee));
  if (incs.size > 1) throw new CdsPolicyRefused(`${where}: the rates must share one increment_duration`);
  if (fees.size > 1) throw new CdsPolicyRefused(`${where}: the rates must share one maximum_fee`);
  let free = 0;
  let rest = read;
  if (read.length > 1 && read[0]!.cph === 0) {
    free = read[0]!.end!;
    rest = read.slice(1);
  }
  const steps = rest.map((r, i) => ({ FromMinute: i === 0 ? 0 : r.start, CentsPerHour: r.cph }));
  const all = read.map((r) => ({ FromMinute: r.start, CentsPerHour: r.cph }));
  return { steps, all, free, inc: read[0]!.inc, maxFee: read[0]!.maxFee };
}

function readTimeSpans(list: readonly CdsTimeSpan[] | undefined, timeZone: string, where: string): Partial<TimeSpan> {
  if (!list || list.length === 0) return {};
  let ts = list[0]!;
  if (list.length === 2) {
    const [a, b] = list as [CdsTimeSpan, CdsTimeSpan];
    const ok =
      a.time_of_day_start !== undefined &&
      a.time_of_day_end === undefined &&
      b.time_of_day_end !== undefined &&
      b.time_of_day_start === undefined;
    if (!ok)
      throw new CdsPolicyRefused(
        `${where}: several time_spans in one policy (other than one crossing midnight) have no equal in ParkIt's prices; split it into policies`,
      );
    ts = { ...a, time_of_day_end: b.time_of_day_end };
  } else if (list.length > 2)
    throw new CdsPolicyRefused(
      `${where}: several time_spans in one policy have no equal in ParkIt's prices; split it into policies`,
    );
  const out: Partial<TimeSpan> = {};
  if (ts.days_of_week) out.Days = ts.days_of_week.map((d: CdsWeekday) => CDS_WEEKDAYS.indexOf(d) + 1);
  if (ts.days_of_month) out.DaysOfMonth = [...ts.days_of_month];
  if (ts.months) out.Months = [...ts.months];
  if (ts.time_of_day_start !== undefined) out.From = ts.time_of_day_start;
  if (ts.time_of_day_end !== undefined) out.Until = ts.time_of_day_end;
  if (ts.start_date !== undefined) out.StartDate = localTimeAt(ts.start_date, timeZone).date;
  if (ts.end_date !== undefined) out.EndDate = dayBefore(localTimeAt(ts.end_date, timeZone).date);
  if (ts.designated_period !== undefined) {
    if (ts.designated_period !== 'holidays')
      throw new CdsPolicyRefused(
        `${where}: designated_period "${ts.designated_period}" has no equal in ParkIt's prices (only holidays)`,
      );
    out.Holidays = ts.designated_period_except ? 'except' : 'only';
  }
  return out;
}

/**
 * The body of the CDS Policies of one zone, and the key of each policy (for its stored id). Throws
 * CdsPolicyRefused with the reason when ParkIt's prices cannot say what they say.
 */
export function cdsToBody(
  policies: readonly CdsPolicy[],
  timeZone: string,
): { body: PolicyBody; ids: Record<string, string> } {
  const sorted = [...policies].sort((a, b) => a.priority - b.priority);
  const ids: Record<string, string> = {};
  const spans: TimeSpan[] = [];
  let pendingClasses: { policy: CdsPolicy; rule: CdsRule }[] = [];
  let maxStay: number | undefined;
  sorted.forEach((p, i) => {
    const where = `policy ${p.curb_policy_id}`;
    if (p.data_source_operator_id)
      throw new CdsPolicyRefused(`${where}: data_source_operator_id has no equal in ParkIt's prices`);
    for (const r of p.rules)
      if (r.activity !== 'parking')
        throw new CdsPolicyRefused(`${where}: activity "${r.activity}" has no equal in ParkIt's prices (parking only)`);
    const everyone = p.rules.filter((r) => !r.user_classes || r.user_classes.length === 0);
    const classes = p.rules.filter((r) => r.user_classes && r.user_classes.length > 0);
    if (everyone.length > 1) throw new CdsPolicyRefused(`${where}: two rules for everyone`);
    for (const rule of classes) pendingClasses.push({ policy: p, rule });
    const rule = everyone[0];
    if (!rule) return;
    const last = i === sorted.length - 1;
    if (last && !p.time_spans?.length && !rule.rate?.length && rule.no_return === undefined && classes.length === 0) {
      maxStay = minutesOf(rule.max_stay, rule.max_stay_unit, `${where} max_stay`);
      ids[REST_KEY] = p.curb_policy_id;
      return;
    }
    const id = `s${spans.length + 1}`;
    const r = readRates(rule.rate, where);
    const classRates = pendingClasses.map((c) => readRates(c.rule.rate, `policy ${c.policy.curb_policy_id}`));
    const isExempt = (cr: ReturnType<typeof readRates>) => cr.all.length === 1 && cr.all[0]!.CentsPerHour === 0;
    // Free minutes are the span's when every class priced apart starts with the same free stretch.
    const free = r.free > 0 && classRates.every((cr) => isExempt(cr) || cr.free === r.free) ? r.free : 0;
    const span: TimeSpan = {
      Id: id,
      Name: `CDS ${p.curb_policy_id.slice(0, 8)}`,
      ...readTimeSpans(p.time_spans, timeZone, where),
      Rate: free > 0 ? r.steps : r.all,
      IncrementMinutes: r.inc ?? 1,
      FreeMinutes: free,
      UserClasses: [],
    };
    if (r.maxFee !== undefined) span.MaxSessionCents = r.maxFee;
    const stay = minutesOf(rule.max_stay, rule.max_stay_unit, `${where} max_stay`);
    if (stay !== undefined) span.MaxStayMinutes = stay;
    const noReturn = minutesOf(rule.no_return, rule.no_return_unit, `${where} no_return`);
    if (noReturn !== undefined) span.NoReturnMinutes = noReturn;
    ids[id] = p.curb_policy_id;
    pendingClasses.forEach((c, k) => {
      const cw = `policy ${c.policy.curb_policy_id}`;
      if (!sameJson(c.policy.time_spans, p.time_spans))
        throw new CdsPolicyRefused(`${cw}: a user class's policy must have the time_spans of the policy after it`);
      if (c.rule.user_classes!.length !== 1) throw new CdsPolicyRefused(`${cw}: one user class per rule`);
      const ours = classFromCds(c.rule.user_classes![0]!);
      if (!ours)
        throw new CdsPolicyRefused(
          `${cw}: user class "${c.rule.user_classes![0]}" has no equal in ParkIt's prices (permit, disabled_parking_permit, electric, permit_<kind>)`,
        );
      const cr = classRates[k]!;
      const rule: UserClassPrice = isExempt(cr)
        ? { ...ours, Exempt: true }
        : { ...ours, Exempt: false, Rate: free > 0 ? cr.steps : cr.all };
      span.UserClasses.push(rule);
      ids[`${id}/${classKey(rule)}`] = c.policy.curb_policy_id;
    });
    pendingClasses = [];
    spans.push(span);
  });
  if (pendingClasses.length > 0)
    throw new CdsPolicyRefused(
      `policy ${pendingClasses[0]!.policy.curb_policy_id}: a user class's policy needs a policy for everyone after it`,
    );
  // The spans' maximum stays equal to the body's are the body's (as they are published).
  const bodyStay = maxStay ?? 10_080;
  for (const s of spans) if (s.MaxStayMinutes === bodyStay) delete s.MaxStayMinutes;
  const parsed = PolicyBody.safeParse({ Spans: spans, Holidays: [], MaxStayMinutes: bodyStay });
  if (!parsed.success) {
    const i = parsed.error.issues[0]!;
    throw new CdsPolicyRefused(`${i.path.join('.') || 'policy'}: ${i.message}`);
  }
  return { body: parsed.data, ids };
}
