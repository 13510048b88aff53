import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AssignPolicyRequest,
  CreatePolicyRequest,
  DraftPreviewRequest,
  OperatorZonePage,
  PolicyDetail,
  PolicySummary,
  PolicyVersion,
  PolicyVersionRequest,
  PriceEvent,
  PriceEventRequest,
  PricePreview,
} from '@parkit/contract';
import { api } from '../../../lib/api-client.ts';
import { operatorKeys } from './keys.ts';

const base = (operatorId: number) => `/api/Operator/${operatorId}`;

export const usePolicies = (operatorId: number) =>
  useQuery({
    queryKey: operatorKeys.policies(operatorId),
    queryFn: ({ signal }) => api.get<PolicySummary[]>(`${base(operatorId)}/Policies`, { showError: false, signal }),
  });

export const usePolicy = (operatorId: number, policyId: number | null) =>
  useQuery({
    queryKey: operatorKeys.policy(operatorId, policyId ?? 0),
    queryFn: ({ signal }) =>
      api.get<PolicyDetail>(`${base(operatorId)}/Policies/${policyId}`, { showError: false, signal }),
    enabled: policyId !== null,
  });

/** The operator's zones in use that a policy or an event may price: the first 100 by number matching `q`. */
export const usePricedZones = (operatorId: number, q: string) =>
  useQuery({
    queryKey: [...operatorKeys.zones(operatorId), q] as const,
    queryFn: ({ signal }) =>
      api.get<OperatorZonePage>(
        `${base(operatorId)}/Zones?limit=100&retired=exclude${q ? `&q=${encodeURIComponent(q)}` : ''}`,
        { showError: false, signal },
      ),
    placeholderData: (previous) => previous,
  });

export const usePriceEvents = (operatorId: number) =>
  useQuery({
    queryKey: operatorKeys.priceEvents(operatorId),
    queryFn: ({ signal }) => api.get<PriceEvent[]>(`${base(operatorId)}/PriceEvents`, { showError: false, signal }),
  });

/** Every change of prices also writes the audit log: the policies, events and the log are read again. */
function usePriceChange<V, R>(operatorId: number, request: (v: V) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSettled: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: operatorKeys.policies(operatorId) }),
        qc.invalidateQueries({ queryKey: operatorKeys.priceEvents(operatorId) }),
        qc.invalidateQueries({ queryKey: operatorKeys.audit(operatorId) }),
      ]),
  });
}

export const useCreatePolicy = (operatorId: number) =>
  usePriceChange(operatorId, (body: CreatePolicyRequest) =>
    api.post<PolicyVersion>(`${base(operatorId)}/Policies`, body, { showError: false }),
  );

export const usePublishVersion = (operatorId: number) =>
  usePriceChange(operatorId, ({ policyId, body }: { policyId: number; body: PolicyVersionRequest }) =>
    api.post<PolicyVersion>(`${base(operatorId)}/Policies/${policyId}/Versions`, body, { showError: false }),
  );

export const useAssignPolicy = (operatorId: number) =>
  usePriceChange(operatorId, ({ policyId, body }: { policyId: number; body: AssignPolicyRequest }) =>
    api.post(`${base(operatorId)}/Policies/${policyId}/Zones`, body),
  );

export const useCreatePriceEvent = (operatorId: number) =>
  usePriceChange(operatorId, (body: PriceEventRequest) =>
    api.post<PriceEvent>(`${base(operatorId)}/PriceEvents`, body, { showError: false }),
  );

export const useCancelPriceEvent = (operatorId: number) =>
  usePriceChange(operatorId, (eventId: number) => api.post(`${base(operatorId)}/PriceEvents/${eventId}/Cancel`, {}));

/** A draft priced by the server's engine; a query keyed by the draft, so the box follows the editor. */
export const usePricePreview = (operatorId: number, draft: DraftPreviewRequest | null) =>
  useQuery({
    queryKey: [...operatorKeys.policies(operatorId), 'preview', draft] as const,
    queryFn: ({ signal }) =>
      api.post<PricePreview>(`${base(operatorId)}/Policies/Preview`, draft, { showError: false, signal }),
    enabled: draft !== null,
    staleTime: 60_000,
  });
