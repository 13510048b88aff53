import { queryOptions, useQuery } from '@tanstack/react-query';
import type { VehicleMakeItem } from '@parkit/contract';
import { api } from '../../../lib/api-client.ts';

/** Reference data: it changes with a migration, not during a visit. */
const REFERENCE_STALE_MS = 60 * 60 * 1000;

export const getVehicleMakes = (signal?: AbortSignal) => api.get<VehicleMakeItem[]>('/api/Vehicle/Makes', { showError: false, signal });

export const vehicleMakesQueryOptions = () =>
  queryOptions({
    queryKey: ['vehicle-makes'],
    queryFn: ({ signal }) => getVehicleMakes(signal),
    staleTime: REFERENCE_STALE_MS,
  });

export const useVehicleMakes = () => useQuery(vehicleMakesQueryOptions());
