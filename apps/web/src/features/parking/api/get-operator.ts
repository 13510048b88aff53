import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Operator } from '@parkit/contract';
import { api } from '../../../lib/api-client.ts';
import { parkingKeys } from './keys.ts';

/** The member's parking operator (client_id): its city centre is where Find Parking starts without a position. */
export function getOperator(signal?: AbortSignal): Promise<Operator> {
  return api.get<Operator>('/api/Parking/Operator', { signal });
}

export const operatorQuery = () =>
  queryOptions({
    queryKey: parkingKeys.operator,
    queryFn: ({ signal }) => getOperator(signal),
    // An operator's city centre does not move during a visit.
    staleTime: 60 * 60_000,
  });

export function useOperator(enabled = true) {
  return useQuery({ ...operatorQuery(), enabled });
}
