import Download from 'lucide-react/icons/download';
import { useId, useState } from 'react';
import { Bar, BarChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { MAX_REPORT_DAYS, daysInRange, type DashboardZone, type OperatorReport } from '@parkit/contract';
import { useTranslation, type TFunction } from '../../../lib/i18n.ts';
import { useMoney } from '../../../lib/money.ts';
import { downloadFile } from '../../../lib/download-file.ts';
import { toast } from '../../../lib/toasts.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Loaded } from '../../../components/ui/loaded.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { reportQuery, useDashboard, useReport } from '../api/reports.ts';
import { percent } from '../lib/occupancy.ts';
import { useMembership } from './console-shell.tsx';
import { Card } from './dashboard-screen.tsx';

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

/** YYYY-MM-DD of a day `back` days before today (the browser's day; the server reads it as the operator's). */
const dayBefore = (back: number) => {
  const d = new Date(Date.now() - back * 86_400_000);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

/** Reports (/operator/{id}/reports): a date range and zone set, its figures, and the CSVs behind them. */
export function ReportsScreen() {
  const { t } = useTranslation();
  const { OperatorId } = useMembership();
  const [from, setFrom] = useState(dayBefore(29));
  const [to, setTo] = useState(dayBefore(0));
  const [zoneIds, setZoneIds] = useState<number[]>([]);
  const zones = useDashboard(OperatorId);
  const rangeError =
    !from || !to
      ? t('Choose the first and the last day')
      : from > to
        ? t('The first day must not be after the last')
        : daysInRange(from, to) > MAX_REPORT_DAYS
          ? t('A report covers at most 366 days')
          : null;
  const query = reportQuery(from, to, zoneIds);
  return (
    <section aria-labelledby="reports-title" className="flex flex-col gap-4">
      <h1 id="reports-title" className="text-xl font-bold text-slate-900">
        {t('Reports')}
      </h1>
      <div
        role="search"
        className="flex flex-col gap-3 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200"
        aria-label={t('Report filters')}
      >
        <div className="flex flex-wrap items-end gap-3">
          <DateField label={t('From')} value={from} onChange={setFrom} />
          <DateField label={t('To')} value={to} onChange={setTo} />
          <ZonePicker zones={zones.data?.Zones ?? []} chosen={zoneIds} onChange={setZoneIds} />
        </div>
        {rangeError && (
          <p role="alert" className="text-sm text-red-700">
            {rangeError}
          </p>
        )}
      </div>
      {!rangeError && <ReportFigures operatorId={OperatorId} query={query} from={from} to={to} />}
    </section>
  );
}

function DateField({ label, value, onChange }: { label: string; value: string; onChange: (v: string) => void }) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-700">
        {label}
      </label>
      <input
        id={id}
        type="date"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className="min-h-11 rounded-lg border border-slate-300 px-2"
      />
    </div>
  );
}

/** The zones to report on: none ticked means all of them. */
function ZonePicker({
  zones,
  chosen,
  onChange,
}: {
  zones: DashboardZone[];
  chosen: number[];
  onChange: (ids: number[]) => void;
}) {
  const { t } = useTranslation();
  if (zones.length === 0) return null;
  return (
    <fieldset className="flex min-w-0 flex-1 flex-col gap-1">
      <legend className="text-sm font-medium text-slate-700">{t('Zones (none ticked: all)')}</legend>
      <div className="flex max-h-28 flex-wrap gap-x-4 gap-y-1 overflow-y-auto">
        {zones.map((z) => (
          <label key={z.ZoneId} className="flex min-h-11 items-center gap-2 text-sm">
            <input
              type="checkbox"
              className="size-4"
              checked={chosen.includes(z.ZoneId)}
              onChange={(e) =>
                onChange(e.target.checked ? [...chosen, z.ZoneId] : chosen.filter((id) => id !== z.ZoneId))
              }
            />
            <span className="break-words">
              {z.ZoneNumber} {z.Name}
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

function ReportFigures({
  operatorId,
  query,
  from,
  to,
}: {
  operatorId: number;
  query: string;
  from: string;
  to: string;
}) {
  const { t } = useTranslation();
  const report = useReport(operatorId, query);
  const [busy, setBusy] = useState<string | null>(null);
  const download = async (kind: 'Sessions' | 'Hours') => {
    setBusy(kind);
    try {
      await downloadFile(
        `/api/Operator/${operatorId}/Report/${kind}.csv?${query}`,
        `parkit-report-${kind.toLowerCase()}-${from}-${to}.csv`,
      );
    } catch {
      toast.error(t('The export could not be downloaded.'));
    } finally {
      setBusy(null);
    }
  };
  return (
    <Loaded
      query={report}
      skeleton={<Skeleton rows={4} className="h-24" />}
      failed={t('The report could not be loaded.')}
      refused={{ status: [404], message: t('Zone not found') }}
    >
      {(r) => (
        <>
          <div className="flex flex-wrap gap-2">
            <Button variant="secondary" loading={busy === 'Sessions'} onClick={() => void download('Sessions')}>
              <Download className="size-4" aria-hidden /> {t('Sessions (CSV)')}
            </Button>
            <Button variant="secondary" loading={busy === 'Hours'} onClick={() => void download('Hours')}>
              <Download className="size-4" aria-hidden /> {t('Hourly figures (CSV)')}
            </Button>
          </div>
          {r.Sessions === 0 && r.Occupancy === 0 ? (
            <p className="rounded-2xl bg-white p-4 text-slate-600 ring-1 ring-slate-200">
              {t('No sessions in these days and zones.')}
            </p>
          ) : (
            <Figures r={r} />
          )}
        </>
      )}
    </Loaded>
  );
}

function Figures({ r }: { r: OperatorReport }) {
  const { t } = useTranslation();
  const money = useMoney();
  const cents = (c: number) => money(c / 100);
  const stats: [string, string, string][] = [
    [t('Sessions'), String(r.Sessions), 'report-sessions'],
    [t('Revenue'), cents(r.RevenueCents), 'report-revenue'],
    [t('Parking amount'), cents(r.ParkingCents), 'report-parking'],
    [t('Fees'), cents(r.FeeCents), 'report-fees'],
    [t('Refunds'), cents(r.RefundedCents), 'report-refunds'],
    [t('Discounts'), cents(r.DiscountCents), 'report-discounts'],
    [t('Average stay'), t('{{m}} min', { m: Math.round(r.AverageStayMinutes) }), 'report-stay'],
    [t('Turnover (sessions per space per day)'), r.Turnover.toFixed(2), 'report-turnover'],
    [t('Occupancy'), percent(r.Occupancy), 'report-occupancy'],
  ];
  return (
    <>
      <dl className="grid gap-3 sm:grid-cols-3 lg:grid-cols-5">
        {stats.map(([label, value, id]) => (
          <div key={id} className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
            <dt className="text-sm break-words text-slate-600">{label}</dt>
            <dd className="text-xl font-bold break-words text-slate-900 tabular-nums" data-testid={id}>
              {value}
            </dd>
          </div>
        ))}
      </dl>
      <div className="grid gap-4 lg:grid-cols-2">
        <Card title={t('Occupancy by hour of day')}>
          <ShareChart t={t} data={r.ByHourOfDay.map((h) => ({ label: String(h.Hour), share: h.Occupancy }))} />
        </Card>
        <Card title={t('Occupancy by day of week')}>
          <ShareChart
            t={t}
            data={r.ByDayOfWeek.map((d) => ({ label: t(WEEKDAYS[d.IsoDay - 1]!), share: d.Occupancy }))}
          />
        </Card>
      </div>
      <Card title={t('By zone')}>
        <div className="overflow-x-auto">
          <table className="w-full text-start text-sm">
            <thead className="text-slate-600">
              <tr>
                <th scope="col" className="py-1 pe-3 font-medium">
                  {t('Zone')}
                </th>
                <th scope="col" className="py-1 pe-3 font-medium">
                  {t('Sessions')}
                </th>
                <th scope="col" className="py-1 pe-3 font-medium">
                  {t('Revenue')}
                </th>
                <th scope="col" className="py-1 pe-3 font-medium">
                  {t('Refunds')}
                </th>
                <th scope="col" className="py-1 font-medium">
                  {t('Occupancy')}
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {r.ByZone.map((z) => (
                <tr key={z.ZoneId}>
                  <td className="py-1 pe-3 break-words">
                    <span className="font-semibold">{z.ZoneNumber}</span> {z.Name}
                  </td>
                  <td className="py-1 pe-3 tabular-nums">{z.Sessions}</td>
                  <td className="py-1 pe-3 tabular-nums">{cents(z.RevenueCents)}</td>
                  <td className="py-1 pe-3 tabular-nums">{cents(z.RefundedCents)}</td>
                  <td className="py-1 tabular-nums">{percent(z.Occupancy)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Card>
    </>
  );
}

function ShareChart({ t, data }: { t: TFunction; data: { label: string; share: number }[] }) {
  return (
    <div className="h-48 w-full" role="img" aria-label={data.map((d) => `${d.label} ${percent(d.share)}`).join(', ')}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} margin={{ top: 8, right: 8, left: -8, bottom: 0 }}>
          <XAxis dataKey="label" tickLine={false} axisLine={false} fontSize={11} />
          <YAxis tickLine={false} axisLine={false} fontSize={11} tickFormatter={(v: number) => percent(v)} />
          <Tooltip formatter={(v) => percent(Number(v))} cursor={{ fill: '#f1f5f9' }} />
          <Bar dataKey="share" name={t('Occupancy')} fill="#0f766e" radius={[4, 4, 0, 0]} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
