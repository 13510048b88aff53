import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { SelectField, TextField } from '../../../components/ui/field.tsx';
import type { HistoryFilters } from '../lib/history-filters.ts';

export interface VehicleOption {
  id: number;
  label: string;
}

type Range = Pick<HistoryFilters, 'from' | 'to' | 'vehicle'>;

/** Date range (calendar days where the zones are) and vehicle. Applied together, reset together. */
export function FiltersDialog({
  open,
  value,
  vehicles,
  onClose,
  onApply,
}: {
  open: boolean;
  value: Range;
  vehicles: VehicleOption[];
  onClose: () => void;
  onApply: (r: Range) => void;
}) {
  const { t } = useTranslation();
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
        <TextField
          label={t('From')}
          type="date"
          value={draft.from ?? ''}
          max={draft.to}
          onChange={(e) => setDraft({ ...draft, from: e.target.value || undefined })}
        />
        <TextField
          label={t('To')}
          type="date"
          value={draft.to ?? ''}
          min={draft.from}
          onChange={(e) => setDraft({ ...draft, to: e.target.value || undefined })}
        />
      </div>
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
      <SelectField
        label={t('Vehicle')}
        placeholder={t('All vehicles')}
        options={vehicles.map((v) => ({ value: String(v.id), label: v.label }))}
        value={draft.vehicle ?? ''}
        onChange={(e) => setDraft({ ...draft, vehicle: e.target.value ? Number(e.target.value) : undefined })}
      />
      <div className="mt-3 grid grid-cols-2 gap-2">
        <Button variant="secondary" onClick={() => onApply({})}>
          {t('Reset Filter')}
        </Button>
        <Button onClick={apply}>{t('Apply')}</Button>
      </div>
    </Dialog>
  );
}
