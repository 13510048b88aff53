import { memberRoute } from './member-route.tsx';
import { paths } from '../../config/paths.ts';
import { VehicleList } from '../../features/vehicles/components/vehicle-list.tsx';

/** My Vehicles (/myvehicles), docs/product.md#screens. */
export const Component = memberRoute(
  VehicleList,
  (t) => ({ title: t('My Vehicles'), back: paths.profile, message: t('Sign in to keep your vehicles.') }),
  'route',
);
