import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Zone } from '@parkit/contract';
import { api } from '../../../lib/api-client.ts';
import { parkingKeys } from './keys.ts';

export function getZone(id: number, signal?: AbortSignal): Promise<Zone> {
  return api.get<Zone>(`/api/Parking/Zones/${id}`, { signal });
}

export const zoneQuery = (id: number) =>
  queryOptions({
    queryKey: parkingKeys.zone(id),
    queryFn: ({ signal }) => getZone(id, signal),
    // "Free now" / "Paid until" changes with the clock: keep it fresh.
    staleTime: 60_000,
  });

/** One zone; `null` (no or a bad id in the address) keeps the query idle. */
export function useZone(id: number | null) {
  return useQuery({ ...zoneQuery(id ?? 0), enabled: id !== null });
}
