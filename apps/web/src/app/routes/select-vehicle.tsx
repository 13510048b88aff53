import { memberRoute } from './member-route.tsx';
import { WithVehicles } from './with-vehicles.tsx';
import { SelectVehicleScreen } from '../../features/parking/components/select-vehicle-screen.tsx';
import { paths } from '../../config/paths.ts';

/** /SelectVehicle?zone=ID: the parking feature's screen with the member's vehicles; a guest is asked to sign in (or use Quick Park). */
export const Component = memberRoute(
  () => <WithVehicles screen={SelectVehicleScreen} />,
  (t) => ({
    title: t('Select Vehicle'),
    back: paths.homepage,
    message: t('Log in or register to park with your vehicles, or use Quick Park.'),
  }),
);
