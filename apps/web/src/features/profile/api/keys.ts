import { queryKeys } from '../../../lib/query-keys.ts';

/** React Query keys of the profile (one place); under the account's, which a payment refreshes. */
export const profileKeys = {
  parkingOptions: [...queryKeys.account, 'parking-options'] as const,
  reminders: queryKeys.reminders,
};
