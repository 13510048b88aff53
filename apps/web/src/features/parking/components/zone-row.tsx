import ChevronRight from 'lucide-react/icons/chevron-right';
import { useTranslation } from '../../../lib/i18n.ts';
import type { Zone } from '@parkit/contract';
import { formatDistance, formatMaxStay, formatRate } from '../lib/zone-format.ts';
import { useMoney } from '../../../lib/money.ts';
import { PaymentBadge } from './payment-badge.tsx';
import { ZoneSign } from './zone-sign.tsx';

/** One zone in the list: sign, name, address, distance, rate, maximum stay and paid/free now. */
export function ZoneRow({ zone, onOpen }: { zone: Zone; onOpen: (zone: Zone) => void }) {
  const { t } = useTranslation();
  const money = useMoney();
  const distance = formatDistance(zone.DistanceMeters, t);
  return (
    <li>
      <button
        type="button"
        onClick={() => onOpen(zone)}
        className="flex w-full items-center gap-3 rounded-2xl border border-slate-200 bg-white p-3 text-start shadow-xs transition-colors hover:border-brand-500 hover:bg-brand-50/50"
      >
        <ZoneSign number={zone.ZoneNumber} />
        <span className="flex min-w-0 flex-1 flex-col gap-1">
          <span className="flex items-baseline justify-between gap-2">
            <span className="line-clamp-2 leading-snug font-semibold text-slate-900">{zone.Name}</span>
            {distance && <span className="shrink-0 text-sm font-medium text-slate-700 tabular-nums">{distance}</span>}
          </span>
          <span className="truncate text-sm text-slate-600">{zone.Address}</span>
          <span className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-slate-800">
            <span className="font-semibold tabular-nums">{formatRate(zone.RatePerHour, t, money)}</span>
            <span aria-hidden className="text-slate-400">
              ·
            </span>
            <span>{formatMaxStay(zone.MaxStayMinutes, t)}</span>
            <PaymentBadge {...zone} />
          </span>
        </span>
        <ChevronRight className="size-5 shrink-0 text-slate-400" aria-hidden />
      </button>
    </li>
  );
}
