/** React Query keys of history (one place). */
export const historyKeys = {
  sessions: (...by: (string | number)[]) => ['history', 'sessions', ...by] as const,
};
