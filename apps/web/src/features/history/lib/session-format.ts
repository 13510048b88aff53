import { formatNumber, type TFunction } from '../../../lib/i18n.ts';
import { type PastSession } from '@parkit/contract';
import { formatDateLong, formatTime } from '../../../lib/dates.ts';
import type { Money } from '../../../lib/money.ts';

type Translate = TFunction;

/** docs/product.md#formats-and-limits: 'DD MMM YYYY, hh:mm A', in the phone's time. */
export const sessionWhen = (s: Pick<PastSession, 'StartedAt'>) =>
  `${formatDateLong(s.StartedAt)}, ${formatTime(s.StartedAt)}`;

/** The money the session cost, after any refund, with two decimals. */
export const sessionAmount = (s: Pick<PastSession, 'AmountPaid'>, money: Money) => money(s.AmountPaid);

export function formatMinutes(minutes: number, t: Translate): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  if (h === 0) return t('{{m}} min', { m });
  return m === 0 ? t('{{h}} h', { h }) : t('{{h}} h {{m}} min', { h, m });
}

/** A distance in the reader's language's digits and grouping. */
export function formatKm(metres: number, t: Translate): string {
  const digits = metres < 10_000 ? 1 : 0;
  return metres < 1000
    ? t('{{m}} m', { m: Math.round(metres) })
    : t('{{km}} km', {
        km: formatNumber(metres / 1000, { minimumFractionDigits: digits, maximumFractionDigits: digits }),
      });
}
