import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { ParkingSession, SessionReceipt } from '@parkit/contract';
import { api } from '../../../lib/api-client.ts';
import { parkingKeys } from './keys.ts';

/** GET /api/Parking/Session/{id}: one session, running (live view) or ended (receipt, with its payments). */
export const getParkingSession = (id: number, signal?: AbortSignal) =>
  api.get<SessionReceipt>(`/api/Parking/Session/${id}`, { showError: false, ...(signal ? { signal } : {}) });

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

/**
 * A session a payment, Stop or Amend answered: shown at once (the payments seen so far kept), then
 * read again for the receipt's payments, which only GET /Session/{id} lists.
 */
export function putSession(qc: QueryClient, session: ParkingSession) {
  const key = parkingSessionQuery(session.SessionId).queryKey;
  qc.setQueryData(key, (old) => ({ InitialMinutes: session.DurationMinutes, Payments: [], ...old, ...session }));
  void qc.invalidateQueries({ queryKey: key });
}
