import { formatNumber, type TFunction } from '../../../lib/i18n.ts';
import type { Zone, ZoneKind } from '@parkit/contract';
import type { Money } from '../../../lib/money.ts';

/** The `t` of useTranslation(): the formatters stay pure functions, testable without React. */
export type Translate = TFunction;

/**
 * "40 m", "350 m", "1.2 km", "14 km": as precise as a driver on foot cares about, in the reader's
 * language's digits and grouping ("1,23,457 कि.मी.").
 */
export function formatDistance(meters: number | null, t: Translate): string | null {
  if (meters === null || !Number.isFinite(meters) || meters < 0) return null;
  if (meters < 100) return t('{{distance}} m', { distance: Math.round(meters) });
  if (meters < 995) return t('{{distance}} m', { distance: Math.round(meters / 10) * 10 });
  const km = meters / 1000;
  return t('{{distance}} km', {
    distance: formatNumber(km < 10 ? km : Math.round(km), { maximumFractionDigits: km < 10 ? 1 : 0 }),
  });
}

/** "$2.50/hr": the rate in the configured currency (useMoney). */
export function formatRate(ratePerHour: number, t: Translate, money: Money): string {
  return t('{{rate}}/hr', { rate: money(ratePerHour) });
}

/** "2 h max", "30 min max", "1 h 30 min max": the duration, as a limit. */
export function formatMaxStay(minutes: number, t: Translate): string {
  return t('{{duration}} max', { duration: formatDuration(minutes, t) });
}

/** '00:00' after a later start and '24:00' both mean the end of the day. */
const isMidnight = (hhmm: string) => hhmm === '24:00' || hhmm === '00:00';

type PaidFields = Pick<Zone, 'PaymentRequiredNow' | 'PaidUntilNow' | 'PaidDays' | 'PaidFrom' | 'PaidUntil'>;

const alwaysPaid = (z: PaidFields) => z.PaidDays.length === 7 && z.PaidFrom === '00:00' && isMidnight(z.PaidUntil);

/** "Free now" or "Paid until 18:00", from what the server says about the present moment. */
export function paymentLabel(z: PaidFields, t: Translate): string {
  if (!z.PaymentRequiredNow) return t('Free now');
  if (alwaysPaid(z)) return t('Paid 24/7');
  if (z.PaidUntilNow === null) return t('Paid now');
  if (isMidnight(z.PaidUntilNow)) return t('Paid until midnight');
  return t('Paid until {{time}}', { time: z.PaidUntilNow });
}

const dayName = (d: number, t: Translate): string =>
  [t('Mon'), t('Tue'), t('Wed'), t('Thu'), t('Fri'), t('Sat'), t('Sun')][d - 1] ?? String(d);

/** ISO weekdays as runs: [1,2,3,4,5,6] → "Mon–Sat"; [1,3,5] → "Mon, Wed, Fri". */
function formatDays(days: readonly number[], t: Translate): string {
  const sorted = [...new Set(days)].sort((a, b) => a - b);
  if (sorted.length === 7) return t('Every day');
  const runs: number[][] = [];
  for (const d of sorted) {
    const last = runs.at(-1);
    if (last && last.at(-1) === d - 1) last.push(d);
    else runs.push([d]);
  }
  return runs
    .map((r) =>
      r.length >= 3 ? `${dayName(r[0]!, t)}–${dayName(r.at(-1)!, t)}` : r.map((d) => dayName(d, t)).join(', '),
    )
    .join(', ');
}

/** When payment is required: "Mon–Sat, 08:00–18:00", "Every day, 24 hours". */
export function formatPaidHours(z: Pick<Zone, 'PaidDays' | 'PaidFrom' | 'PaidUntil'>, t: Translate): string {
  if (z.PaidDays.length === 0) return t('Always free');
  const days = formatDays(z.PaidDays, t);
  if (z.PaidFrom === '00:00' && isMidnight(z.PaidUntil)) return `${days}, ${t('24 hours')}`;
  const until = isMidnight(z.PaidUntil) ? t('midnight') : z.PaidUntil;
  return `${days}, ${z.PaidFrom}–${until}`;
}

export function kindLabel(kind: ZoneKind, t: Translate): string {
  return kind === 'garage' ? t('Garage') : kind === 'lot' ? t('Parking lot') : t('Street parking');
}

/** A duration as the picker and the receipt say it: '45 min', '2 h', '1 h 30 min'. */
export function formatDuration(minutes: number, t: Translate): string {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours === 0) return t('{{minutes}} min', { minutes: rest });
  if (rest === 0) return t('{{hours}} h', { hours });
  return t('{{hours}} h {{minutes}} min', { hours, minutes: rest });
}
