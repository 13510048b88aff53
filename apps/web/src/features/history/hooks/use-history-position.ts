import { useQuery } from '@tanstack/react-query';
import { queryKeys } from '../../../lib/query-keys.ts';

export interface LatLng {
  lat: number;
  lng: number;
}

/**
 * The driver's position for the distance sorts, asked only when one is chosen. The getter comes
 * from the route (Find Parking's, so the browser is asked the same way); when it fails, the
 * server measures from the operator's city centre and says so.
 */
export function useHistoryPosition(wanted: boolean, getPosition: () => Promise<LatLng>) {
  const q = useQuery({
    queryKey: queryKeys.devicePosition,
    queryFn: () => getPosition(),
    enabled: wanted,
    retry: false,
    staleTime: 2 * 60_000,
    gcTime: 15 * 60_000,
  });
  return { position: wanted ? (q.data ?? null) : null, settled: !wanted || q.isSuccess || q.isError };
}
