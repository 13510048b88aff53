/** React Query keys of the operator's console. */
export const operatorKeys = {
  all: ['operator'] as const,
  mine: ['operator', 'mine'] as const,
  staff: (operatorId: number) => ['operator', operatorId, 'staff'] as const,
  invites: (operatorId: number) => ['operator', operatorId, 'invites'] as const,
  audit: (operatorId: number) => ['operator', operatorId, 'audit'] as const,
  zones: (operatorId: number) => ['operator', operatorId, 'zones'] as const,
  zoneList: (operatorId: number, search: { q: string; retired: string; offset: number }) =>
    ['operator', operatorId, 'zones', 'list', search] as const,
  zone: (operatorId: number, zoneId: number) => ['operator', operatorId, 'zones', zoneId] as const,
};
