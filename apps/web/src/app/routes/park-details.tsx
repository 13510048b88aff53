import { memberRoute } from './member-route.tsx';
import { WithVehicles } from './with-vehicles.tsx';
import { ParkDetailsScreen } from '../../features/parking/components/park-details-screen.tsx';
import { paths } from '../../config/paths.ts';

/** /parkdetails?id=: the live session; the vehicles list serves the plate correction. Members only (Quick Park has its own link). */
export const Component = memberRoute(
  () => <WithVehicles screen={ParkDetailsScreen} />,
  (t) => ({
    title: t('Parking Details'),
    back: paths.homepage,
    message: t('Log in or register to see your parking sessions.'),
  }),
);
