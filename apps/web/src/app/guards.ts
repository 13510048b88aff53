import { redirect, type LoaderFunctionArgs } from 'react-router';
import { paths } from '../config/paths.ts';
import { continueAsGuest, getSession, isAuthenticated } from '../lib/session-store.ts';

/**
 * Protected routes: a stored access token or the guest flag, else /parkit (docs/product.md#states). The
 * Quick Park receipt link (/QuickParkRegister?session=&token=, sent by SMS) opens as a guest visit:
 * it is how a driver without an account reaches the session.
 */
export function requireAuth({ request }: Partial<LoaderFunctionArgs> = {}) {
  if (isAuthenticated(getSession())) return null;
  const url = request ? new URL(request.url) : null;
  if (url?.pathname === paths.quickParkRegister && url.searchParams.has('session') && url.searchParams.has('token')) {
    continueAsGuest();
    return null;
  }
  throw redirect(paths.parkit);
}

/**
 * /login and /parkit: the spec checks only the guest flag; we send a signed-in member to
 * /homepage too (docs/product.md#placeholders-made-real).
 */
export function redirectIfSignedIn() {
  if (isAuthenticated(getSession())) throw redirect(paths.homepage);
  return null;
}
