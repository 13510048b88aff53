/** The spec's browser storage keys (docs/product.md#stored-data), letter for letter. */
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

/** Not a spec key: the chosen language (cleared by logout with the rest). */
export const LANGUAGE_KEY = 'language';

/**
 * The browser's storage. Only the session store (session-store.ts) writes the spec's keys;
 * screens read the session with useSession(), never this.
 */
export const storage = {
  get: (k: string) => localStorage.getItem(k),
  set: (k: string, v: string) => localStorage.setItem(k, v),
  remove: (k: string) => localStorage.removeItem(k),
  /** docs/product.md#states: 'Yes, Logout' clears all browser storage. */
  clearAll() {
    localStorage.clear();
    sessionStorage.clear();
  },
};

/**
 * Not a spec key, and for this tab only (sessionStorage): the screen a driver was on when the
 * server ended their sign-in, to return to after signing in again (session-store.ts).
 */
export const RETURN_KEY = 'return_to';
export const tabStorage = {
  get: (k: string) => sessionStorage.getItem(k),
  set: (k: string, v: string) => sessionStorage.setItem(k, v),
  remove: (k: string) => sessionStorage.removeItem(k),
};
