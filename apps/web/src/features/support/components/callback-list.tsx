import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/i18n.ts';
import { type CallBack } from '@parkit/contract';
import { formatDateLong } from '../../../lib/dates.ts';
import { Loaded } from '../../../components/ui/loaded.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { slotLabel } from '../lib/slots.ts';

const STATUS: Record<CallBack['Status'], { label: string; className: string }> = {
  open: { label: 'Scheduled', className: 'bg-amber-100 text-amber-900' },
  called: { label: 'Called', className: 'bg-emerald-100 text-emerald-900' },
  no_answer: { label: 'No answer', className: 'bg-slate-200 text-slate-800' },
};

/** The driver's call-back requests and their status. */
export function CallBackList({ query }: { query: UseQueryResult<CallBack[]> }) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="callbacks-heading" className="flex flex-col gap-3">
      <h2 id="callbacks-heading" className="text-base font-semibold text-slate-900">
        {t('Your call-back requests')}
      </h2>
      <Loaded
        query={query}
        skeleton={<Skeleton rows={2} className="h-16" />}
        failed={t('Your call-back requests could not be loaded.')}
      >
        {(callBacks) =>
          callBacks.length === 0 ? (
            <p className="rounded-2xl bg-slate-50 p-4 text-sm text-slate-600">{t('You have no call-back requests.')}</p>
          ) : (
            <ul className="flex flex-col gap-2">
              {callBacks.map((c) => (
                <li
                  key={c.CallBackId}
                  className="flex items-center justify-between gap-3 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200"
                  aria-label={t('Call back on {{date}} at {{time}}', {
                    date: formatDateLong(c.Date),
                    time: slotLabel(c.Time),
                  })}
                >
                  <div className="min-w-0">
                    <p className="font-medium">
                      {formatDateLong(c.Date)}, {slotLabel(c.Time)}
                    </p>
                    <p className="text-sm text-slate-600">{c.Phone}</p>
                  </div>
                  <span
                    className={`shrink-0 rounded-full px-3 py-1 text-xs font-semibold ${STATUS[c.Status].className}`}
                  >
                    {t(STATUS[c.Status].label)}
                  </span>
                </li>
              ))}
            </ul>
          )
        }
      </Loaded>
    </section>
  );
}
