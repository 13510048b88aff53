import type { UserData } from '@parkit/contract';

/** The spec's browser storage keys (section 3), letter for letter. */
export const KEYS = {
  accessToken: 'access_token',
  appId: 'app_id',
  userId: 'p_user_id',
  userData: 'user_data',
  username: 'username',
  isGuest: 'is_guestUser',
  isVehicle: 'is_vehicle',
  clientId: 'client_id',
} as const;

/** Not a spec key: the chosen language survives logout. */
export const LANGUAGE_KEY = 'language';

const get = (k: string) => localStorage.getItem(k);

export const storage = {
  get,
  set: (k: string, v: string) => localStorage.setItem(k, v),
  remove: (k: string) => localStorage.removeItem(k),
  token: () => get(KEYS.accessToken),
  isGuest: () => get(KEYS.isGuest) === 'true',
  /** Spec section 4: a stored access token, or the guest flag set to 'true'. */
  isAuthenticated: () => Boolean(get(KEYS.accessToken)) || get(KEYS.isGuest) === 'true',
  hasVehicle: () => get(KEYS.isVehicle) === 'true',
  /** Spec section 2: Find Parking needs a client_id that is present and not "0". */
  hasClientId: () => {
    const c = get(KEYS.clientId);
    return c !== null && c !== '' && c !== '0';
  },
  userData(): UserData | null {
    try {
      const raw = get(KEYS.userData);
      return raw ? (JSON.parse(raw) as UserData) : null;
    } catch {
      return null;
    }
  },
  /** 'Yes, Logout' clears all browser storage; only the language choice is put back. */
  clearAll() {
    const lang = get(LANGUAGE_KEY);
    localStorage.clear();
    sessionStorage.clear();
    if (lang) localStorage.setItem(LANGUAGE_KEY, lang);
  },
};
