import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AcceptInviteRequest, OperatorMembership } from '@parkit/contract';
import { api } from '../../../lib/api-client.ts';
import { operatorKeys } from './keys.ts';

/** GET /api/Operator/Mine: the operators the signed-in person works for (403 for a driver). */
export const useMyOperators = () =>
  useQuery({
    queryKey: operatorKeys.mine,
    queryFn: ({ signal }) => api.get<OperatorMembership[]>('/api/Operator/Mine', { showError: false, signal }),
    retry: false,
  });

/** POST /api/Account/OperatorInvite: join an operator with an invitation's code. */
export function useAcceptInvite() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: AcceptInviteRequest) =>
      api.post<OperatorMembership>('/api/Account/OperatorInvite', body, { showError: false }),
    onSuccess: () => qc.invalidateQueries({ queryKey: operatorKeys.all }),
  });
}
