import type { VehicleOption } from '../../features/history/components/filters-dialog.tsx';
import { getDevicePosition } from '../../features/parking/lib/position.ts';
import { useVehicles } from '../../features/vehicles/api/get-vehicles.ts';

/**
 * What /pastpark and /mappage take from other features: the member's vehicles for the filter and
 * Find Parking's way of asking the browser for the position (features never import each other).
 */
export function useHistoryProps(): { vehicles: VehicleOption[]; getPosition: typeof getDevicePosition } {
  const vehicles = useVehicles();
  return {
    vehicles: (vehicles.data ?? []).map((v) => ({
      id: v.VehicleID,
      label: `${v.PlateNumber} · ${v.PlateState} (${v.VehicleMake} ${v.VehicleModel})`,
    })),
    getPosition: getDevicePosition,
  };
}
