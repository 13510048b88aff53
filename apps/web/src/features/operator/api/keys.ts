/** React Query keys of the operator's console. */
export const operatorKeys = {
  all: ['operator'] as const,
  mine: ['operator', 'mine'] as const,
  staff: (operatorId: number) => ['operator', operatorId, 'staff'] as const,
  invites: (operatorId: number) => ['operator', operatorId, 'invites'] as const,
  audit: (operatorId: number) => ['operator', operatorId, 'audit'] as const,
  dashboard: (operatorId: number) => ['operator', operatorId, 'dashboard'] as const,
  report: (operatorId: number, query: string) => ['operator', operatorId, 'report', query] as const,
};
