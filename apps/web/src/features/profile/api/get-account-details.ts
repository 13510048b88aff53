import { useQuery } from '@tanstack/react-query';
import { accountDetailsQuery } from '../../../lib/session.ts';

/**
 * GET /api/Account/Details (spec section 7: Balance and MinBalance, plus user data). The query
 * lives in lib/session.ts: every load also updates the session (user_data, is_vehicle,
 * client_id), so the app's keys never lag.
 */

/** Members only: a guest has no account to load. */
export function useAccountDetails(enabled: boolean, opts: { fresh?: boolean; live?: boolean } = {}) {
  return useQuery({
    ...accountDetailsQuery,
    enabled,
    ...(opts.fresh ? { staleTime: 0 } : {}),
    // The wallet moves while the screen is open (auto-reload, parking): refresh it (issue 10).
    ...(opts.live ? { staleTime: 0, refetchInterval: 15_000 } : {}),
  });
}
