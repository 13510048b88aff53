import { useMutation, useQueryClient } from '@tanstack/react-query';
import { UserData, type UpdateAccountRequest } from '@parkit/contract';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { updateSession } from '../../../lib/session-store.ts';

/**
 * POST /api/Account/Update with the spec's payload (docs/product.md#stored-data). On success the session's user
 * follows (the server's answer when it is the saved user data, else what was sent on top of what
 * was stored), and the account is loaded again, so /profile and /dashboard show the saved data.
 */
export const updateAccount = (body: UpdateAccountRequest) =>
  api.post<unknown>('/api/Account/Update', body, { showError: false });

export function useUpdateAccount(stored: UserData) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: updateAccount,
    onSuccess: async (res, sent) => {
      const parsed = UserData.safeParse(res);
      const user = parsed.success
        ? parsed.data
        : {
            ...stored,
            AddressLine1: sent.AddressLine1.trim(),
            City: sent.City.trim(),
            State: sent.State.trim(),
            ZipCode: sent.ZipCode.trim(),
          };
      updateSession({ user: { ...user, MinBalance: user.MinBalance || '0' }, username: user.UserName });
      await qc.invalidateQueries({ queryKey: queryKeys.accountDetails });
    },
  });
}
