import LocateFixed from 'lucide-react/icons/locate-fixed';
import MapPinOff from 'lucide-react/icons/map-pin-off';
import RefreshCw from 'lucide-react/icons/refresh-cw';
import TriangleAlert from 'lucide-react/icons/triangle-exclamation-point';
import { useTranslation } from '../../../lib/i18n.ts';
import type { DriverPosition } from '../hooks/use-driver-position.ts';
import type { LocationFailure } from '../lib/position.ts';
import { Button } from '../../../components/ui/button.tsx';
import type { Translate } from '../lib/zone-format.ts';

function failureTitle(reason: LocationFailure, t: Translate): string {
  switch (reason) {
    case 'denied':
      return t('Location access is off');
    case 'timeout':
      return t('Finding your location took too long');
    case 'unsupported':
      return t("This browser can't share your location");
    default:
      return t("Your location isn't available");
  }
}

/**
 * Says why the app wants the position while the browser asks, and, when it got none, that the
 * list starts at the operator's city centre instead, with a way to ask again.
 */
export function PositionNotice({
  driver,
  compact = false,
}: {
  driver: DriverPosition & { retry: () => void };
  compact?: boolean;
}) {
  const { t } = useTranslation();
  if (driver.status === 'device') return null;
  if (driver.status === 'locating') {
    return (
      <div role="status" className="flex gap-3 rounded-2xl bg-brand-50 p-4 text-sm text-brand-800">
        <LocateFixed className="size-5 shrink-0 animate-pulse" aria-hidden />
        <div>
          <p className="font-semibold">{t('Finding zones near you')}</p>
          {!compact && (
            <p className="mt-1">
              {t(
                'Allow location access so ParkIt can list the zones closest to you. It is used only to sort zones by distance.',
              )}
            </p>
          )}
        </div>
      </div>
    );
  }
  const fallback = driver.status === 'fallback';
  return (
    <div
      role="status"
      className={`flex gap-3 rounded-2xl p-4 text-sm ${fallback ? 'bg-amber-50 text-amber-950' : 'bg-red-50 text-red-900'}`}
    >
      {fallback ? (
        <MapPinOff className="size-5 shrink-0" aria-hidden />
      ) : (
        <TriangleAlert className="size-5 shrink-0" aria-hidden />
      )}
      <div className="flex min-w-0 flex-1 flex-col items-start gap-2">
        <div>
          <p className="font-semibold">{failureTitle(driver.reason, t)}</p>
          <p className="mt-1">
            {fallback
              ? t('Showing zones near the centre of {{city}}.', { city: driver.operator.City })
              : t('The city centre could not be loaded either. You can still search by zone number or address.')}
            {driver.reason === 'denied' &&
              !compact &&
              ` ${t('To see the zones closest to you, allow location for this site in your browser settings.')}`}
          </p>
        </div>
        <Button variant="secondary" className="min-h-9 py-1.5" onClick={driver.retry}>
          <RefreshCw className="size-4" aria-hidden />
          {t('Try again')}
        </Button>
      </div>
    </div>
  );
}
