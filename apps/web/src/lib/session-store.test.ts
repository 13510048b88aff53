import type { AccountDetails } from '@parkit/contract';
import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import i18n, { setLanguage } from './i18n.ts';
import { queryKeys } from './query-keys.ts';
import { clearSession } from './session.ts';
import {
  connectSession,
  continueAsGuest,
  getSession,
  hasClientId,
  isAuthenticated,
  isMember,
  readStoredSession,
  replaceSession,
  sessionClient,
  sessionFromAccount,
  updateSession,
  type Session,
} from './session-store.ts';
import { KEYS } from './storage.ts';
import { details } from '../testing/render.tsx';

const SPEC_KEYS = [
  'access_token',
  'app_id',
  'p_user_id',
  'user_data',
  'username',
  'is_guestUser',
  'is_vehicle',
  'client_id',
];
const stored = () =>
  Object.fromEntries(
    Object.keys(localStorage)
      .sort()
      .map((k) => [k, localStorage.getItem(k)]),
  );
const connect = () => {
  const client = new QueryClient();
  connectSession(client);
  return client;
};

describe("the spec's storage keys (docs/product.md#stored-data), letter for letter", () => {
  it('are the eight names of the spec', () => {
    expect(Object.values(KEYS).sort()).toEqual([...SPEC_KEYS].sort());
  });

  it('a signed-in member: one subscriber writes every key from the cache', () => {
    const client = connect();
    updateSession({ token: 'tok', appId: 'parkit-web', userId: '7' });
    const account = details({ VehicleCount: 2, ClientId: 3, MinBalance: '' });
    client.setQueryData(queryKeys.accountDetails, account);
    // user_data: the spec's twelve fields (docs/product.md#stored-data), MinBalance '0' when empty; nothing else.
    const { Balance: _b, ClientId: _c, VehicleCount: _v, ...rest } = account;
    const userData = { ...rest, MinBalance: '0' };
    expect(Object.keys(userData)).toHaveLength(12);
    expect(stored()).toEqual({
      access_token: 'tok',
      app_id: 'parkit-web',
      client_id: '3',
      is_vehicle: 'true',
      p_user_id: '7',
      user_data: JSON.stringify(userData),
      username: 'riley',
    });
  });

  it('is_vehicle follows every vehicle list that lands in the cache', () => {
    const client = connect();
    client.setQueryData(queryKeys.vehicles, [{ VehicleID: 1 }]);
    expect(localStorage.getItem('is_vehicle')).toBe('true');
    client.setQueryData(queryKeys.vehicles, []);
    expect(localStorage.getItem('is_vehicle')).toBe('false');
    expect(getSession().isVehicle).toBe(false);
  });

  it("a guest: is_guestUser 'true' and app_id, nothing of a member", () => {
    connect();
    localStorage.setItem('access_token', 'left over');
    continueAsGuest();
    expect(stored()).toEqual({ app_id: 'parkit-web', is_guestUser: 'true' });
  });

  it('reads back what it wrote (a reload)', () => {
    connect();
    updateSession({ token: 't', guest: false, clientId: '0', isVehicle: false, username: 'u' });
    const again: Session = readStoredSession();
    expect(again).toMatchObject({
      token: 't',
      guest: false,
      clientId: '0',
      isVehicle: false,
      username: 'u',
      user: null,
    });
    localStorage.setItem('user_data', '{broken');
    expect(readStoredSession().user).toBeNull();
  });
});

describe('who may do what', () => {
  const s = (over: Partial<Session>): Session => ({ ...readStoredSession(), ...over });
  it('isAuthenticated: a token or the guest flag', () => {
    expect(isAuthenticated(s({ token: null, guest: false }))).toBe(false);
    expect(isAuthenticated(s({ token: 't' }))).toBe(true);
    expect(isAuthenticated(s({ guest: true }))).toBe(true);
  });
  it('isMember: a token and not a guest', () => {
    expect(isMember(s({ token: 't', guest: false }))).toBe(true);
    expect(isMember(s({ token: 't', guest: true }))).toBe(false);
    expect(isMember(s({ token: null, guest: false }))).toBe(false);
  });
  it('hasClientId: present and not "0"', () => {
    expect(hasClientId(s({ clientId: null }))).toBe(false);
    expect(hasClientId(s({ clientId: '' }))).toBe(false);
    expect(hasClientId(s({ clientId: '0' }))).toBe(false);
    expect(hasClientId(s({ clientId: '1' }))).toBe(true);
    expect(hasClientId(s({ clientId: '10' }))).toBe(true);
  });
});

describe('logout (docs/product.md#states)', () => {
  afterEach(async () => {
    vi.unstubAllGlobals();
    await setLanguage('en');
  });

  it('clears all browser storage, the language too, and the cache', async () => {
    const client = connect();
    updateSession({ token: 't', userId: '7' });
    client.setQueryData(['anything'], 1);
    client.getMutationCache().build(client, { mutationKey: ['pay'] });
    await setLanguage('hi');
    sessionStorage.setItem('draft', 'x');
    localStorage.setItem('something-else', 'y');
    clearSession();
    expect(localStorage.length).toBe(0);
    expect(sessionStorage.length).toBe(0);
    expect(client.getQueryData(['anything'])).toBeUndefined();
    expect(client.getMutationCache().getAll()).toEqual([]);
    expect(getSession().token).toBeNull();
  });

  it("then the language follows the browser's: Hindi for a Hindi browser", async () => {
    connect();
    await setLanguage('en');
    vi.stubGlobal('navigator', { ...navigator, language: 'hi-IN', languages: ['hi-IN', 'en'] });
    clearSession();
    await vi.waitFor(() => expect(i18n.language).toBe('hi'));
    expect(document.documentElement.lang).toBe('hi');
    vi.stubGlobal('navigator', { ...navigator, language: 'en-GB', languages: ['en-GB'] });
    clearSession();
    await vi.waitFor(() => expect(i18n.language).toBe('en'));
  });
});

// What a mutation run of this file found untested.
describe('reading the stored keys back', () => {
  it('nothing stored: nobody', () => {
    expect(readStoredSession()).toEqual({
      token: null,
      guest: false,
      appId: null,
      userId: null,
      user: null,
      username: null,
      isVehicle: null,
      clientId: null,
    });
  });

  it("an empty token is no token; only 'true' makes a guest; is_vehicle as written", () => {
    localStorage.setItem('access_token', '');
    localStorage.setItem('is_guestUser', 'false');
    localStorage.setItem('is_vehicle', 'false');
    expect(readStoredSession()).toMatchObject({ token: null, guest: false, isVehicle: false });
    localStorage.setItem('is_guestUser', 'TRUE');
    localStorage.setItem('is_vehicle', 'true');
    expect(readStoredSession()).toMatchObject({ guest: false, isVehicle: true });
  });

  it('user_data that is not an object is no user', () => {
    for (const raw of ['null', '42', '"riley"', 'true']) {
      localStorage.setItem('user_data', raw);
      expect(readStoredSession().user).toBeNull();
    }
    localStorage.setItem('user_data', '{"FirstName":"Riley"}');
    expect(readStoredSession().user).toEqual({ FirstName: 'Riley' });
  });
});

describe('writing the keys', () => {
  it('a value set to null or false removes its key', () => {
    connect();
    updateSession({ token: 't', guest: true, appId: 'a', userId: '7', username: 'u', isVehicle: true, clientId: '3' });
    expect(Object.keys(stored())).toHaveLength(7);
    updateSession({
      token: null,
      guest: false,
      appId: null,
      userId: null,
      username: null,
      isVehicle: null,
      clientId: null,
    });
    expect(stored()).toEqual({});
  });

  it("user_data keeps a MinBalance it has, and writes '0' for none", () => {
    const client = connect();
    client.setQueryData(queryKeys.accountDetails, details({ MinBalance: '50.00' }));
    expect(JSON.parse(localStorage.getItem('user_data')!)).toMatchObject({ MinBalance: '50.00' });
    expect(getSession().user?.MinBalance).toBe('50.00');
    client.setQueryData(queryKeys.accountDetails, details({ MinBalance: '' }));
    expect(getSession().user?.MinBalance).toBe('0');
  });

  it("a user written without a MinBalance is stored with '0'", () => {
    connect();
    updateSession({ user: { ...sessionFromAccount(details() as AccountDetails).user!, MinBalance: '' } });
    expect(JSON.parse(localStorage.getItem('user_data')!)).toMatchObject({ FirstName: 'Riley', MinBalance: '0' });
  });

  it('the account decides is_vehicle (no vehicle: false) and client_id, as strings of its numbers', () => {
    const client = connect();
    client.setQueryData(queryKeys.accountDetails, details({ VehicleCount: 0, ClientId: 0, MemberId: 12 }));
    expect(getSession()).toMatchObject({ isVehicle: false, clientId: '0', userId: '12', username: 'riley' });
    expect(localStorage.getItem('is_vehicle')).toBe('false');
    client.setQueryData(queryKeys.accountDetails, details({ VehicleCount: 1 }));
    expect(getSession().isVehicle).toBe(true);
  });

  it('without a connected cache, a change goes straight to storage over what is there', () => {
    localStorage.setItem('username', 'riley');
    updateSession({ token: 't' });
    expect(stored()).toEqual({ access_token: 't', username: 'riley' });
    expect(getSession()).toMatchObject({ token: 't', username: 'riley' });
  });

  it('after the cache was cleared, a change starts from storage', () => {
    const client = connect();
    localStorage.setItem('username', 'riley');
    client.clear();
    updateSession({ token: 't' });
    expect(getSession()).toMatchObject({ token: 't', username: 'riley' });
  });
});

describe('what the subscriber follows', () => {
  it('only the exact keys: another query under a longer or shorter key changes nothing', () => {
    const client = connect();
    client.setQueryData(['vehicles', 7], []);
    client.setQueryData(['account'], details({ VehicleCount: 3 }));
    client.setQueryData(['account', 'details', 'x'], details({ VehicleCount: 3 }));
    client.setQueryData(['details'], details({ VehicleCount: 3 }));
    client.setQueryData(['account', 'settings'], details({ VehicleCount: 3 }));
    client.setQueryData(['session', 'x'], { token: 'no' });
    expect(stored()).toEqual({});
    expect(getSession().isVehicle).toBeNull();
  });

  it('a vehicle list that is not a list is ignored', () => {
    const client = connect();
    client.setQueryData(queryKeys.vehicles, { VehicleID: 1 });
    expect(getSession().isVehicle).toBeNull();
  });

  it('a failed load changes nothing', async () => {
    const client = connect();
    updateSession({ token: 't', isVehicle: true });
    await client
      .fetchQuery({ queryKey: queryKeys.vehicles, queryFn: () => Promise.reject(new Error('down')), retry: false })
      .catch(() => undefined);
    await client
      .fetchQuery({
        queryKey: queryKeys.accountDetails,
        queryFn: () => Promise.reject(new Error('down')),
        retry: false,
      })
      .catch(() => undefined);
    expect(getSession()).toMatchObject({ token: 't', isVehicle: true });
    expect(localStorage.getItem('is_vehicle')).toBe('true');
  });

  it('a fetched list updates the session as it lands', async () => {
    const client = connect();
    await client.fetchQuery({ queryKey: queryKeys.vehicles, queryFn: () => Promise.resolve([{ VehicleID: 1 }]) });
    expect(getSession().isVehicle).toBe(true);
    expect(localStorage.getItem('is_vehicle')).toBe('true');
  });
});

describe('connecting the cache', () => {
  it('seeds the session from storage', () => {
    localStorage.setItem('access_token', 't');
    localStorage.setItem('client_id', '4');
    const client = connect();
    expect(client.getQueryData(queryKeys.session)).toMatchObject({ token: 't', clientId: '4' });
    expect(sessionClient()).toBe(client);
  });

  it('a second connection replaces the first: the old cache is no longer followed', () => {
    const first = connect();
    const second = connect();
    expect(sessionClient()).toBe(second);
    first.setQueryData(queryKeys.vehicles, [{ VehicleID: 1 }]);
    expect(localStorage.getItem('is_vehicle')).toBeNull();
    second.setQueryData(queryKeys.vehicles, [{ VehicleID: 1 }]);
    expect(localStorage.getItem('is_vehicle')).toBe('true');
  });

  it('disconnecting forgets the cache; before any, sessionClient says what is missing', () => {
    const client = connect();
    const stop = connectSession(client);
    stop();
    expect(() => sessionClient()).toThrow('connectSession(queryClient) was not called');
    client.setQueryData(queryKeys.vehicles, [{ VehicleID: 1 }]);
    expect(localStorage.getItem('is_vehicle')).toBeNull();
    localStorage.setItem('access_token', 'stored');
    expect(getSession().token).toBe('stored');
  });

  it("an old connection's disconnect does not forget the newer cache", () => {
    const stopFirst = connectSession(new QueryClient());
    const second = connect();
    stopFirst();
    expect(sessionClient()).toBe(second);
  });
});

describe('replacing the session (a sign-in)', () => {
  it('forgets everything of the one before', () => {
    connect();
    updateSession({ token: 'old', guest: true, userId: '1', username: 'u', isVehicle: true, clientId: '3' });
    replaceSession({ token: 'new' });
    expect(getSession()).toEqual({
      token: 'new',
      guest: false,
      appId: null,
      userId: null,
      user: null,
      username: null,
      isVehicle: null,
      clientId: null,
    });
    expect(stored()).toEqual({ access_token: 'new' });
  });
});
