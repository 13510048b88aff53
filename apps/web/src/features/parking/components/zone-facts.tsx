import Building2 from 'lucide-react/icons/building-complex';
import CalendarClock from 'lucide-react/icons/calendar-clock';
import Car from 'lucide-react/icons/car';
import Clock from 'lucide-react/icons/clock';
import Hourglass from 'lucide-react/icons/hourglass';
import MapPin from 'lucide-react/icons/map-pin';
import Banknote from 'lucide-react/icons/banknote';
import type { ReactNode } from 'react';
import { useTranslation } from '../../../lib/i18n.ts';
import type { Zone } from '@parkit/contract';
import { formatDistance, formatMaxStay, formatPaidHours, formatRate, kindLabel } from '../lib/zone-format.ts';
import { useMoney } from '../../../lib/money.ts';
import { PaymentBadge } from './payment-badge.tsx';

function Fact({ icon, label, children }: { icon: ReactNode; label: string; children: ReactNode }) {
  return (
    <div className="flex items-start gap-3 py-2.5">
      <dt className="flex w-32 shrink-0 items-start gap-3 text-sm text-slate-600">
        <span className="mt-0.5 text-slate-500">{icon}</span>
        {label}
      </dt>
      <dd className="min-w-0 flex-1 text-sm font-medium text-slate-900">{children}</dd>
    </div>
  );
}

/** What a driver checks before parking: price, limits, when payment applies, where. */
export function ZoneFacts({ zone, showAddress = false }: { zone: Zone; showAddress?: boolean }) {
  const { t } = useTranslation();
  const money = useMoney();
  const distance = formatDistance(zone.DistanceMeters, t);
  const icon = 'size-4';
  return (
    <dl className="divide-y divide-slate-100">
      {showAddress && (
        <Fact icon={<MapPin className={icon} aria-hidden />} label={t('Address')}>
          <span className="block">{zone.Address}</span>
          <span className="block">{`${zone.City}, ${zone.State} ${zone.Zip}`}</span>
        </Fact>
      )}
      <Fact icon={<Clock className={icon} aria-hidden />} label={t('Right now')}>
        <PaymentBadge {...zone} />
      </Fact>
      <Fact icon={<Banknote className={icon} aria-hidden />} label={t('Rate')}>
        {formatRate(zone.RatePerHour, t, money)}
      </Fact>
      <Fact icon={<Hourglass className={icon} aria-hidden />} label={t('Maximum stay')}>
        {formatMaxStay(zone.MaxStayMinutes, t)}
      </Fact>
      <Fact icon={<CalendarClock className={icon} aria-hidden />} label={t('Paid hours')}>
        {formatPaidHours(zone, t)}
      </Fact>
      <Fact icon={<Car className={icon} aria-hidden />} label={t('Type')}>
        {kindLabel(zone.Kind, t)}
        {zone.Capacity > 0 && <span className="text-slate-600"> · {t('{{n}} spaces', { n: zone.Capacity })}</span>}
      </Fact>
      {distance && (
        <Fact icon={<MapPin className={icon} aria-hidden />} label={t('Distance')}>
          {distance}
        </Fact>
      )}
      <Fact icon={<Building2 className={icon} aria-hidden />} label={t('Operator')}>
        {zone.OperatorName}
      </Fact>
    </dl>
  );
}
