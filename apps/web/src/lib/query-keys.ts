/**
 * Cache keys the session follows (lib/session-store.ts): a load of either updates the signed-in
 * member. Other queries keep their keys in their own api/ file.
 */
export const queryKeys = {
  session: ['session'],
  accountDetails: ['account', 'details'],
  vehicles: ['vehicles'],
} as const;
