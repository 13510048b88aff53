import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AddVehicleRequest } from '@parkit/contract';
import { api } from '../../../lib/api-client.ts';
import { vehiclesQueryKey } from './get-vehicles.ts';

/** POST /api/Vehicle/Add; the response is not read (spec section 7). Errors go to the form. */
export const addVehicle = (body: AddVehicleRequest) => api.post<unknown>('/api/Vehicle/Add', body, { showError: false });

export function useAddVehicle() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: addVehicle,
    // Refetch before the caller navigates, so My Vehicles opens on the new list.
    onSuccess: () => qc.invalidateQueries({ queryKey: vehiclesQueryKey, refetchType: 'all' }),
  });
}
