import { api } from '../../../lib/api-client.ts';
import { completeSignIn } from '../../../lib/session.ts';

/** The spec's form-encoded token POST with a password; resolves to the page to open next. */
export async function signInWithPassword(username: string, password: string): Promise<string> {
  const token = await api.token({ grant_type: 'password', username, password }, { showError: false });
  return completeSignIn(token);
}

/** The token POST with a code sent to the phone; resolves to the page to open next. */
export async function signInWithCode(phone: string, code: string): Promise<string> {
  const token = await api.token({ grant_type: 'otp', phone, code }, { showError: false });
  return completeSignIn(token);
}
