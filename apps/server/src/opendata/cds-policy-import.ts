/**
 * CDS Policies read back into a price policy body (docs/pricing.md#cds-mapping): exactly the shapes
 * bodyToCdsPolicies (cds-policy.ts) writes, and a reason for what ParkIt's prices cannot say.
 */
import { PolicyBody, type TimeSpan, type UserClassPrice } from '@parkit/contract';
import { dayBefore, localTimeAt } from '../lib/local-clock.ts';
import {
  CDS_WEEKDAYS,
  type CdsPolicy,
  type CdsRate,
  type CdsRule,
  type CdsTimeSpan,
  type CdsTimeUnit,
  type CdsWeekday,
} from './cds-types.ts';

import { classFromCds, classKey, REST_KEY } from './cds-policy.ts';

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
