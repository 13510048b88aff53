import { Link, useSearchParams } from 'react-router';
import { useTranslation } from '../../lib/i18n.ts';
import { MemberScreen } from '../../components/session/guest-prompt.tsx';
import { paths } from '../../config/paths.ts';
import { useSession } from '../../lib/session.ts';
import { VehicleEditor } from '../../features/vehicles/components/vehicle-editor.tsx';

/**
 * Add/Edit Vehicle (/addvehicles, optional ?id), docs/product.md#screens. The back button shows only when
 * is_vehicle is 'true': a member who has no vehicle yet is sent here to add the first one, and may
 * skip it for now (a vehicle is needed only to park).
 */
export function Component() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const id = params.get('id');
  // ?next= comes back to Select Vehicle after adding the first vehicle; only that screen is accepted.
  const next = params.get('next');
  const safeNext = next && next.startsWith(`${paths.selectVehicle}?`) ? next : undefined;
  const { isVehicle } = useSession();
  return (
    <MemberScreen
      title={id ? t('Edit Vehicle') : t('Add Vehicle')}
      back={isVehicle === true ? paths.myVehicles : undefined}
      message={t('Sign in to keep your vehicles.')}
    >
      <VehicleEditor key={id ?? 'new'} id={id} next={safeNext} />
      {!id && !safeNext && isVehicle !== true && (
        <p className="mt-4 text-center text-sm text-slate-600">
          <Link
            to={paths.homepage}
            className="inline-flex min-h-11 items-center font-semibold text-brand-700 underline-offset-2 hover:underline"
          >
            {t('Skip for now')}
          </Link>{' '}
          {t('You can add a vehicle later from Profile, My Vehicles.')}
        </p>
      )}
    </MemberScreen>
  );
}
