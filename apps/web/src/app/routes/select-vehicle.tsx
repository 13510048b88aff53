import { useTranslation } from '../../lib/i18n.ts';
import { MemberOnly } from '../../components/session/guest-prompt.tsx';
import { useVehicles } from '../../features/vehicles/api/get-vehicles.ts';
import { SelectVehicleScreen } from '../../features/parking/components/select-vehicle-screen.tsx';
import { paths } from '../../config/paths.ts';

function WithVehicles() {
  const vehicles = useVehicles();
  return <SelectVehicleScreen vehicles={vehicles} />;
}

/** /SelectVehicle?zone=ID: the parking feature's screen with the member's vehicles; a guest is asked to sign in (or use Quick Park). */
export function Component() {
  const { t } = useTranslation();
  return (
    <MemberOnly screen={t('Select Vehicle')} back={paths.homepage} message={t('Log in or register to park with your vehicles, or use Quick Park.')}>
      <WithVehicles />
    </MemberOnly>
  );
}
