import type { UpdateVehicleRequest } from '@parkit/contract';
import { api } from '../../../lib/api-client.ts';
import { useVehicleChange } from './get-vehicles.ts';

/** POST /api/Vehicle/Update with VehicleId (docs/product.md#api-calls). */
export const updateVehicle = (body: UpdateVehicleRequest) =>
  api.post<unknown>('/api/Vehicle/Update', body, { showError: false });

export const useUpdateVehicle = () => useVehicleChange(updateVehicle);
