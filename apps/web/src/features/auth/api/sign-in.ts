import type { TokenResponse } from '@parkit/contract';
import { api } from '../../../lib/api-client.ts';

/**
 * The sign-in screens paint without the data layer (React Query and the session in it,
 * docs/benchmarks.md): it loads beside the token request and takes the answer.
 */
async function signedIn(request: Promise<TokenResponse>): Promise<string> {
  const session = import('../../../lib/session.ts');
  session.catch(() => {}); // a refused request is the error the form shows
  const token = await request;
  return (await session).completeSignIn(token);
}

/** The spec's form-encoded token POST with a password; resolves to the page to open next. */
export function signInWithPassword(username: string, password: string): Promise<string> {
  return signedIn(api.token({ grant_type: 'password', username, password }, { showError: false }));
}

/** The token POST with a code sent to the phone; resolves to the page to open next. */
export function signInWithCode(phone: string, code: string): Promise<string> {
  return signedIn(api.token({ grant_type: 'otp', phone, code }, { showError: false }));
}
