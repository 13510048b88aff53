import Minus from 'lucide-react/icons/minus';
import Plus from 'lucide-react/icons/plus';
import { useTranslation } from '../../../lib/i18n.ts';
import { formatDuration } from '../lib/zone-format.ts';

/** A stepper over the zone's steps: minus, the duration, plus; the keyboard works on both buttons. */
export function DurationPicker({
  choices,
  value,
  onChange,
  label,
}: {
  choices: number[];
  value: number;
  onChange: (minutes: number) => void;
  label: string;
}) {
  const { t } = useTranslation();
  const i = Math.max(0, choices.indexOf(value));
  const btn =
    'grid size-12 place-items-center rounded-full bg-brand-50 text-brand-800 ring-1 ring-brand-700 hover:bg-brand-100 disabled:opacity-40';
  return (
    <fieldset className="rounded-2xl border border-slate-200 bg-white p-4">
      <legend className="px-1 text-sm font-semibold text-slate-700">{label}</legend>
      <div className="flex items-center justify-between gap-3">
        <button
          type="button"
          className={btn}
          onClick={() => onChange(choices[i - 1]!)}
          disabled={i <= 0}
          aria-label={t('Less time')}
        >
          <Minus className="size-5" aria-hidden />
        </button>
        <output aria-live="polite" className="text-2xl font-bold text-slate-900" data-testid="duration">
          {formatDuration(value, t)}
        </output>
        <button
          type="button"
          className={btn}
          onClick={() => onChange(choices[i + 1]!)}
          disabled={i >= choices.length - 1}
          aria-label={t('More time')}
        >
          <Plus className="size-5" aria-hidden />
        </button>
      </div>
    </fieldset>
  );
}
