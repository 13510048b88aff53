import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ParkingProof } from '@parkit/contract';
import { api } from '../../../lib/api-client.ts';
import { parkingKeys } from './keys.ts';

/** GET /api/Parking/Session/{id}/Proof: the signed proof of payment an officer checks offline. */
export const getParkingProof = (id: number, signal?: AbortSignal) =>
  api.get<ParkingProof>(`/api/Parking/Session/${id}/Proof`, { showError: false, ...(signal ? { signal } : {}) });

/** Kept for offline use (lib/persist.ts): it is valid until its end time, so it is never refetched. */
export function useParkingProof(id: number, endsAt: string) {
  return useQuery(
    queryOptions({
      queryKey: parkingKeys.proof(id, endsAt),
      queryFn: ({ signal }) => getParkingProof(id, signal),
      staleTime: Infinity,
    }),
  );
}
