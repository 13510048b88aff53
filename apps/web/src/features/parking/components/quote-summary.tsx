import { useTranslation } from 'react-i18next';
import { formatMoney, formatTime, type Quote } from '@parkit/contract';
import { formatRate } from '../lib/zone-format.ts';

const money = (n: number) => `$${formatMoney(n)}`;

/** The all-in price before paying: rate, parking amount, fee, total and when the time runs out. */
export function QuoteSummary({ quote, extension = false }: { quote: Quote; extension?: boolean }) {
  const { t } = useTranslation();
  const rows: [string, string][] = [
    [t('Rate'), formatRate(quote.RatePerHour, t)],
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
      <p className="mt-2 text-sm text-slate-600">
        {t('Until {{time}}', { time: formatTime(quote.EndsAt) })}
        {quote.PaidMinutes < quote.DurationMinutes && <> · {t('{{n}} free minutes are not charged', { n: quote.DurationMinutes - quote.PaidMinutes })}</>}
      </p>
    </section>
  );
}
