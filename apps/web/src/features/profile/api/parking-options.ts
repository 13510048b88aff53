import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ParkingOptions, UpdateParkingOptionsRequest } from '@parkit/contract';
import { api } from '../../../lib/api-client.ts';
import { profileKeys } from './keys.ts';

type Patch = Partial<ParkingOptions>;

/** GET /api/Account/ParkingOptions: the member's Default Parking Options (docs/product.md#placeholders-made-real). */
export const parkingOptionsQuery = queryOptions({
  queryKey: profileKeys.parkingOptions,
  queryFn: ({ signal }) => api.get<ParkingOptions>('/api/Account/ParkingOptions', { signal, showError: false }),
});

export function useParkingOptions(enabled: boolean) {
  return useQuery({ ...parkingOptionsQuery, enabled });
}

const pick = (o: ParkingOptions, keys: (keyof ParkingOptions)[]): Patch =>
  Object.fromEntries(keys.map((k) => [k, o[k]]));

/**
 * POST /api/Account/ParkingOptions with only the changed fields: each switch is saved on its own.
 * The screen flips at once (optimistic); a refusal puts back exactly the fields this call changed
 * and the API client shows the error toast. Only those fields are taken from the answer, so two
 * quick toggles of different switches never undo each other.
 */
export function useUpdateParkingOptions() {
  const qc = useQueryClient();
  const key = parkingOptionsQuery.queryKey;
  return useMutation({
    mutationFn: (patch: UpdateParkingOptionsRequest) => api.post<ParkingOptions>('/api/Account/ParkingOptions', patch),
    onMutate: async (patch) => {
      await qc.cancelQueries({ queryKey: key });
      const before = qc.getQueryData(key);
      const keys = Object.keys(patch) as (keyof ParkingOptions)[];
      qc.setQueryData(key, (old) => (old ? { ...old, ...(patch as Patch) } : old));
      return { keys, previous: before ? pick(before, keys) : undefined };
    },
    onError: (_err, _patch, ctx) => {
      if (ctx?.previous) qc.setQueryData(key, (old) => (old ? { ...old, ...ctx.previous } : old));
    },
    onSuccess: (saved, _patch, ctx) => {
      qc.setQueryData(key, (old) => (old ? { ...old, ...pick(saved, ctx.keys) } : saved));
    },
  });
}
