import { useTranslation } from '../../../lib/i18n.ts';
import ChartColumn from 'lucide-react/icons/chart-column';
import { Bar, BarChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { useMoney } from '../../../lib/money.ts';
import { useSpending } from '../api/wallet.ts';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Money spent per month over the last 6 months (parking and plans, less refunds). */
export function SpendingChart() {
  const { t } = useTranslation();
  const money = useMoney();
  const spending = useSpending();
  if (spending.isPending) return <Skeleton rows={1} className="h-40" />;
  if (spending.isError) return <p className="text-sm text-slate-600">{t('Your spending could not be loaded.')}</p>;
  const data = spending.data.Months.map((m) => ({
    month: t(MONTHS[Number(m.Month.slice(5, 7)) - 1] ?? m.Month),
    spent: m.Spent,
  }));
  const total = data.reduce((s, d) => s + d.spent, 0);
  // Nothing spent yet: words, not an empty chart on a bare 0-4 axis.
  if (data.every((d) => d.spent === 0))
    return (
      <div className="flex items-center gap-3 rounded-xl border border-dashed border-slate-300 p-4">
        <ChartColumn className="size-8 shrink-0 text-slate-400" aria-hidden />
        <p className="text-sm text-slate-600">
          {t('No spending in the last 6 months yet.')} {t('What you pay for parking and plans shows here by month.')}
        </p>
      </div>
    );
  return (
    <figure className="flex flex-col gap-2">
      <figcaption className="text-sm text-slate-600">
        {t('Spent in the last 6 months: {{amount}}', { amount: money(total) })}
      </figcaption>
      <div className="h-40 w-full" role="img" aria-label={data.map((d) => `${d.month} ${money(d.spent)}`).join(', ')}>
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={data} margin={{ top: 8, right: 8, left: -16, bottom: 0 }}>
            <XAxis dataKey="month" tickLine={false} axisLine={false} fontSize={12} />
            <YAxis tickLine={false} axisLine={false} fontSize={12} allowDecimals={false} />
            <Tooltip formatter={(v) => money(Number(v))} cursor={{ fill: '#f1f5f9' }} />
            <Bar dataKey="spent" name={t('Spent')} fill="#0f766e" radius={[6, 6, 0, 0]} />
          </BarChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}
