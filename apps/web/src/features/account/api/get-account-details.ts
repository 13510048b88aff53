import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AccountDetails } from '@parkit/contract';
import { api } from '../../../lib/api-client.ts';
import { storeAccount } from '../../../lib/session.ts';

/**
 * GET /api/Account/Details (spec section 7: Balance and MinBalance, plus user data). Every load
 * also refreshes the stored user_data, is_vehicle and client_id, so the app's keys never lag.
 */
export const accountDetailsQuery = queryOptions({
  queryKey: ['account', 'details'],
  queryFn: async ({ signal }) => {
    const details = await api.get<AccountDetails>('/api/Account/Details', { signal });
    storeAccount(details);
    return details;
  },
});

/** Members only: a guest has no account to load. */
export function useAccountDetails(enabled: boolean, opts: { fresh?: boolean } = {}) {
  return useQuery({ ...accountDetailsQuery, enabled, ...(opts.fresh ? { staleTime: 0 } : {}) });
}
