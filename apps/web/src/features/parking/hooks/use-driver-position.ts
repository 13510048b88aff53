import { useQuery } from '@tanstack/react-query';
import type { Operator } from '@parkit/contract';
import { queryKeys } from '../../../lib/query-keys.ts';
import { useOperator } from '../api/get-operator.ts';
import { getDevicePosition, LocationError, type LatLng, type LocationFailure } from '../lib/position.ts';

export type DriverPosition =
  /** Asking the browser (or, after a refusal, the operator's city centre). */
  | { status: 'locating' }
  | { status: 'device'; position: LatLng }
  /** The device gave no position: the operator's city centre stands in. */
  | { status: 'fallback'; position: LatLng; reason: LocationFailure; operator: Operator }
  /** Neither the device nor the server answered. */
  | { status: 'failed'; reason: LocationFailure };

/**
 * The device position lives in the React Query cache, so the list and the map share one answer
 * (toggling does not ask again) and a retry is a refetch.
 */
export function useDriverPosition(): DriverPosition & { retry: () => void } {
  const device = useQuery({
    queryKey: queryKeys.devicePosition,
    queryFn: () => getDevicePosition(),
    retry: false,
    staleTime: 2 * 60_000,
    gcTime: 15 * 60_000,
  });
  const operator = useOperator(device.isError);
  const retry = () => {
    void device.refetch();
    if (operator.isError) void operator.refetch();
  };

  if (device.data) return { status: 'device', position: device.data, retry };
  if (!device.isError) return { status: 'locating', retry };
  const reason = device.error instanceof LocationError ? device.error.reason : 'unavailable';
  if (operator.data) {
    return {
      status: 'fallback',
      position: { lat: operator.data.Latitude, lng: operator.data.Longitude },
      reason,
      operator: operator.data,
      retry,
    };
  }
  if (operator.isError) return { status: 'failed', reason, retry };
  return { status: 'locating', retry };
}
