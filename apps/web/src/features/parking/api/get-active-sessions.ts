import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ActiveSessions } from '@parkit/contract';
import { api } from '../../../lib/api-client.ts';
import { parkingKeys } from './keys.ts';

/** GET /api/Parking/Active: running sessions and the server's clock. */
export const getActiveSessions = (signal?: AbortSignal) =>
  api.get<ActiveSessions>('/api/Parking/Active', { showError: false, ...(signal ? { signal } : {}) });

export const activeSessionsQuery = () =>
  queryOptions({
    queryKey: parkingKeys.active,
    queryFn: ({ signal }) => getActiveSessions(signal),
    // Auto Extend and the expiry job change sessions on the server: look again every 30 s and on return to the app.
    refetchInterval: 30_000,
    refetchOnWindowFocus: 'always',
  });

export function useActiveSessions(enabled = true) {
  return useQuery({ ...activeSessionsQuery(), enabled });
}
