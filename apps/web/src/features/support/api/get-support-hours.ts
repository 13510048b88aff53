import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SupportHours } from '@parkit/contract';
import { api } from '../../../lib/api-client.ts';
import { supportKeys } from './keys.ts';

/** GET /api/Support/Hours: the setting the time picker offers slots from. */
export const getSupportHours = (signal?: AbortSignal) =>
  api.get<SupportHours>('/api/Support/Hours', { showError: false, signal });

export const useSupportHours = () =>
  useQuery(
    queryOptions({
      queryKey: supportKeys.hours,
      queryFn: ({ signal }) => getSupportHours(signal),
      staleTime: 60 * 60_000,
    }),
  );
