/** React Query keys of the operator's console. */
export const operatorKeys = {
  all: ['operator'] as const,
  mine: ['operator', 'mine'] as const,
  staff: (operatorId: number) => ['operator', operatorId, 'staff'] as const,
  invites: (operatorId: number) => ['operator', operatorId, 'invites'] as const,
  audit: (operatorId: number) => ['operator', operatorId, 'audit'] as const,
  policies: (operatorId: number) => ['operator', operatorId, 'policies'] as const,
  policy: (operatorId: number, policyId: number) => ['operator', operatorId, 'policies', policyId] as const,
  priceEvents: (operatorId: number) => ['operator', operatorId, 'price-events'] as const,
  zones: (operatorId: number) => ['operator', operatorId, 'zones'] as const,
  dashboard: (operatorId: number) => ['operator', operatorId, 'dashboard'] as const,
  report: (operatorId: number, query: string) => ['operator', operatorId, 'report', query] as const,
  zoneList: (operatorId: number, search: { q: string; retired: string; offset: number }) =>
    ['operator', operatorId, 'zones', 'list', search] as const,
  zone: (operatorId: number, zoneId: number) => ['operator', operatorId, 'zones', zoneId] as const,
};
