import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ChangeOperatorSettingsRequest, OperatorSettings } from '@parkit/contract';
import { api } from '../../../lib/api-client.ts';
import { operatorKeys } from './keys.ts';

const url = (operatorId: number) => `/api/Operator/${operatorId}/Settings`;

/** The operator's settings (every role reads them). */
export const useOperatorSettings = (operatorId: number) =>
  useQuery({
    queryKey: operatorKeys.settings(operatorId),
    queryFn: ({ signal }) => api.get<OperatorSettings>(url(operatorId), { showError: false, signal }),
  });

/** The owner changes them: the sessions (their plates) and the audit log are read again. */
export const useChangeSettings = (operatorId: number) => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ChangeOperatorSettingsRequest) => api.put<OperatorSettings>(url(operatorId), body),
    onSuccess: (saved) => qc.setQueryData(operatorKeys.settings(operatorId), saved),
    onSettled: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: operatorKeys.settings(operatorId) }),
        qc.invalidateQueries({ queryKey: operatorKeys.sessions(operatorId) }),
        qc.invalidateQueries({ queryKey: operatorKeys.audit(operatorId) }),
      ]),
  });
};
