import { useQuery } from '@tanstack/react-query';
import { accountDetailsQuery } from '../../../lib/session.ts';

/** GET /api/Account/Details with the wallet's fields; fresh on every visit of a wallet screen. */
export const useAccountDetails = (opts: { live?: boolean } = {}) =>
  useQuery({ ...accountDetailsQuery, staleTime: 0, ...(opts.live ? { refetchInterval: 15_000 } : {}) });
