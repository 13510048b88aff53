import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateApiKeyRequest, CreatedApiKey, OperatorApiKey } from '@parkit/contract';
import { api } from '../../../lib/api-client.ts';
import { operatorKeys } from './keys.ts';

const url = (operatorId: number) => `/api/Operator/${operatorId}/Keys`;

/** The operator's API keys, officers' and CDS (owners only). */
export const useApiKeys = (operatorId: number) =>
  useQuery({
    queryKey: operatorKeys.apiKeys(operatorId),
    queryFn: ({ signal }) => api.get<OperatorApiKey[]>(url(operatorId), { showError: false, signal }),
  });

/** Making or revoking a key also writes the audit log: both are read again. */
function useKeyChange<V, R>(operatorId: number, request: (v: V) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSettled: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: operatorKeys.apiKeys(operatorId) }),
        qc.invalidateQueries({ queryKey: operatorKeys.audit(operatorId) }),
      ]),
  });
}

export const useMakeApiKey = (operatorId: number) =>
  useKeyChange(operatorId, (body: CreateApiKeyRequest) =>
    api.post<CreatedApiKey>(url(operatorId), body, { showError: false }),
  );

export const useRevokeApiKey = (operatorId: number) =>
  useKeyChange(operatorId, (prefix: string) => api.post(`${url(operatorId)}/${prefix}/Revoke`, {}));
