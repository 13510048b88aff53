import type { QueryClient } from '@tanstack/react-query';
import type { AccountDetails, UserData, Vehicle } from '@parkit/contract';
import { env } from '../config/env.ts';
import { paths } from '../config/paths.ts';
import { queryKeys } from './query-keys.ts';
import { KEYS, RETURN_KEY, storage, tabStorage } from './storage.ts';

/**
 * The signed-in member (or guest) as ONE entry of the React Query cache (issue 7,
 * docs/conventions.md#one-way-per-thing). Screens read it with `useSession()` (lib/session.ts); code outside React reads
 * `getSession()`. Writers change the cache (`updateSession`), and one cache subscriber,
 * installed by `connectSession`, writes the spec's storage keys (docs/product.md#stored-data) from it. Nothing else
 * writes those keys; the storage is only what survives a reload.
 */
export interface Session {
  /** access_token */
  token: string | null;
  /** is_guestUser === 'true' */
  guest: boolean;
  /** app_id */
  appId: string | null;
  /** p_user_id (the member id) */
  userId: string | null;
  /** user_data */
  user: UserData | null;
  /** username */
  username: string | null;
  /** is_vehicle: true/false once known, null when never set */
  isVehicle: boolean | null;
  /** client_id: the parking operator the member parks with */
  clientId: string | null;
}

export const ANONYMOUS: Session = {
  token: null,
  guest: false,
  appId: null,
  userId: null,
  user: null,
  username: null,
  isVehicle: null,
  clientId: null,
};

/** docs/product.md#states: a stored access token, or the guest flag set to 'true'. */
export const isAuthenticated = (s: Session) => Boolean(s.token) || s.guest;
/** A member: a token and not the guest flag (the screens' "member" branch). */
export const isMember = (s: Session) => Boolean(s.token) && !s.guest;
/** docs/product.md#screens: Find Parking needs a client_id that is present and not "0". */
export const hasClientId = (s: Session) => s.clientId !== null && s.clientId !== '' && s.clientId !== '0';

function parseUser(raw: string | null): UserData | null {
  if (!raw) return null;
  try {
    const u = JSON.parse(raw) as unknown;
    return u && typeof u === 'object' ? (u as UserData) : null;
  } catch {
    return null;
  }
}

/** What a reload starts from: the spec's keys as stored. */
export function readStoredSession(): Session {
  const vehicle = storage.get(KEYS.isVehicle);
  return {
    token: storage.get(KEYS.accessToken) || null,
    guest: storage.get(KEYS.isGuest) === 'true',
    appId: storage.get(KEYS.appId),
    userId: storage.get(KEYS.userId),
    user: parseUser(storage.get(KEYS.userData)),
    username: storage.get(KEYS.username),
    isVehicle: vehicle === null ? null : vehicle === 'true',
    clientId: storage.get(KEYS.clientId),
  };
}

const put = (key: string, value: string | null) => (value === null ? storage.remove(key) : storage.set(key, value));

/** The one writer of the spec's keys; only the cache subscriber calls it. */
function writeStoredSession(s: Session) {
  put(KEYS.accessToken, s.token);
  put(KEYS.isGuest, s.guest ? 'true' : null);
  put(KEYS.appId, s.appId);
  put(KEYS.userId, s.userId);
  put(KEYS.userData, s.user ? JSON.stringify({ ...s.user, MinBalance: s.user.MinBalance || '0' }) : null);
  put(KEYS.username, s.username);
  put(KEYS.isVehicle, s.isVehicle === null ? null : String(s.isVehicle));
  put(KEYS.clientId, s.clientId);
}

/** The session keys that follow GET /api/Account/Details (docs/product.md#sign-in). */
export function sessionFromAccount(d: AccountDetails): Partial<Session> {
  const user: UserData = {
    MemberId: d.MemberId,
    EmailAddress: d.EmailAddress,
    PhoneNumber: d.PhoneNumber,
    FirstName: d.FirstName,
    LastName: d.LastName,
    UserName: d.UserName,
    AddressLine1: d.AddressLine1,
    AddressLine2: d.AddressLine2,
    City: d.City,
    State: d.State,
    ZipCode: d.ZipCode,
    MinBalance: d.MinBalance || '0',
  };
  return {
    user,
    username: d.UserName,
    userId: String(d.MemberId),
    clientId: String(d.ClientId),
    isVehicle: d.VehicleCount > 0,
  };
}

let active: QueryClient | null = null;
let disconnect = () => {};

const sameKey = (a: readonly unknown[], b: readonly unknown[]) =>
  a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * Makes `client` the app's session cache: seeds it from storage and subscribes the one writer.
 * Every load of the account details or the vehicle list updates the session as it lands, so the
 * keys follow the server (is_vehicle no longer needs a fix per screen). Returns the unsubscribe.
 */
export function connectSession(client: QueryClient): () => void {
  disconnect();
  active = client;
  const unsubscribe = client.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated' || event.action.type !== 'success') return;
    const key = event.query.queryKey;
    const data: unknown = event.query.state.data;
    if (sameKey(key, queryKeys.session)) writeStoredSession(data as Session);
    else if (sameKey(key, queryKeys.accountDetails)) updateSession(sessionFromAccount(data as AccountDetails));
    else if (sameKey(key, queryKeys.vehicles) && Array.isArray(data))
      updateSession({ isVehicle: (data as Vehicle[]).length > 0 });
  });
  client.setQueryData(queryKeys.session, readStoredSession());
  disconnect = () => {
    unsubscribe();
    if (active === client) active = null;
  };
  return disconnect;
}

/** Tests: forget the connected cache (each render connects its own). */
export function disconnectSession() {
  disconnect();
}

/** Whether a cache is connected (the sign-in screens paint before one is: lib/session.ts). */
export function hasSessionClient(): boolean {
  return active !== null;
}

/** The cache the session lives in (connected by lib/query-client.ts, or by a test's render). */
export function sessionClient(): QueryClient {
  if (!active) throw new Error('connectSession(queryClient) was not called');
  return active;
}

/** The session now; before a cache is connected (a unit test of the API client), the storage. */
export function getSession(): Session {
  return active?.getQueryData<Session>(queryKeys.session) ?? readStoredSession();
}

/** Changes the session; the subscriber writes the keys in the same tick. */
export function updateSession(patch: Partial<Session>) {
  if (!active) {
    writeStoredSession({ ...readStoredSession(), ...patch });
    return;
  }
  active.setQueryData<Session>(queryKeys.session, (s) => ({ ...(s ?? readStoredSession()), ...patch }));
}

/** Starts a session from nothing (sign-in, continue as guest). */
export function replaceSession(s: Partial<Session>) {
  updateSession({ ...ANONYMOUS, ...s });
}

/**
 * 'Continue as guest': the guest flag and the home page. Here, not in session.ts, because the
 * landing page offers it and loads without the query cache.
 */
export function continueAsGuest(): string {
  replaceSession({ guest: true, appId: env.VITE_APP_ID });
  return paths.homepage;
}

/**
 * The server ended a signed-in session (an expired or revoked sign-in, no refresh): the token
 * goes, and the screen the driver was on is kept, so that /login can say the session ended and
 * the next sign-in returns there (docs/product.md#sign-in).
 */
export function endSignedInSession(at: string) {
  if (at !== paths.login && !at.startsWith(`${paths.login}?`)) tabStorage.set(RETURN_KEY, at);
  updateSession({ token: null });
}

/** Where the ended session was, while no one has signed in since (null otherwise). */
export function endedSessionPath(): string | null {
  return tabStorage.get(RETURN_KEY);
}

/** After a sign-in: the screen to return to, once (a path of this app only). */
export function takeReturnPath(): string | null {
  const at = tabStorage.get(RETURN_KEY);
  tabStorage.remove(RETURN_KEY);
  return at && at.startsWith('/') && !at.startsWith('//') ? at : null;
}
