import { queryOptions, useQuery } from '@tanstack/react-query';
import type { VehicleColorItem } from '@parkit/contract';
import { api } from '../../../lib/api-client.ts';

export const getVehicleColors = (signal?: AbortSignal) => api.get<VehicleColorItem[]>('/api/Vehicle/Colors', { showError: false, signal });

export const vehicleColorsQueryOptions = () =>
  queryOptions({
    queryKey: ['vehicle-colors'],
    queryFn: ({ signal }) => getVehicleColors(signal),
    staleTime: 60 * 60 * 1000,
  });

export const useVehicleColors = () => useQuery(vehicleColorsQueryOptions());
