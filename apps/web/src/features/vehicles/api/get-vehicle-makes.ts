import { useQuery } from '@tanstack/react-query';
import type { VehicleMakeItem } from '@parkit/contract';
import { referenceQueryOptions } from '../../../lib/reference-query.ts';

export const vehicleMakesQueryOptions = () =>
  referenceQueryOptions<VehicleMakeItem[]>('vehicle-makes', '/api/Vehicle/Makes');

export const useVehicleMakes = () => useQuery(vehicleMakesQueryOptions());
