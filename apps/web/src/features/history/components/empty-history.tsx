import { CarFront } from 'lucide-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '../../../config/paths.ts';

/** No session yet (or none matches the filters): say so and offer the way forward. */
export function EmptyHistory({ filtered, onClear }: { filtered: boolean; onClear: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="flex flex-col items-center gap-3 rounded-2xl bg-white p-6 text-center shadow-sm ring-1 ring-slate-200">
      <CarFront className="size-10 text-brand-700" aria-hidden />
      {filtered ? (
        <>
          <p className="font-semibold text-slate-900">{t('No sessions match these filters.')}</p>
          <button type="button" onClick={onClear} className="min-h-11 font-semibold text-brand-700 underline underline-offset-2">
            {t('Reset Filter')}
          </button>
        </>
      ) : (
        <>
          <p className="font-semibold text-slate-900">{t('No parking sessions yet.')}</p>
          <p className="text-sm text-slate-600">{t('Your sessions and their receipts will be kept here.')}</p>
          <Link to={paths.findParking} className="inline-flex min-h-11 items-center rounded-xl bg-brand-700 px-4 text-sm font-semibold text-white hover:bg-brand-800">
            {t('Find Parking')}
          </Link>
        </>
      )}
    </div>
  );
}
