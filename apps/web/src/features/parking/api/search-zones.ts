import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Zone } from '@parkit/contract';
import { api } from '../../../lib/api-client.ts';
import { parkingKeys } from './keys.ts';
import type { LatLng } from '../lib/position.ts';

export interface SearchParams {
  /** A zone number (exact) or an address (prefix, typo-tolerant). */
  q: string;
  /** Nearest first when given. */
  near: LatLng | null;
  limit?: number;
}

export function searchZones({ q, near, limit = 20 }: SearchParams, signal?: AbortSignal): Promise<Zone[]> {
  const qs = new URLSearchParams({ q, limit: String(limit) });
  if (near) {
    qs.set('lat', near.lat.toFixed(5));
    qs.set('lng', near.lng.toFixed(5));
  }
  return api.get<Zone[]>(`/api/Parking/Zones/Search?${qs}`, { signal });
}

export const searchZonesQuery = (p: SearchParams) =>
  queryOptions({
    queryKey: parkingKeys.search(p.q, p.near?.lat.toFixed(5) ?? null, p.near?.lng.toFixed(5) ?? null, p.limit ?? 20),
    queryFn: ({ signal }) => searchZones(p, signal),
  });

/** Idle while the text is blank; the previous answer stays while the next one loads (no flicker while typing). */
export function useSearchZones(p: SearchParams) {
  const q = p.q.trim();
  return useQuery({ ...searchZonesQuery({ ...p, q }), enabled: q.length > 0, placeholderData: keepPreviousData });
}
