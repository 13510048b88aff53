import { api } from './api-client.ts';

/**
 * Whether the signed-in member works for an operator: the console's Mine answers 200 for staff and
 * 403 for anyone else. Used once after sign-in to choose the landing page (/operator).
 */
export function isOperatorStaff(): Promise<boolean> {
  return api.get<unknown[]>('/api/Operator/Mine', { showError: false }).then(
    (list) => list.length > 0,
    () => false,
  );
}
