import { queryOptions, useQuery } from '@tanstack/react-query';
import type { VehicleModelItem } from '@parkit/contract';
import { api } from '../../../lib/api-client.ts';
import { vehicleKeys } from './keys.ts';
import { REFERENCE_STALE_MS } from '../../../lib/reference-query.ts';

/** GET /api/Vehicle/Models/{makeId}: makeId is the PVID of the chosen make (docs/product.md#api-calls). */
export const getVehicleModels = (makeId: number, signal?: AbortSignal) =>
  api.get<VehicleModelItem[]>(`/api/Vehicle/Models/${makeId}`, { showError: false, signal });

export const vehicleModelsQueryOptions = (makeId: number | undefined) =>
  queryOptions({
    queryKey: vehicleKeys.models(makeId),
    queryFn: ({ signal }) => getVehicleModels(makeId!, signal),
    enabled: makeId !== undefined,
    staleTime: REFERENCE_STALE_MS,
  });

export const useVehicleModels = (makeId: number | undefined) => useQuery(vehicleModelsQueryOptions(makeId));
