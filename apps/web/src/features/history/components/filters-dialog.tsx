import { useId, useState } from 'react';
import { useTranslation } from '../../../lib/i18n.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import type { HistoryFilters } from '../lib/history-filters.ts';

export interface VehicleOption {
  id: number;
  label: string;
}

type Range = Pick<HistoryFilters, 'from' | 'to' | 'vehicle'>;

const input = 'mt-1 block min-h-11 w-full rounded-xl border border-slate-300 bg-white px-3 text-base text-slate-900 focus:border-brand-600 focus:outline-2 focus:outline-brand-600';

/** Date range (calendar days where the zones are) and vehicle. Applied together, reset together. */
export function FiltersDialog({ open, value, vehicles, onClose, onApply }: { open: boolean; value: Range; vehicles: VehicleOption[]; onClose: () => void; onApply: (r: Range) => void }) {
  const { t } = useTranslation();
  const id = useId();
  const [draft, setDraft] = useState<Range>(value);
  const [error, setError] = useState<string | null>(null);
  const change = (o: boolean) => {
    if (o) {
      setDraft(value);
      setError(null);
    } else onClose();
  };
  const apply = () => {
    if (draft.from && draft.to && draft.from > draft.to) {
      setError(t('The start date must not be after the end date.'));
      return;
    }
    onApply(draft);
  };
  return (
    <Dialog open={open} onOpenChange={change} title={t('Filters')}>
      <div className="grid grid-cols-2 gap-3">
        <label htmlFor={`${id}-from`} className="text-sm font-semibold text-slate-700">
          {t('From')}
          <input id={`${id}-from`} type="date" className={input} value={draft.from ?? ''} max={draft.to} onChange={(e) => setDraft({ ...draft, from: e.target.value || undefined })} />
        </label>
        <label htmlFor={`${id}-to`} className="text-sm font-semibold text-slate-700">
          {t('To')}
          <input id={`${id}-to`} type="date" className={input} value={draft.to ?? ''} min={draft.from} onChange={(e) => setDraft({ ...draft, to: e.target.value || undefined })} />
        </label>
      </div>
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
      <label htmlFor={`${id}-vehicle`} className="mt-1 text-sm font-semibold text-slate-700">
        {t('Vehicle')}
        <select
          id={`${id}-vehicle`}
          className={input}
          value={draft.vehicle ?? ''}
          onChange={(e) => setDraft({ ...draft, vehicle: e.target.value ? Number(e.target.value) : undefined })}
        >
          <option value="">{t('All vehicles')}</option>
          {vehicles.map((v) => (
            <option key={v.id} value={v.id}>
              {v.label}
            </option>
          ))}
        </select>
      </label>
      <div className="mt-3 grid grid-cols-2 gap-2">
        <Button variant="secondary" onClick={() => onApply({})}>
          {t('Reset Filter')}
        </Button>
        <Button onClick={apply}>{t('Apply')}</Button>
      </div>
    </Dialog>
  );
}
