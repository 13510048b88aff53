import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { OperatorSessionDetail, OperatorSessionPage, OperatorZonePage, RefundResponse } from '@parkit/contract';
import { api } from '../../../lib/api-client.ts';
import { operatorKeys } from './keys.ts';

/** What the Sessions screen searches by (empty: any). */
export interface SessionFilters {
  zoneId: string;
  from: string;
  to: string;
  plate: string;
}

const base = (operatorId: number) => `/api/Operator/${operatorId}/Sessions`;

/** GET /api/Operator/{id}/Sessions with the filters, newest first, a page at a time ("Load older"). */
export const useOperatorSessions = (operatorId: number, filters: SessionFilters) =>
  useInfiniteQuery({
    queryKey: operatorKeys.sessionList(operatorId, filters),
    queryFn: ({ pageParam, signal }) => {
      const q = new URLSearchParams({ limit: '25' });
      for (const [k, v] of Object.entries(filters)) if (v.trim() !== '') q.set(k, v.trim());
      if (pageParam !== null) q.set('before', String(pageParam));
      return api.get<OperatorSessionPage>(`${base(operatorId)}?${q.toString()}`, { showError: false, signal });
    },
    initialPageParam: null as number | null,
    getNextPageParam: (last) => last.Next,
  });

/** GET /api/Operator/{id}/Sessions/{sessionId}: the session and its console refunds. */
export const useOperatorSession = (operatorId: number, sessionId: number | null) =>
  useQuery({
    queryKey: operatorKeys.session(operatorId, sessionId ?? 0),
    queryFn: ({ signal }) =>
      api.get<OperatorSessionDetail>(`${base(operatorId)}/${sessionId}`, { showError: false, signal }),
    enabled: sessionId !== null,
  });

/** The operator's zones for the Sessions screen's zone filter (number and name). */
export const useZoneChoices = (operatorId: number) =>
  useQuery({
    queryKey: operatorKeys.zoneChoices(operatorId),
    queryFn: ({ signal }) =>
      api.get<OperatorZonePage>(`/api/Operator/${operatorId}/Zones?limit=200`, { showError: false, signal }),
  });

/** A refund's body as the server reads it: a decimal Amount or Whole, and the Reason. */
export type RefundBody = { Amount: string; Reason: string } | { Whole: true; Reason: string };

/**
 * POST /api/Operator/{id}/Sessions/{sessionId}/Refund with one Idempotency-Key per intent (a retry
 * of the same refund is answered once); the sessions, the session and the audit log are read again.
 */
export function useRefund(operatorId: number, sessionId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ body, key }: { body: RefundBody; key: string }) =>
      api.post<RefundResponse>(`${base(operatorId)}/${sessionId}/Refund`, body, {
        showError: false,
        headers: { 'idempotency-key': key },
      }),
    onSettled: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: operatorKeys.sessions(operatorId) }),
        qc.invalidateQueries({ queryKey: operatorKeys.audit(operatorId) }),
      ]),
  });
}
