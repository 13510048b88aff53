import { useMutation } from '@tanstack/react-query';
import { UserData, type UpdateAccountRequest } from '@parkit/contract';
import { api } from '../../../lib/api-client.ts';
import { storeUserData } from '../../../lib/session.ts';

/**
 * POST /api/Account/Update with the spec's payload (section 3). On success user_data follows: the
 * server's answer when it is the saved user data, else what was sent on top of what was stored.
 */
export const updateAccount = (body: UpdateAccountRequest) => api.post<unknown>('/api/Account/Update', body, { showError: false });

export function useUpdateAccount(stored: UserData) {
  return useMutation({
    mutationFn: updateAccount,
    onSuccess: (res, sent) => {
      const parsed = UserData.safeParse(res);
      storeUserData(
        parsed.success
          ? parsed.data
          : {
              ...stored,
              AddressLine1: sent.AddressLine1.trim(),
              City: sent.City.trim(),
              State: sent.State.trim(),
              ZipCode: sent.ZipCode.trim(),
            },
      );
    },
  });
}
