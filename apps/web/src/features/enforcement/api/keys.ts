/** React Query keys of the officer's page. */
export const enforcementKeys = {
  mine: ['enforcement', 'mine'] as const,
  zones: (operatorId: number) => ['enforcement', operatorId, 'zones'] as const,
};
