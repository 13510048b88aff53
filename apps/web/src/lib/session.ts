import { hashKey, queryOptions, useQuery } from '@tanstack/react-query';
import type { AccountDetails, TokenResponse } from '@parkit/contract';
import { api } from './api-client.ts';
import { env } from '../config/env.ts';
import { paths } from '../config/paths.ts';
import { followBrowserLanguage } from './i18n.ts';
import { queryKeys } from './query-keys.ts';
import {
  hasClientId,
  hasSessionClient,
  isAuthenticated,
  isMember,
  readStoredSession,
  replaceSession,
  sessionClient,
  takeReturnPath,
  type Session,
} from './session-store.ts';
import { storage } from './storage.ts';
import { claimOfficerDevice, clearOfficerDevice } from './officer-device.ts';
import { isSupportAgent } from './support-agent.ts';
import { isOperatorStaff } from './operator-staff.ts';

/**
 * GET /api/Account/Details (docs/product.md#api-calls: Balance and MinBalance, plus the user data). Its
 * query function only fetches: every load updates the session through the session store's
 * subscriber (user_data, username, p_user_id, client_id, is_vehicle follow the server).
 */
export const accountDetailsQuery = queryOptions({
  queryKey: queryKeys.accountDetails,
  queryFn: ({ signal }) => api.get<AccountDetails>('/api/Account/Details', { signal }),
});

export interface SessionView extends Session {
  /** A token and not the guest flag. */
  member: boolean;
  /** docs/product.md#states: a token or the guest flag. */
  authenticated: boolean;
  /** docs/product.md#screens: client_id present and not "0". */
  hasClientId: boolean;
}

const view = (s: Session): SessionView => ({
  ...s,
  member: isMember(s),
  authenticated: isAuthenticated(s),
  hasClientId: hasClientId(s),
});

/**
 * The signed-in member, the guest, or nobody: the one way a screen knows who is using the app
 *. Re-renders when anything changes the session (sign-in, account load, vehicle
 * list, profile save, logout). Screens never read localStorage.
 */
export function useSession(): SessionView {
  const { data } = useQuery({
    queryKey: queryKeys.session,
    queryFn: readStoredSession,
    initialData: readStoredSession,
    staleTime: Infinity,
    gcTime: Infinity,
  });
  return view(data);
}

/**
 * After any sign-in: a new session with the token, then the account (which fills the rest of
 * the session), and where to go: a support agent's or an operator's console, /addvehicles for a
 * member with no vehicle, else the screen an ended session was on, else /homepage.
 */
export async function completeSignIn(token: TokenResponse): Promise<string> {
  // The sign-in screens paint without the data layer (docs/benchmarks.md): it starts here.
  if (!hasSessionClient()) await import('./query-client.ts');
  replaceSession({ token: token.access_token, appId: env.VITE_APP_ID, userId: String(token.member_id) });
  await claimOfficerDevice(String(token.member_id));
  const details = await sessionClient().fetchQuery({ ...accountDetailsQuery, staleTime: 0 });
  const back = takeReturnPath();
  if (await isSupportAgent()) return paths.supportConsole; // issue 13: agents land on the console
  if (await isOperatorStaff()) return paths.operator; // an operator's staff land on its console
  if (details.VehicleCount === 0) return paths.addVehicles;
  // After a session the server ended: back to the screen the driver was on.
  return back ?? paths.homepage;
}

/**
 * docs/product.md#states: 'Yes, Logout' clears all browser storage (the language too) and the query
 * cache, so nothing of this member shows to the next person; the language then follows the
 * browser's own.
 */
export function clearSession() {
  const client = sessionClient();
  // Every query but the session's own entry, which is emptied instead: a mounted useSession()
  // stays subscribed to it and sees the logout (after client.clear() it kept the member).
  client.removeQueries({ predicate: (q) => q.queryHash !== hashKey(queryKeys.session) });
  client.getMutationCache().clear();
  storage.clearAll();
  replaceSession({});
  void followBrowserLanguage();
}

/**
 * 'Yes, Logout': the server revokes the refresh token, the browser forgets everything, the officer's
 * downloaded rights and citation queue included (lib/officer-device.ts; the screens warn first when
 * citations wait to be sent).
 */
export async function logout(): Promise<void> {
  try {
    await api.post('/api/Account/Logout', {}, { showError: false });
  } finally {
    clearSession();
    await clearOfficerDevice().catch(() => undefined);
  }
}
