import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Vehicle } from '@parkit/contract';
import { api } from '../../../lib/api-client.ts';
import { vehicleKeys } from './keys.ts';

/** The session follows this list (is_vehicle): lib/session-store.ts. */

/** GET /api/Vehicle/List: the member's vehicles. Failures stay on the screen (docs/product.md#errors). */
export const getVehicles = (signal?: AbortSignal) =>
  api.get<Vehicle[]>('/api/Vehicle/List', { showError: false, signal });

export const vehiclesQueryOptions = () =>
  queryOptions({
    queryKey: vehicleKeys.list,
    // Every list that lands here also sets is_vehicle (the session store follows this key).
    queryFn: ({ signal }) => getVehicles(signal),
    // docs/product.md#states: loaded once on open, not again on focus or reconnect.
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });

export const useVehicles = () => useQuery(vehiclesQueryOptions());

/**
 * A change to the list (add, update): the list is fetched again before the caller navigates, so
 * My Vehicles opens on the new list.
 */
export function useVehicleChange<B>(mutationFn: (body: B) => Promise<unknown>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => qc.invalidateQueries({ queryKey: vehicleKeys.list, refetchType: 'all' }),
  });
}
