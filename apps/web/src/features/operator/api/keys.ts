/** React Query keys of the operator's console. */
export const operatorKeys = {
  all: ['operator'] as const,
  mine: ['operator', 'mine'] as const,
  staff: (operatorId: number) => ['operator', operatorId, 'staff'] as const,
  invites: (operatorId: number) => ['operator', operatorId, 'invites'] as const,
  audit: (operatorId: number) => ['operator', operatorId, 'audit'] as const,
  settings: (operatorId: number) => ['operator', operatorId, 'settings'] as const,
  policies: (operatorId: number) => ['operator', operatorId, 'policies'] as const,
  policy: (operatorId: number, policyId: number) => ['operator', operatorId, 'policies', policyId] as const,
  priceEvents: (operatorId: number) => ['operator', operatorId, 'price-events'] as const,
  zones: (operatorId: number) => ['operator', operatorId, 'zones'] as const,
  dashboard: (operatorId: number) => ['operator', operatorId, 'dashboard'] as const,
  report: (operatorId: number, query: string) => ['operator', operatorId, 'report', query] as const,
  zoneList: (operatorId: number, search: { q: string; retired: string; offset: number }) =>
    ['operator', operatorId, 'zones', 'list', search] as const,
  zone: (operatorId: number, zoneId: number) => ['operator', operatorId, 'zones', zoneId] as const,
  sessions: (operatorId: number) => ['operator', operatorId, 'sessions'] as const,
  sessionList: (operatorId: number, filters: object) => ['operator', operatorId, 'sessions', 'list', filters] as const,
  session: (operatorId: number, sessionId: number) => ['operator', operatorId, 'sessions', sessionId] as const,
  statements: (operatorId: number) => ['operator', operatorId, 'statements'] as const,
  statement: (operatorId: number, statementId: number) => ['operator', operatorId, 'statements', statementId] as const,
  zoneChoices: (operatorId: number) => ['operator', operatorId, 'zone-choices'] as const,
};
