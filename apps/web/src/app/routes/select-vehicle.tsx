import { useVehicles } from '../../features/vehicles/api/get-vehicles.ts';
import { SelectVehicleScreen } from '../../features/parking/components/select-vehicle-screen.tsx';

/** /SelectVehicle?zone=ID: the parking feature's screen with the member's vehicles. */
export function Component() {
  const vehicles = useVehicles();
  return <SelectVehicleScreen vehicles={vehicles} />;
}
