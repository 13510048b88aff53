import type { CodeSent, ResetPasswordRequest, TokenResponse } from '@parkit/contract';
import { api } from '../../../lib/api-client.ts';
import { updateSession } from '../../../lib/session-store.ts';

/** POST /api/Account/ForgotPassword: a reset code to the signed-in member's phone. */
export function requestResetCode() {
  return api.post<CodeSent>('/api/Account/ForgotPassword', {}, { showError: false });
}

/**
 * POST /api/Account/ResetPassword. The server signs every other device out and returns a fresh
 * token pair for this one, so the new access token is kept.
 */
export async function resetPassword(body: ResetPasswordRequest): Promise<void> {
  const token = await api.post<TokenResponse>('/api/Account/ResetPassword', body, { showError: false });
  updateSession({ token: token.access_token });
}
