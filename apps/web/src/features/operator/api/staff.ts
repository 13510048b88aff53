import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InviteRequest, OperatorRole, PendingInvite, StaffMember } from '@parkit/contract';
import { api } from '../../../lib/api-client.ts';
import { operatorKeys } from './keys.ts';

const base = (operatorId: number) => `/api/Operator/${operatorId}`;

export const useStaff = (operatorId: number) =>
  useQuery({
    queryKey: operatorKeys.staff(operatorId),
    queryFn: ({ signal }) => api.get<StaffMember[]>(`${base(operatorId)}/Staff`, { showError: false, signal }),
  });

export const useInvites = (operatorId: number, enabled: boolean) =>
  useQuery({
    queryKey: operatorKeys.invites(operatorId),
    queryFn: ({ signal }) => api.get<PendingInvite[]>(`${base(operatorId)}/Invites`, { showError: false, signal }),
    enabled,
  });

/** Every change of the people also writes the audit log: both are read again. */
function useStaffChange<V>(operatorId: number, request: (v: V) => Promise<unknown>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSettled: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: operatorKeys.staff(operatorId) }),
        qc.invalidateQueries({ queryKey: operatorKeys.invites(operatorId) }),
        qc.invalidateQueries({ queryKey: operatorKeys.audit(operatorId) }),
        qc.invalidateQueries({ queryKey: operatorKeys.mine }),
      ]),
  });
}

export const useInvite = (operatorId: number) =>
  useStaffChange(operatorId, (body: InviteRequest) =>
    api.post<PendingInvite>(`${base(operatorId)}/Invites`, body, { showError: false }),
  );

export const useWithdrawInvite = (operatorId: number) =>
  useStaffChange(operatorId, (inviteId: number) => api.post(`${base(operatorId)}/Invites/${inviteId}/Withdraw`, {}));

export const useChangeRole = (operatorId: number) =>
  useStaffChange(operatorId, ({ memberId, role }: { memberId: number; role: OperatorRole }) =>
    api.post(`${base(operatorId)}/Staff/${memberId}/Role`, { Role: role }),
  );

export const useRemoveStaff = (operatorId: number) =>
  useStaffChange(operatorId, (memberId: number) => api.post(`${base(operatorId)}/Staff/${memberId}/Remove`, {}));
