import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './api-client.ts';

/** GET /api/Core/States: two-letter codes; a failure is ignored silently (spec section 7). */
export const getStates = (signal?: AbortSignal) => api.get<string[]>('/api/Core/States', { showError: false, signal });

export const statesQueryOptions = () =>
  queryOptions({
    queryKey: ['core-states'],
    queryFn: ({ signal }) => getStates(signal),
    staleTime: 60 * 60 * 1000,
    retry: false,
  });

export const useStates = () => useQuery(statesQueryOptions());
