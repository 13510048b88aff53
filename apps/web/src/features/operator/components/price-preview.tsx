import { useEffect, useState } from 'react';
import { useWatch, type Control } from 'react-hook-form';
import { formatDate, formatTime, PolicyBody, type DraftPreviewRequest } from '@parkit/contract';
import { useTranslation } from '../../../lib/i18n.ts';
import { useMoney } from '../../../lib/money.ts';
import { TextField } from '../../../components/ui/field.tsx';
import { Loaded } from '../../../components/ui/loaded.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { usePricePreview } from '../api/prices.ts';
import type { PolicyForm } from '../lib/policy-form.ts';

/** The next Saturday at 17:30, as a datetime-local value: the example the issue gives. */
function nextSaturdayEvening(): string {
  const d = new Date();
  d.setDate(d.getDate() + ((6 - d.getDay() + 7) % 7 || 7));
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T17:30`;
}

/**
 * "A 2-hour stay starting Saturday 17:30 costs ...": the editor's draft priced by the server's own
 * engine as it is edited (half a second after the last change), with the spans the stay crosses.
 * A draft the contract refuses is not sent; the box says what to fix.
 */
export function PricePreviewBox({ operatorId, control }: { operatorId: number; control: Control<PolicyForm> }) {
  const { t } = useTranslation();
  const money = useMoney();
  const body = useWatch({ control, name: 'Body' });
  const [startsAt, setStartsAt] = useState(nextSaturdayEvening);
  const [minutes, setMinutes] = useState('120');
  const [draft, setDraft] = useState<DraftPreviewRequest | null>(null);
  const valid = PolicyBody.safeParse(body).success;
  const start = new Date(startsAt);
  const duration = Number(minutes);
  const ready = valid && !Number.isNaN(start.getTime()) && Number.isInteger(duration) && duration > 0;
  const wanted = ready ? JSON.stringify({ Body: body, StartsAt: start.toISOString(), DurationMinutes: duration }) : '';
  useEffect(() => {
    if (wanted === '') return;
    const timer = setTimeout(() => setDraft(JSON.parse(wanted) as DraftPreviewRequest), 500);
    return () => clearTimeout(timer);
  }, [wanted]);
  const preview = usePricePreview(operatorId, ready ? draft : null);
  // Busy while the last edit waits for its turn or its answer: the amount shown is not yet the draft's.
  const busy = ready && (draft === null || JSON.stringify(draft) !== wanted || preview.isFetching);
  return (
    <aside
      aria-labelledby="preview-title"
      className="flex h-fit flex-col gap-3 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 xl:sticky xl:top-4"
    >
      <h2 id="preview-title" className="text-lg font-bold text-slate-900">
        {t('Preview')}
      </h2>
      <TextField
        type="datetime-local"
        label={t('Stay starting')}
        value={startsAt}
        onChange={(e) => setStartsAt(e.target.value)}
      />
      <TextField
        label={t('For (minutes)')}
        inputMode="numeric"
        value={minutes}
        onChange={(e) => setMinutes(e.target.value)}
      />
      <div aria-live="polite" aria-busy={busy} data-testid="preview-result">
        {!ready ? (
          <p className="text-sm text-slate-600">{t('Complete the policy and the stay to see its price.')}</p>
        ) : (
          <Loaded
            query={preview}
            skeleton={<Skeleton rows={2} className="h-8" />}
            failed={t('The preview could not be loaded.')}
            compact
          >
            {(p) => (
              <div className="flex flex-col gap-2">
                <p className="text-slate-900">
                  {t('A {{minutes}}-minute stay starting {{date}} {{time}} costs', {
                    minutes: p.DurationMinutes,
                    date: formatDate(p.StartsAt),
                    time: formatTime(p.StartsAt),
                  })}{' '}
                  <strong data-testid="preview-amount" className="text-xl">
                    {money(p.Amount)}
                  </strong>
                </p>
                {p.Refusal && (
                  <p role="alert" className="text-sm font-medium text-red-600">
                    {t(p.Refusal)}
                  </p>
                )}
                <ul className="divide-y divide-slate-200 text-sm">
                  {p.Spans.map((s) => (
                    <li key={s.StartsAt} className="flex flex-wrap justify-between gap-2 py-1">
                      <span className="break-words">
                        {s.Name ?? t('Free')} · {formatTime(s.StartsAt)}–{formatTime(s.EndsAt)}
                      </span>
                      <span>{money(s.Amount)}</span>
                    </li>
                  ))}
                </ul>
              </div>
            )}
          </Loaded>
        )}
      </div>
    </aside>
  );
}
