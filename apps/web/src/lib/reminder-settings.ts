import { queryOptions, useQuery } from '@tanstack/react-query';
import { REMINDER_LEAD_MINUTES, type ReminderSettings } from '@parkit/contract';
import { api } from './api-client.ts';
import { queryKeys } from './query-keys.ts';

/**
 * GET /api/Account/Reminders: when the reminder before a session's end comes, and how
 * (docs/product.md#reminders). The profile edits it; the parking banner reads its minutes.
 */
export const remindersQuery = queryOptions({
  queryKey: queryKeys.reminders,
  queryFn: ({ signal }) => api.get<ReminderSettings>('/api/Account/Reminders', { signal, showError: false }),
});

/**
 * How many minutes before a session's end the open app warns: the member's choice (10, 15 or 30),
 * 10 until it has loaded, for a guest (no account) or when it cannot be loaded.
 */
export function useReminderMinutes(enabled: boolean): number {
  const settings = useQuery({ ...remindersQuery, enabled });
  return (enabled ? settings.data?.ReminderMinutes : undefined) ?? REMINDER_LEAD_MINUTES;
}
