import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DeleteVehicleRequest, Vehicle } from '@parkit/contract';
import { api } from '../../../lib/api-client.ts';
import { vehicleKeys } from './keys.ts';

/** POST /api/Vehicle/Delete {VehicleId}. Errors are shown by the shared client's toast. */
export const deleteVehicle = (body: DeleteVehicleRequest) => api.post<unknown>('/api/Vehicle/Delete', body);

export function useDeleteVehicle() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: deleteVehicle,
    onSuccess: async (_res, { VehicleId }) => {
      // Removing the last vehicle sends the next sign-in to /addvehicles again: the
      // session follows the list in the same tick (lib/session-store.ts), then the refetch.
      qc.setQueryData<Vehicle[]>(vehicleKeys.list, (list) => list?.filter((v) => v.VehicleID !== Number(VehicleId)));
      await qc.invalidateQueries({ queryKey: vehicleKeys.list });
    },
  });
}
