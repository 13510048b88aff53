import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Vehicle } from '@parkit/contract';
import { api } from '../../../lib/api-client.ts';
import { setHasVehicle } from '../../../lib/session.ts';

export const vehiclesQueryKey = ['vehicles'] as const;

/** GET /api/Vehicle/List: the member's vehicles. Failures stay on the screen (spec section 8). */
export const getVehicles = (signal?: AbortSignal) => api.get<Vehicle[]>('/api/Vehicle/List', { showError: false, signal });

export const vehiclesQueryOptions = () =>
  queryOptions({
    queryKey: vehiclesQueryKey,
    // Every list the server sends also sets is_vehicle, so the key follows the server's answer.
    queryFn: async ({ signal }) => {
      const list = await getVehicles(signal);
      setHasVehicle(list.length > 0);
      return list;
    },
    // Spec section 4: loaded once on open, not again on focus or reconnect.
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });

export const useVehicles = () => useQuery(vehiclesQueryOptions());
