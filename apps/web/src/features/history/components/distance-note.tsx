import LocateFixed from 'lucide-react/icons/locate-fixed';
import MapPinOff from 'lucide-react/icons/map-pin-off';
import { useTranslation } from '../../../lib/i18n.ts';

/** Says where the distances are measured from: the driver, or the city centre when location is off. */
export function DistanceNote({ from }: { from: 'position' | 'cityCentre' | null | undefined }) {
  const { t } = useTranslation();
  if (!from) return null;
  const centre = from === 'cityCentre';
  const Icon = centre ? MapPinOff : LocateFixed;
  return (
    <p
      role="status"
      className={`flex items-center gap-2 rounded-xl px-3 py-2 text-sm ${centre ? 'bg-amber-50 text-amber-950' : 'bg-brand-50 text-brand-800'}`}
    >
      <Icon className="size-4 shrink-0" aria-hidden />
      {centre
        ? t('Distances from the city centre: your location is not available.')
        : t('Distances from your current position.')}
    </p>
  );
}
