import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ParkingSession } from '@parkit/contract';
import { api } from '../../../lib/api-client.ts';
import { parkingKeys } from './keys.ts';

/** GET /api/Parking/Session/{id}: one session, running (live view) or ended (receipt). */
export const getParkingSession = (id: number, signal?: AbortSignal) =>
  api.get<ParkingSession>(`/api/Parking/Session/${id}`, { showError: false, ...(signal ? { signal } : {}) });

export const parkingSessionQuery = (id: number) =>
  queryOptions({
    queryKey: parkingKeys.session(id),
    queryFn: ({ signal }) => getParkingSession(id, signal),
    // A phone that slept comes back to the server's clock and the server's end time.
    refetchOnWindowFocus: 'always',
    refetchInterval: (q) => (q.state.data?.Status === 'Active' ? 30_000 : false),
  });

export function useParkingSession(id: number | null) {
  return useQuery({ ...parkingSessionQuery(id ?? 0), enabled: id !== null });
}
