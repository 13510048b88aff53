import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AutoStartQuote } from '@parkit/contract';
import { api } from '../../../lib/api-client.ts';
import { parkingKeys } from './keys.ts';

/** POST /api/Parking/AutoStartQuote: with Auto Start on, the total Continue pays at once. */
export const getAutoStartQuote = (zoneId: number, signal?: AbortSignal) =>
  api.post<AutoStartQuote>(
    '/api/Parking/AutoStartQuote',
    { ZoneId: zoneId },
    { showError: false, ...(signal ? { signal } : {}) },
  );

export const autoStartQuery = (zoneId: number) =>
  queryOptions({
    queryKey: parkingKeys.autoStart(zoneId),
    queryFn: ({ signal }) => getAutoStartQuote(zoneId, signal),
    refetchInterval: 4 * 60_000,
    gcTime: 0,
    retry: false,
  });

/** Members only (`enabled`); a guest never asks. */
export function useAutoStartQuote(zoneId: number | null, enabled: boolean) {
  return useQuery({ ...autoStartQuery(zoneId ?? 0), enabled: enabled && zoneId !== null });
}
