import { useState } from 'react';
import type { OperatorZone } from '@parkit/contract';
import { useTranslation } from '../../../lib/i18n.ts';
import { TextField } from '../../../components/ui/field.tsx';
import { Loaded } from '../../../components/ui/loaded.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { usePricedZones } from '../api/prices.ts';

/** A search box over the operator's zones and the zones it finds as checkboxes. */
export function ZonePicker({
  operatorId,
  picked,
  onPick,
  label,
  exclude = [],
}: {
  operatorId: number;
  picked: number[];
  onPick: (ids: number[]) => void;
  label: string;
  exclude?: number[];
}) {
  const { t } = useTranslation();
  const [q, setQ] = useState('');
  const zones = usePricedZones(operatorId, q.trim());
  return (
    <div className="flex flex-col gap-2">
      <TextField label={t('Find zones')} type="search" value={q} onChange={(e) => setQ(e.target.value)} />
      <Loaded query={zones} skeleton={<Skeleton rows={2} className="h-10" />} failed={t('Zones could not be loaded.')}>
        {(page) => (
          <ZoneChecklist
            zones={page.Zones.filter((z) => !exclude.includes(z.ZoneId))}
            picked={picked}
            onPick={onPick}
            label={label}
          />
        )}
      </Loaded>
    </div>
  );
}

/** The operator's zones as checkboxes under one legend; `onPick` gets the ids picked after each change. */
export function ZoneChecklist({
  zones,
  picked,
  onPick,
  label,
}: {
  zones: OperatorZone[];
  picked: number[];
  onPick: (ids: number[]) => void;
  label: string;
}) {
  const { t } = useTranslation();
  if (zones.length === 0) return <p className="text-sm text-slate-600">{t('No zone found.')}</p>;
  return (
    <fieldset>
      <legend className="text-sm font-medium text-slate-700">{label}</legend>
      <div className="mt-1 flex max-h-56 flex-wrap gap-2 overflow-y-auto">
        {zones.map((z) => (
          <label key={z.ZoneId} className="flex min-h-11 items-center gap-2 rounded-lg px-2 ring-1 ring-slate-300">
            <input
              type="checkbox"
              checked={picked.includes(z.ZoneId)}
              onChange={(e) =>
                onPick(e.target.checked ? [...picked, z.ZoneId] : picked.filter((id) => id !== z.ZoneId))
              }
            />
            <span className="break-words">
              {z.ZoneNumber} · {z.Name}
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
