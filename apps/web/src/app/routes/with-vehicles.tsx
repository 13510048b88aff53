import type { ComponentType } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { Vehicle } from '@parkit/contract';
import { useVehicles } from '../../features/vehicles/api/get-vehicles.ts';

/** A parking screen given the member's vehicles: features do not import each other, so the route joins them. */
export function WithVehicles({ screen: Screen }: { screen: ComponentType<{ vehicles: UseQueryResult<Vehicle[]> }> }) {
  const vehicles = useVehicles();
  return <Screen vehicles={vehicles} />;
}
