import type { ReactNode } from 'react';
import CircleAlert from 'lucide-react/icons/circle-exclamation-point';
import { useTranslation } from '../../../lib/i18n.ts';
import { type Quote } from '@parkit/contract';
import { formatTime } from '../../../lib/dates.ts';
import { formatRate } from '../lib/zone-format.ts';
import { useMoney } from '../../../lib/money.ts';

/**
 * The all-in price before paying: rate, parking amount, fee, total, the stretches of the zone's
 * time spans the stay crosses (docs/pricing.md) and when the time runs out.
 */
export function QuoteSummary({ quote, extension = false }: { quote: Quote; extension?: boolean }) {
  const { t } = useTranslation();
  const money = useMoney();
  const rows: [string, string][] = [
    [t('Rate'), formatRate(quote.RatePerHour, t, money)],
    // The plan's zone discount (Deluxe), already taken off the parking amount below it.
    ...(quote.DiscountAmount > 0
      ? [
          [t('Plan discount ({{pct}}%)', { pct: quote.DiscountPercent }), `−${money(quote.DiscountAmount)}`] as [
            string,
            string,
          ],
        ]
      : []),
    [t('Parking amount'), money(quote.ParkingAmount)],
    [extension ? t('Convenience fee (paid at the start)') : t('Convenience fee'), money(quote.FeeAmount)],
  ];
  return (
    <section aria-label={t('Price')} aria-live="polite" className="rounded-2xl border border-slate-200 bg-white p-4">
      <dl className="flex flex-col gap-1.5 text-sm">
        {rows.map(([label, value]) => (
          <div key={label} className="flex justify-between gap-4">
            <dt className="text-slate-600">{label}</dt>
            <dd className="font-medium text-slate-900">{value}</dd>
          </div>
        ))}
        <div className="mt-1 flex justify-between gap-4 border-t border-slate-100 pt-2 text-base">
          <dt className="font-semibold text-slate-900">{t('Total')}</dt>
          <dd className="font-bold text-slate-900" data-testid="quote-total">
            {money(quote.TotalAmount)}
          </dd>
        </div>
      </dl>
      {quote.PermitRate && (
        <p className="mt-2 text-sm font-medium text-slate-700">
          {t('Permit rate: {{type}}', { type: quote.PermitRate.PermitType })}
        </p>
      )}
      {quote.Spans.length > 0 && (
        <ul
          aria-label={t('Price by time of day')}
          className="mt-2 flex flex-col gap-1 border-t border-slate-100 pt-2 text-sm"
        >
          {quote.Spans.map((s) => (
            <li key={s.StartsAt} className="flex flex-wrap justify-between gap-x-4 text-slate-600">
              <span className="min-w-0 break-words">
                {t('{{from}}–{{until}}', { from: formatTime(s.StartsAt), until: formatTime(s.EndsAt) })}{' '}
                {s.Name ?? t('Free time')}
              </span>
              <span className="font-medium text-slate-900">{money(s.Amount)}</span>
            </li>
          ))}
        </ul>
      )}
      <p className="mt-2 text-sm text-slate-600">
        {t('Until {{time}}', { time: formatTime(quote.EndsAt) })}
        {quote.PaidMinutes < quote.DurationMinutes && (
          <> · {t('{{n}} free minutes are not charged', { n: quote.DurationMinutes - quote.PaidMinutes })}</>
        )}
      </p>
    </section>
  );
}

/**
 * When the balance does not cover the total: auto-reload covers it (and says so), or the driver
 * is offered Add Money. Nothing when the balance is enough.
 */
export function FundsNotice({ quote, addMoney }: { quote: Quote; addMoney?: ReactNode }) {
  const { t } = useTranslation();
  const money = useMoney();
  if (quote.BalanceCovers) return null;
  if (quote.AutoReloadCovers) {
    return (
      <p
        role="status"
        className="rounded-2xl border border-brand-100 bg-brand-50 p-4 text-sm text-slate-800"
        data-testid="auto-reload-covers"
      >
        {t('Your balance is {{balance}}. Auto-reload adds {{amount}} from your card first, then pays {{total}}.', {
          balance: money(quote.Balance),
          amount: money(quote.AutoReloadAmount),
          total: money(quote.TotalAmount),
        })}
      </p>
    );
  }
  return (
    <div
      role="alert"
      className="flex items-start gap-3 rounded-2xl border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950"
    >
      <CircleAlert className="mt-0.5 size-5 shrink-0" aria-hidden />
      <div className="flex flex-col gap-1">
        <p>
          {t('Your balance is {{balance}}: not enough for {{total}}.', {
            balance: money(quote.Balance),
            total: money(quote.TotalAmount),
          })}
        </p>
        {addMoney}
      </div>
    </div>
  );
}

/** Whether Pay can go ahead: the balance covers the total, or auto-reload does. */
export const fundsCover = (q: Quote) => q.BalanceCovers || q.AutoReloadCovers;
