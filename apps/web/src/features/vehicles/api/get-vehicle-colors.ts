import { useQuery } from '@tanstack/react-query';
import type { VehicleColorItem } from '@parkit/contract';
import { referenceQueryOptions } from '../../../lib/reference-query.ts';

export const vehicleColorsQueryOptions = () =>
  referenceQueryOptions<VehicleColorItem[]>('vehicle-colors', '/api/Vehicle/Colors');

export const useVehicleColors = () => useQuery(vehicleColorsQueryOptions());
