import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/i18n.ts';
import { type ConsoleCallBack } from '@parkit/contract';
import { formatDateLong } from '../../../lib/dates.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Loaded } from '../../../components/ui/loaded.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { useCloseCallBack } from '../api/console.ts';
import { slotLabel } from '../lib/slots.ts';

const CLOSED: Record<string, string> = { called: 'Called', no_answer: 'No answer' };

/** The call-back queue by scheduled time; 'Called' and 'No answer' close a request. */
export function ConsoleCallBacks({ query }: { query: UseQueryResult<ConsoleCallBack[]> }) {
  const { t } = useTranslation();
  const close = useCloseCallBack();
  return (
    <Loaded
      query={query}
      skeleton={<Skeleton rows={3} className="h-16" />}
      failed={t('The call-back queue could not be loaded.')}
    >
      {(callBacks) =>
        callBacks.length === 0 ? (
          <p className="rounded-2xl bg-slate-50 p-4 text-sm text-slate-600">{t('No call-back requests.')}</p>
        ) : (
          <ul className="flex flex-col gap-2">
            {callBacks.map((c) => {
              const name = c.Name || c.UserName;
              const busy = close.isPending && close.variables.id === c.CallBackId;
              return (
                <li
                  key={c.CallBackId}
                  aria-label={t('Call back for {{name}}', { name })}
                  className="flex flex-col gap-2 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200"
                >
                  <div className="flex items-baseline justify-between gap-2">
                    <span className="truncate font-semibold">{name}</span>
                    <span className="shrink-0 text-sm text-slate-600">
                      {formatDateLong(c.Date)}, {slotLabel(c.Time)}
                    </span>
                  </div>
                  <a href={`tel:${c.Phone}`} className="text-sm text-brand-800 underline">
                    {c.Phone}
                  </a>
                  {c.Status === 'open' ? (
                    <div className="flex gap-2">
                      <Button
                        variant="primary"
                        loading={busy && close.variables.status === 'called'}
                        disabled={busy}
                        onClick={() => close.mutate({ id: c.CallBackId, status: 'called' })}
                      >
                        {t('Called')}
                      </Button>
                      <Button
                        variant="secondary"
                        loading={busy && close.variables.status === 'no_answer'}
                        disabled={busy}
                        onClick={() => close.mutate({ id: c.CallBackId, status: 'no_answer' })}
                      >
                        {t('No answer')}
                      </Button>
                    </div>
                  ) : (
                    <span className="self-start rounded-full bg-slate-100 px-3 py-1 text-xs font-semibold text-slate-700">
                      {t(CLOSED[c.Status] ?? c.Status)}
                    </span>
                  )}
                </li>
              );
            })}
          </ul>
        )
      }
    </Loaded>
  );
}
