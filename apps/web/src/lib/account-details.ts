import { useQuery } from '@tanstack/react-query';
import { accountDetailsQuery } from './session.ts';

/**
 * GET /api/Account/Details for a screen (its query, and how each load updates the session, are in
 * lib/session.ts). `enabled`: members only, a guest has no account; `fresh`: loaded again on
 * each visit; `live`: also every 15 s while the screen is open, as the wallet moves under it
 * (auto-reload, parking).
 */
export function useAccountDetails({
  enabled = true,
  fresh = false,
  live = false,
}: { enabled?: boolean; fresh?: boolean; live?: boolean } = {}) {
  return useQuery({
    ...accountDetailsQuery,
    enabled,
    ...(fresh || live ? { staleTime: 0 } : {}),
    ...(live ? { refetchInterval: 15_000 } : {}),
  });
}
