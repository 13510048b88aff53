import { useTranslation } from '../../lib/i18n.ts';
import { MemberScreen } from '../../components/session/guest-prompt.tsx';
import { paths } from '../../config/paths.ts';
import { VehicleList } from '../../features/vehicles/components/vehicle-list.tsx';

/** My Vehicles (/myvehicles), spec section 2. */
export function Component() {
  const { t } = useTranslation();
  return (
    <MemberScreen title={t('My Vehicles')} back={paths.profile} message={t('Sign in to keep your vehicles.')}>
      <VehicleList />
    </MemberScreen>
  );
}
