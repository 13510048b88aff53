import 'leaflet/dist/leaflet.css';
import { useEffect } from 'react';
import L from 'leaflet';
import { CircleMarker, MapContainer, TileLayer, Tooltip as MapTooltip, useMap } from 'react-leaflet';
import { Bar, BarChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { DashboardZone, OperatorDashboard } from '@parkit/contract';
import { useTranslation } from '../../../lib/i18n.ts';
import { useMoney } from '../../../lib/money.ts';
import { env } from '../../../config/env.ts';
import { Loaded } from '../../../components/ui/loaded.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { useDashboard } from '../api/reports.ts';
import { occupancyColour, percent } from '../lib/occupancy.ts';
import { useMembership } from './console-shell.tsx';

const ATTRIBUTION = '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors';

/** The dashboard (/operator/{id}/dashboard), the console's landing page: now, today and the last 30 days, asked again every 15 s. */
export function DashboardScreen() {
  const { t } = useTranslation();
  const { OperatorId } = useMembership();
  const dashboard = useDashboard(OperatorId);
  return (
    <section aria-labelledby="dashboard-title" className="flex flex-col gap-4">
      <h1 id="dashboard-title" className="text-xl font-bold text-slate-900">
        {t('Dashboard')}
      </h1>
      <Loaded
        query={dashboard}
        skeleton={<Skeleton rows={4} className="h-24" />}
        failed={t('The dashboard could not be loaded.')}
      >
        {(d) => <Figures d={d} />}
      </Loaded>
    </section>
  );
}

function Figures({ d }: { d: OperatorDashboard }) {
  const { t } = useTranslation();
  const money = useMoney();
  return (
    <>
      <dl className="grid gap-3 sm:grid-cols-3">
        <Stat label={t('Sessions running now')} value={String(d.RunningSessions)} testId="running-now" />
        <Stat label={t('Revenue today')} value={money(d.Today.RevenueCents / 100)} testId="revenue-today" />
        <Stat label={t('Sessions started today')} value={String(d.Today.Sessions)} testId="sessions-today" />
      </dl>
      <div className="grid gap-4 lg:grid-cols-2">
        <Card title={t('Occupancy by zone')}>
          {d.Zones.length === 0 ? (
            <p className="text-slate-600">{t('This operator has no zones yet.')}</p>
          ) : (
            <>
              <OccupancyMap zones={d.Zones} />
              <ZoneList zones={d.Zones} />
            </>
          )}
        </Card>
        <Card title={t('Last 30 days')}>
          <Trend d={d} />
        </Card>
      </div>
    </>
  );
}

function Stat({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
      <dt className="text-sm text-slate-600">{label}</dt>
      <dd className="text-2xl font-bold break-words text-slate-900 tabular-nums" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

export function Card({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="flex min-w-0 flex-col gap-3 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
      <h2 className="text-lg font-semibold text-slate-900">{title}</h2>
      {children}
    </section>
  );
}

/** Fits the map to the zones once they are known. */
function FitZones({ zones }: { zones: DashboardZone[] }) {
  const map = useMap();
  const key = zones.map((z) => z.ZoneId).join(',');
  useEffect(() => {
    const bounds = L.latLngBounds(zones.map((z) => [z.Latitude, z.Longitude] as [number, number]));
    map.fitBounds(bounds, { padding: [24, 24], maxZoom: 16 });
    // Only when the set of zones changes, not on every refresh of their counts.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [map, key]);
  return null;
}

/** The heat layer: a disc per zone, its colour how full the zone is, its size how many spaces it has. */
function OccupancyMap({ zones }: { zones: DashboardZone[] }) {
  const { t } = useTranslation();
  const first = zones[0]!;
  return (
    <div
      className="h-72 overflow-hidden rounded-xl ring-1 ring-slate-200"
      role="region"
      aria-label={t('Occupancy map: each disc a zone, its colour how full it is (the table below lists them)')}
    >
      <MapContainer center={[first.Latitude, first.Longitude]} zoom={14} className="size-full" keyboard={false}>
        <TileLayer url={env.VITE_MAP_TILE_URL} attribution={ATTRIBUTION} maxZoom={18} />
        <FitZones zones={zones} />
        {zones.map((z) => (
          <CircleMarker
            key={z.ZoneId}
            center={[z.Latitude, z.Longitude]}
            radius={8 + Math.min(16, Math.sqrt(z.Capacity) * 2)}
            pathOptions={{
              color: occupancyColour(z.Occupancy),
              fillColor: occupancyColour(z.Occupancy),
              fillOpacity: 0.55,
            }}
          >
            <MapTooltip>
              {t('Zone {{number}}: {{running}} of {{capacity}} spaces', {
                number: z.ZoneNumber,
                running: z.Running,
                capacity: z.Capacity,
              })}
            </MapTooltip>
          </CircleMarker>
        ))}
      </MapContainer>
    </div>
  );
}

/** The map's figures as text, for every reader and keyboard: the fullest zones first. */
function ZoneList({ zones }: { zones: DashboardZone[] }) {
  const { t } = useTranslation();
  const sorted = [...zones].sort((a, b) => b.Occupancy - a.Occupancy || a.ZoneNumber.localeCompare(b.ZoneNumber));
  return (
    <table className="w-full text-start text-sm">
      <thead className="text-slate-600">
        <tr>
          <th scope="col" className="py-1 pe-2 font-medium">
            {t('Zone')}
          </th>
          <th scope="col" className="py-1 pe-2 font-medium">
            {t('Running')}
          </th>
          <th scope="col" className="py-1 font-medium">
            {t('Occupancy')}
          </th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {sorted.slice(0, 10).map((z) => (
          <tr key={z.ZoneId} data-testid={`zone-${z.ZoneNumber}`}>
            <td className="py-1 pe-2 break-words">
              <span className="font-semibold">{z.ZoneNumber}</span> {z.Name}
            </td>
            <td className="py-1 pe-2 tabular-nums">
              {z.Running} / {z.Capacity}
            </td>
            <td className="py-1 tabular-nums">
              <span
                className="me-1 inline-block size-2.5 rounded-full"
                style={{ background: occupancyColour(z.Occupancy) }}
                aria-hidden
              />
              {percent(z.Occupancy)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Trend({ d }: { d: OperatorDashboard }) {
  const { t } = useTranslation();
  const money = useMoney();
  const data = d.Trend.map((p) => ({ day: p.Date.slice(5), revenue: p.RevenueCents / 100, sessions: p.Sessions }));
  if (data.every((p) => p.revenue === 0 && p.sessions === 0))
    return <p className="text-slate-600">{t('No sessions in the last 30 days yet.')}</p>;
  const total = data.reduce((a, p) => a + p.revenue, 0);
  return (
    <figure className="flex flex-col gap-2">
      <figcaption className="text-sm text-slate-600">
        {t('Revenue in the last 30 days: {{amount}}', { amount: money(total) })}
      </figcaption>
      <div className="h-56 w-full" role="img" aria-label={data.map((p) => `${p.day} ${money(p.revenue)}`).join(', ')}>
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={data} margin={{ top: 8, right: 8, left: 0, bottom: 0 }}>
            <XAxis dataKey="day" tickLine={false} axisLine={false} fontSize={11} interval="preserveStartEnd" />
            <YAxis tickLine={false} axisLine={false} fontSize={11} />
            <Tooltip formatter={(v) => money(Number(v))} cursor={{ fill: '#f1f5f9' }} />
            <Bar dataKey="revenue" name={t('Revenue')} fill="#0f766e" radius={[4, 4, 0, 0]} />
          </BarChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}
