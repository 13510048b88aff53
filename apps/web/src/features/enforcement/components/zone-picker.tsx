import { useState } from 'react';
import { TextField } from '../../../components/ui/field.tsx';
import { useTranslation } from '../../../lib/i18n.ts';

/** How many zones the officer's list shows at once: an operator may have thousands. */
export const ZONES_SHOWN = 30;

interface PickableZone {
  ZoneId: number;
  ZoneNumber: string;
  Name: string;
}

/**
 * The officer's zones to download: the chosen ones first, then the zones whose number or name
 * holds what was typed, at most ZONES_SHOWN of them, so that a phone never lays out a whole city.
 */
export function ZonePicker({
  zones,
  chosen,
  onChange,
}: {
  zones: PickableZone[];
  chosen: number[];
  onChange: (chosen: number[]) => void;
}) {
  const { t } = useTranslation();
  const [q, setQ] = useState('');
  const needle = q.trim().toLowerCase();
  const picked = zones.filter((z) => chosen.includes(z.ZoneId));
  const matches = zones.filter(
    (z) =>
      !chosen.includes(z.ZoneId) &&
      (needle === '' || z.ZoneNumber.toLowerCase().includes(needle) || z.Name.toLowerCase().includes(needle)),
  );
  const shown = [...picked, ...matches.slice(0, ZONES_SHOWN)];
  return (
    <div className="flex flex-col gap-2">
      {zones.length > ZONES_SHOWN && (
        <TextField
          label={t('Zone number or name')}
          type="search"
          maxLength={100}
          value={q}
          onChange={(e) => setQ(e.target.value)}
        />
      )}
      {shown.map((z) => (
        <label key={z.ZoneId} className="flex min-h-11 items-center gap-3 text-lg">
          <input
            type="checkbox"
            className="size-6"
            checked={chosen.includes(z.ZoneId)}
            onChange={(e) =>
              onChange(e.target.checked ? [...chosen, z.ZoneId] : chosen.filter((id) => id !== z.ZoneId))
            }
          />
          {t('Zone {{number}}', { number: z.ZoneNumber })} · {z.Name}
        </label>
      ))}
      {matches.length === 0 && needle !== '' && <p>{t('No zone has that number or name.')}</p>}
      {matches.length > ZONES_SHOWN && <p>{t('Type a zone number or name to see the others.')}</p>}
    </div>
  );
}
