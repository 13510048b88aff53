import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReminderSettings, UpdateReminderSettingsRequest } from '@parkit/contract';
import { api } from '../../../lib/api-client.ts';
import { remindersQuery } from '../../../lib/reminder-settings.ts';

export { remindersQuery };

export function useReminders() {
  return useQuery(remindersQuery);
}

/**
 * POST /api/Account/Reminders with the changed fields; the screen shows the change at once and
 * puts it back when refused (the API client shows the error), as the parking options do.
 */
export function useUpdateReminders() {
  const qc = useQueryClient();
  const key = remindersQuery.queryKey;
  return useMutation({
    mutationFn: (patch: UpdateReminderSettingsRequest) => api.post<ReminderSettings>('/api/Account/Reminders', patch),
    onMutate: async (patch) => {
      await qc.cancelQueries({ queryKey: key });
      const previous = qc.getQueryData(key);
      qc.setQueryData(key, (old) => (old ? { ...old, ...(patch as Partial<ReminderSettings>) } : old));
      return { previous };
    },
    onError: (_err, _patch, ctx) => {
      if (ctx?.previous) qc.setQueryData(key, ctx.previous);
    },
    onSuccess: (saved) => qc.setQueryData(key, saved),
  });
}
