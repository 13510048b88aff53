import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import type { SessionsPage } from '@parkit/contract';
import { api } from '../../../lib/api-client.ts';
import { historyKeys } from './keys.ts';
import { apiQuery, type HistoryFilters } from '../lib/history-filters.ts';
import type { LatLng } from '../hooks/use-history-position.ts';

export const PAGE_SIZE = 20;

export function getSessions(
  f: HistoryFilters,
  position: LatLng | null,
  cursor: string | null,
  limit: number,
  signal?: AbortSignal,
) {
  const extra: Record<string, string> = { limit: String(limit) };
  if (cursor) extra.cursor = cursor;
  return api.get<SessionsPage>(`/api/Parking/Sessions?${apiQuery(f, position, extra)}`, { signal });
}

export const sessionsQuery = (f: HistoryFilters, position: LatLng | null, limit = PAGE_SIZE) =>
  infiniteQueryOptions({
    queryKey: historyKeys.sessions(
      f.sort,
      f.from ?? '',
      f.to ?? '',
      f.vehicle ?? 0,
      position?.lat.toFixed(4) ?? '',
      position?.lng.toFixed(4) ?? '',
      limit,
    ),
    queryFn: ({ pageParam, signal }) => getSessions(f, position, pageParam, limit, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.NextCursor,
  });

/** The member's sessions, a page at a time (keyset cursor); `enabled` waits for a position. */
export function useSessions(f: HistoryFilters, position: LatLng | null, enabled = true, limit = PAGE_SIZE) {
  return useInfiniteQuery({ ...sessionsQuery(f, position, limit), enabled, placeholderData: keepPreviousData });
}
