import { redirect } from 'react-router';
import { paths } from '../config/paths.ts';
import { getSession, isAuthenticated } from '../lib/session-store.ts';

/** Protected routes: a stored access token or the guest flag, else /parkit (spec section 4). */
export function requireAuth() {
  if (!isAuthenticated(getSession())) throw redirect(paths.parkit);
  return null;
}

/**
 * /login and /parkit: the spec checks only the guest flag; we send a signed-in member to
 * /homepage too (DESIGN.md section 6).
 */
export function redirectIfSignedIn() {
  if (isAuthenticated(getSession())) throw redirect(paths.homepage);
  return null;
}
