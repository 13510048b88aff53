import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { IssueStatementRequest, Statement, StatementDetail } from '@parkit/contract';
import { api } from '../../../lib/api-client.ts';
import { operatorKeys } from './keys.ts';

const base = (operatorId: number) => `/api/Operator/${operatorId}/Statements`;

/** GET /api/Operator/{id}/Statements: the statements, newest period first. */
export const useStatements = (operatorId: number) =>
  useQuery({
    queryKey: operatorKeys.statements(operatorId),
    queryFn: ({ signal }) => api.get<Statement[]>(base(operatorId), { showError: false, signal }),
  });

/** GET /api/Operator/{id}/Statements/{statementId}: one statement and its lines. */
export const useStatement = (operatorId: number, statementId: number | null) =>
  useQuery({
    queryKey: operatorKeys.statement(operatorId, statementId ?? 0),
    queryFn: ({ signal }) =>
      api.get<StatementDetail>(`${base(operatorId)}/${statementId}`, { showError: false, signal }),
    enabled: statementId !== null,
  });

/** POST /api/Operator/{id}/Statements: issue a day's or a month's statement (the one issued before, if any). */
export function useIssueStatement(operatorId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: IssueStatementRequest) => api.post<Statement>(base(operatorId), body, { showError: false }),
    onSettled: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: operatorKeys.statements(operatorId) }),
        qc.invalidateQueries({ queryKey: operatorKeys.audit(operatorId) }),
      ]),
  });
}

/** The statement's file paths (CSV, PDF). */
export const statementFile = (operatorId: number, statementId: number, kind: 'csv' | 'pdf') =>
  `${base(operatorId)}/${statementId}/Statement.${kind}`;
