import { useVehicles } from '../../features/vehicles/api/get-vehicles.ts';
import { ParkDetailsScreen } from '../../features/parking/components/park-details-screen.tsx';

/** /parkdetails?id=: the live session; the vehicles list serves the plate correction. */
export function Component() {
  const vehicles = useVehicles();
  return <ParkDetailsScreen vehicles={vehicles} />;
}
