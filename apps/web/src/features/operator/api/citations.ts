import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Citation, CitationStatus, Violation } from '@parkit/contract';
import { api } from '../../../lib/api-client.ts';
import { operatorKeys } from './keys.ts';

const base = (operatorId: number) => `/api/Operator/${operatorId}`;

/** GET /api/Operator/{id}/Violations */
export const useViolations = (operatorId: number) =>
  useQuery({
    queryKey: operatorKeys.violations(operatorId),
    queryFn: ({ signal }) => api.get<Violation[]>(`${base(operatorId)}/Violations`, { showError: false, signal }),
  });

/** A violation as the form sends it (amounts as typed: the server parses them). */
export interface ViolationBody {
  Code: string;
  Description: string;
  Fine: string;
  DueDays: string;
  LateFee: string;
}

/** POST .../Violations (a new one) or .../Violations/{violationId}/Retire; the list is read again. */
export function useViolationChanges(operatorId: number) {
  const qc = useQueryClient();
  const settled = () => qc.invalidateQueries({ queryKey: operatorKeys.violations(operatorId) });
  return {
    add: useMutation({
      mutationFn: (body: ViolationBody) =>
        api.post<Violation>(`${base(operatorId)}/Violations`, body, { showError: false }),
      onSettled: settled,
    }),
    retire: useMutation({
      mutationFn: (violationId: number) =>
        api.post<Violation>(`${base(operatorId)}/Violations/${violationId}/Retire`, {}, { showError: false }),
      onSettled: settled,
    }),
  };
}

/** GET /api/Operator/{id}/Citations?status=… ('' for every status). */
export const useOperatorCitations = (operatorId: number, status: CitationStatus | '') =>
  useQuery({
    queryKey: operatorKeys.citations(operatorId, status),
    queryFn: ({ signal }) =>
      api.get<Citation[]>(`${base(operatorId)}/Citations${status ? `?status=${status}` : ''}`, {
        showError: false,
        signal,
      }),
  });

export const operatorCitationFileUrl = (operatorId: number, citationId: number, fileId: string) =>
  `${base(operatorId)}/Citations/${citationId}/Files/${fileId}`;

/**
 * POST .../Citations/{citationId}/Decide with its Idempotency-Key (one per decision: useIntentKey),
 * as it moves money back; the citations and the audit log are read again.
 */
export function useDecideContest(operatorId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({
      citationId,
      body,
      key,
    }: {
      citationId: number;
      body: { Decision: 'upheld' | 'cancelled' | 'reduced'; NewFine?: string; Note: string };
      key: string;
    }) =>
      api.post<Citation>(`${base(operatorId)}/Citations/${citationId}/Decide`, body, {
        showError: false,
        headers: { 'idempotency-key': key },
      }),
    onSettled: async () => {
      await qc.invalidateQueries({ queryKey: operatorKeys.allCitations(operatorId) });
      await qc.invalidateQueries({ queryKey: operatorKeys.audit(operatorId) });
    },
  });
}
