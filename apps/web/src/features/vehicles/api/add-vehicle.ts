import type { AddVehicleRequest } from '@parkit/contract';
import { api } from '../../../lib/api-client.ts';
import { useVehicleChange } from './get-vehicles.ts';

/** POST /api/Vehicle/Add; the response is not read (docs/product.md#api-calls). Errors go to the form. */
export const addVehicle = (body: AddVehicleRequest) =>
  api.post<unknown>('/api/Vehicle/Add', body, { showError: false });

export const useAddVehicle = () => useVehicleChange(addVehicle);
