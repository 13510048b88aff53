import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ParkingSession, StopResponse } from '@parkit/contract';
import { api } from '../../../lib/api-client.ts';
import { activeSessionsKey } from './get-active-sessions.ts';
import { parkingSessionKey } from './get-parking-session.ts';

/** POST /api/Parking/Stop: ends now; the unused whole minutes go back to the wallet. */
export const stopSession = (sessionId: number) => api.post<StopResponse>('/api/Parking/Stop', { SessionId: sessionId }, { showError: false });

function useSessionMutation<A, R extends ParkingSession>(fn: (a: A) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: (session) => {
      qc.setQueryData(parkingSessionKey(session.SessionId), session);
      void qc.invalidateQueries({ queryKey: activeSessionsKey });
      void qc.invalidateQueries({ queryKey: ['account'] });
    },
  });
}

export const useStopSession = () => useSessionMutation(stopSession);
