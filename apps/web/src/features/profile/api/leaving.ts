import { useMutation } from '@tanstack/react-query';
import type { DeleteAccountRequest, DeleteAccountResponse } from '@parkit/contract';
import { api } from '../../../lib/api-client.ts';
import { downloadFile } from '../../../lib/download-file.ts';

/** GET /api/Account/Export: everything ParkIt holds about the member, saved as one JSON file. */
export const downloadMyData = () =>
  downloadFile('/api/Account/Export', `parkit-data-${new Date().toISOString().slice(0, 10)}.json`);

/**
 * POST /api/Account/Delete with the password and one Idempotency-Key per dialog (a retry of the same
 * confirmation is the same deletion). The caller signs out on success.
 */
export function useDeleteAccount() {
  return useMutation({
    mutationFn: ({ body, key }: { body: DeleteAccountRequest; key: string }) =>
      api.post<DeleteAccountResponse>('/api/Account/Delete', body, {
        showError: false,
        headers: { 'idempotency-key': key },
      }),
  });
}
