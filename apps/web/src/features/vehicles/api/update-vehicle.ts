import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UpdateVehicleRequest } from '@parkit/contract';
import { api } from '../../../lib/api-client.ts';
import { vehiclesQueryKey } from './get-vehicles.ts';

/** POST /api/Vehicle/Update with VehicleId (spec section 7). */
export const updateVehicle = (body: UpdateVehicleRequest) => api.post<unknown>('/api/Vehicle/Update', body, { showError: false });

export function useUpdateVehicle() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: updateVehicle,
    onSuccess: () => qc.invalidateQueries({ queryKey: vehiclesQueryKey, refetchType: 'all' }),
  });
}
