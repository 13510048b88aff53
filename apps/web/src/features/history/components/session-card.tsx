import ChevronRight from 'lucide-react/icons/chevron-right';
import Clock from 'lucide-react/icons/clock';
import MapPin from 'lucide-react/icons/map-pin';
import { Link } from 'react-router';
import { useTranslation } from '../../../lib/i18n.ts';
import { parkedMinutes, type PastSession } from '@parkit/contract';
import { href, paths } from '../../../config/paths.ts';
import { formatKm, formatMinutes, sessionAmount, sessionWhen } from '../lib/session-format.ts';
import { useMoney } from '../../../lib/money.ts';

/** One past session: zone and address, date, duration, amount and plate; opens its detail. */
export function SessionCard({ session: s }: { session: PastSession }) {
  const { t } = useTranslation();
  const money = useMoney();
  const active = s.Status === 'Active';
  return (
    <li>
      <Link
        to={href(paths.parkingSessionDetail, { id: s.SessionId })}
        className="flex items-center gap-3 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 hover:ring-brand-600 focus-visible:outline-2 focus-visible:outline-brand-600"
        aria-label={t('Session {{id}}, zone {{zone}}, {{when}}', {
          id: s.SessionId,
          zone: s.ZoneNumber,
          when: sessionWhen(s),
        })}
      >
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-2">
            <span className="rounded-md bg-brand-700 px-1.5 py-0.5 text-xs font-extrabold text-white tabular-nums">
              {s.ZoneNumber}
            </span>
            <span className="font-semibold text-slate-900">{s.Address}</span>
            {active && (
              <span className="rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-800">
                {t('Active')}
              </span>
            )}
          </div>
          <p className="mt-1 text-sm text-slate-600">{sessionWhen(s)}</p>
          <dl className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-700">
            <div className="flex items-center gap-1">
              <dt className="sr-only">{t('Duration')}</dt>
              <Clock className="size-4 text-slate-500" aria-hidden />
              <dd>{formatMinutes(parkedMinutes(s), t)}</dd>
            </div>
            <div>
              <dt className="sr-only">{t('Amount Paid')}</dt>
              <dd className="font-semibold tabular-nums">{sessionAmount(s, money)}</dd>
            </div>
            <div>
              <dt className="sr-only">{t('Vehicle Plate #')}</dt>
              <dd className="rounded border border-slate-300 px-1.5 font-mono text-xs leading-5 font-bold tracking-wide">
                {s.PlateNumber} · {s.PlateState}
              </dd>
            </div>
            {s.DistanceMeters !== null && (
              <div className="flex items-center gap-1">
                <dt className="sr-only">{t('Distance')}</dt>
                <MapPin className="size-4 text-slate-500" aria-hidden />
                <dd>{formatKm(s.DistanceMeters, t)}</dd>
              </div>
            )}
          </dl>
        </div>
        <ChevronRight className="size-5 shrink-0 text-slate-400" aria-hidden />
      </Link>
    </li>
  );
}
