import { api } from './api-client.ts';

/**
 * Whether the signed-in member is a support agent: the console's Me answers 200 for an
 * agent and 403 for anyone else. Used once after sign-in to choose the landing page.
 */
export function isSupportAgent(): Promise<boolean> {
  return api.get('/api/Support/Console/Me', { showError: false }).then(
    () => true,
    () => false,
  );
}
