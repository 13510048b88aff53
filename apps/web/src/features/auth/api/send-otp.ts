import type { CodeSent } from '@parkit/contract';
import { api } from '../../../lib/api-client.ts';

/**
 * POST /api/Account/SendOtp: a sign-in code to a phone. The answer is the same whether or not the
 * number has an account (docs/product.md#sign-in), so the screen never says which.
 */
export function sendOtp(phone: string) {
  return api.post<CodeSent>('/api/Account/SendOtp', { PhoneNumber: phone }, { showError: false });
}
