import CarFront from 'lucide-react/icons/car-front';
import { useTranslation } from '../../../lib/i18n.ts';
import { paths } from '../../../config/paths.ts';
import { ButtonLink } from '../../../components/ui/button-link.tsx';

/** No session yet (or none matches the filters): say so and offer the way forward. */
export function EmptyHistory({ filtered, onClear }: { filtered: boolean; onClear: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="flex flex-col items-center gap-3 rounded-2xl bg-white p-6 text-center shadow-sm ring-1 ring-slate-200">
      <CarFront className="size-10 text-brand-700" aria-hidden />
      {filtered ? (
        <>
          <p className="font-semibold text-slate-900">{t('No sessions match these filters.')}</p>
          <button
            type="button"
            onClick={onClear}
            className="min-h-11 font-semibold text-brand-700 underline underline-offset-2"
          >
            {t('Reset Filter')}
          </button>
        </>
      ) : (
        <>
          <p className="font-semibold text-slate-900">{t('No parking sessions yet.')}</p>
          <p className="text-sm text-slate-600">{t('Your sessions and their receipts will be kept here.')}</p>
          <ButtonLink to={paths.findParking}>{t('Find Parking')}</ButtonLink>
        </>
      )}
    </div>
  );
}
