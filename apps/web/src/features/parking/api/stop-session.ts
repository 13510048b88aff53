import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ParkingSession, StopResponse } from '@parkit/contract';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { parkingKeys } from './keys.ts';
import { putSession } from './get-parking-session.ts';

/** POST /api/Parking/Stop: ends now; the unused whole minutes go back to the wallet. */
export const stopSession = (sessionId: number) =>
  api.post<StopResponse>('/api/Parking/Stop', { SessionId: sessionId }, { showError: false });

function useSessionMutation<A, R extends ParkingSession>(fn: (a: A) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: (session) => {
      putSession(qc, session);
      void qc.invalidateQueries({ queryKey: parkingKeys.active });
      void qc.invalidateQueries({ queryKey: queryKeys.account });
    },
  });
}

export const useStopSession = () => useSessionMutation(stopSession);
