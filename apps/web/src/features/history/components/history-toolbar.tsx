import ArrowDownUp from 'lucide-react/icons/arrow-down-up';
import Download from 'lucide-react/icons/download';
import SlidersHorizontal from 'lucide-react/icons/sliders-horizontal';
import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n.ts';
import { Button } from '../../../components/ui/button.tsx';
import { useDownload } from '../../../lib/use-download.ts';
import { apiQuery, filterCount, type HistoryFilters } from '../lib/history-filters.ts';
import { FiltersDialog, type VehicleOption } from './filters-dialog.tsx';
import { SortDialog } from './sort-dialog.tsx';

const chip = 'min-h-10 rounded-full px-3 py-1.5';

/** Sort By, Filters and the CSV export of what is filtered; the choice goes to the URL. */
export function HistoryToolbar({
  filters,
  vehicles,
  onChange,
  csv = true,
}: {
  filters: HistoryFilters;
  vehicles: VehicleOption[];
  onChange: (f: HistoryFilters) => void;
  csv?: boolean;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState<'sort' | 'filters' | null>(null);
  const { busy: exporting, download } = useDownload(t('The export could not be downloaded.'));
  const count = filterCount(filters);
  return (
    <div className="flex flex-wrap items-center gap-2">
      <Button variant="secondary" className={chip} onClick={() => setOpen('sort')}>
        <ArrowDownUp className="size-4" aria-hidden />
        {t('Sort By')}
      </Button>
      <Button variant="secondary" className={chip} onClick={() => setOpen('filters')}>
        <SlidersHorizontal className="size-4" aria-hidden />
        {t('Filters')}
        {count > 0 && (
          <span
            className="grid size-5 place-items-center rounded-full bg-brand-700 text-xs text-white"
            aria-label={t('{{count}} active', { count })}
          >
            {count}
          </span>
        )}
      </Button>
      {csv && (
        <Button
          variant="ghost"
          className={`${chip} ms-auto`}
          loading={exporting}
          onClick={() => download(`/api/Parking/Sessions.csv?${apiQuery(filters, null)}`, 'parkit-sessions.csv')}
        >
          {!exporting && <Download className="size-4" aria-hidden />}
          {t('Export CSV')}
        </Button>
      )}
      <SortDialog
        open={open === 'sort'}
        value={filters.sort}
        onClose={() => setOpen(null)}
        onApply={(sort) => {
          setOpen(null);
          onChange({ ...filters, sort });
        }}
      />
      <FiltersDialog
        open={open === 'filters'}
        value={filters}
        vehicles={vehicles}
        onClose={() => setOpen(null)}
        onApply={(r) => {
          setOpen(null);
          onChange({ sort: filters.sort, ...r });
        }}
      />
    </div>
  );
}
