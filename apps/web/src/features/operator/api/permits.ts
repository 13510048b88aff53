import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Permit, PERMIT_STATUS_VALUES, PermitType, PermitTypeInput } from '@parkit/contract';
import { api } from '../../../lib/api-client.ts';
import { operatorKeys } from './keys.ts';

const base = (operatorId: number) => `/api/Operator/${operatorId}`;
type PermitStatus = (typeof PERMIT_STATUS_VALUES)[number];

/** GET /api/Operator/{id}/PermitTypes */
export const usePermitTypes = (operatorId: number) =>
  useQuery({
    queryKey: operatorKeys.permitTypes(operatorId),
    queryFn: ({ signal }) => api.get<PermitType[]>(`${base(operatorId)}/PermitTypes`, { showError: false, signal }),
  });

/** POST .../PermitTypes (a new one), PUT .../PermitTypes/{typeId}, POST .../{typeId}/Retire; the list and the audit log are read again. */
export function usePermitTypeChanges(operatorId: number) {
  const qc = useQueryClient();
  const settled = async () => {
    await qc.invalidateQueries({ queryKey: operatorKeys.permitTypes(operatorId) });
    await qc.invalidateQueries({ queryKey: operatorKeys.audit(operatorId) });
  };
  return {
    save: useMutation({
      mutationFn: ({ typeId, body }: { typeId: number | null; body: PermitTypeInput }) =>
        typeId === null
          ? api.post<PermitType>(`${base(operatorId)}/PermitTypes`, body, { showError: false })
          : api.put<PermitType>(`${base(operatorId)}/PermitTypes/${typeId}`, body, { showError: false }),
      onSettled: settled,
    }),
    retire: useMutation({
      mutationFn: (typeId: number) =>
        api.post<PermitType>(`${base(operatorId)}/PermitTypes/${typeId}/Retire`, {}, { showError: false }),
      onSettled: settled,
    }),
  };
}

/** GET /api/Operator/{id}/Permits?status=… ('' for every status). */
export const useOperatorPermits = (operatorId: number, status: PermitStatus | '') =>
  useQuery({
    queryKey: operatorKeys.permits(operatorId, status),
    queryFn: ({ signal }) =>
      api.get<Permit[]>(`${base(operatorId)}/Permits${status ? `?status=${status}` : ''}`, {
        showError: false,
        signal,
      }),
  });

export const permitProofUrl = (operatorId: number, permitId: number) => `${base(operatorId)}/Permits/${permitId}/Proof`;

/** POST .../Permits/{permitId}/Approve or .../Refuse {Reason}; the permits and the audit log are read again. */
export function useDecidePermit(operatorId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ permitId, refuse }: { permitId: number; refuse?: { Reason: string } }) =>
      refuse
        ? api.post<Permit>(`${base(operatorId)}/Permits/${permitId}/Refuse`, refuse, { showError: false })
        : api.post<Permit>(`${base(operatorId)}/Permits/${permitId}/Approve`, {}, { showError: false }),
    onSettled: async () => {
      await qc.invalidateQueries({ queryKey: operatorKeys.allPermits(operatorId) });
      await qc.invalidateQueries({ queryKey: operatorKeys.audit(operatorId) });
    },
  });
}
