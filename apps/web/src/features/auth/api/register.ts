import type { RegisterRequest, RegisterResponse } from '@parkit/contract';
import { api } from '../../../lib/api-client.ts';

/** POST /api/Account/Register: creates the account and sends a code to the phone. */
export function register(body: RegisterRequest) {
  // Field errors (400/409) are shown beside the fields, not as a toast.
  return api.post<RegisterResponse>('/api/Account/Register', body, { showError: false });
}
