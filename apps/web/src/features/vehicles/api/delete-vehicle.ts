import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DeleteVehicleRequest, Vehicle } from '@parkit/contract';
import { api } from '../../../lib/api-client.ts';
import { setHasVehicle } from '../../../lib/session.ts';
import { vehiclesQueryKey } from './get-vehicles.ts';

/** POST /api/Vehicle/Delete {VehicleId}. Errors are shown by the shared client's toast. */
export const deleteVehicle = (body: DeleteVehicleRequest) => api.post<unknown>('/api/Vehicle/Delete', body);

export function useDeleteVehicle() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: deleteVehicle,
    onSuccess: async (_res, { VehicleId }) => {
      const remaining = qc.setQueryData<Vehicle[]>(vehiclesQueryKey, (list) =>
        list?.filter((v) => v.VehicleID !== Number(VehicleId)),
      );
      // Removing the last vehicle sends the next sign-in to /addvehicles again (issue 3). The key
      // is set in the same tick as the list empties, so the screen and storage never disagree;
      // the refetch then sets it from the server's list (vehiclesQueryOptions).
      if (remaining?.length === 0) setHasVehicle(false);
      await qc.invalidateQueries({ queryKey: vehiclesQueryKey });
    },
  });
}
