import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Zone } from '@parkit/contract';
import { api } from '../../../lib/api-client.ts';
import { parkingKeys } from './keys.ts';
import type { LatLng } from '../lib/position.ts';

export interface NearbyParams extends LatLng {
  /** Metres; the server allows at most 10 km (MAX_NEARBY_RADIUS_M). */
  radius: number;
  /** At most 100. */
  limit: number;
}

/** ~1 m: positions that differ less than this share a cache entry (GPS jitter would refetch). */
const round = (v: number) => Number(v.toFixed(5));

export function getNearbyZones({ lat, lng, radius, limit }: NearbyParams, signal?: AbortSignal): Promise<Zone[]> {
  const qs = new URLSearchParams({
    lat: String(round(lat)),
    lng: String(round(lng)),
    radius: String(radius),
    limit: String(limit),
  });
  return api.get<Zone[]>(`/api/Parking/Zones/Nearby?${qs}`, { signal });
}

export const nearbyZonesQuery = (p: NearbyParams) =>
  queryOptions({
    queryKey: parkingKeys.nearby(round(p.lat), round(p.lng), p.radius, p.limit),
    queryFn: ({ signal }) => getNearbyZones(p, signal),
  });

/** Zones nearest first; `null` params (no position yet) keep the query idle. */
export function useNearbyZones(params: NearbyParams | null) {
  return useQuery({
    ...nearbyZonesQuery(params ?? { lat: 0, lng: 0, radius: 0, limit: 0 }),
    enabled: params !== null,
    // Widening the search keeps the old list on screen until the new one arrives.
    placeholderData: keepPreviousData,
  });
}
