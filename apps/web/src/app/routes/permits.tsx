import { PermitsScreen } from '../../features/permits/components/permits-screen.tsx';
import { useVehicles } from '../../features/vehicles/api/get-vehicles.ts';

/** /permits: the driver's permits, an application prefilled with the plates of the driver's vehicles. */
export function Component() {
  const vehicles = useVehicles();
  return <PermitsScreen plates={vehicles.data?.map((v) => v.PlateNumber) ?? []} />;
}
