import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import i18n, { setLanguage } from './i18n.ts';
import { queryKeys } from './query-keys.ts';
import { clearSession } from './session.ts';
import { connectSession, continueAsGuest, getSession, hasClientId, isAuthenticated, isMember, readStoredSession, updateSession, type Session } from './session-store.ts';
import { KEYS } from './storage.ts';
import { details } from '../testing/render.tsx';

const SPEC_KEYS = ['access_token', 'app_id', 'p_user_id', 'user_data', 'username', 'is_guestUser', 'is_vehicle', 'client_id'];
const stored = () => Object.fromEntries(Object.keys(localStorage).sort().map((k) => [k, localStorage.getItem(k)]));
const connect = () => {
  const client = new QueryClient();
  connectSession(client);
  return client;
};

describe('the spec\'s storage keys (section 3), letter for letter', () => {
  it('are the eight names of the spec', () => {
    expect(Object.values(KEYS).sort()).toEqual([...SPEC_KEYS].sort());
  });

  it('a signed-in member: one subscriber writes every key from the cache', () => {
    const client = connect();
    updateSession({ token: 'tok', appId: 'parkit-web', userId: '7' });
    const account = details({ VehicleCount: 2, ClientId: 3, MinBalance: '' });
    client.setQueryData(queryKeys.accountDetails, account);
    // user_data: the spec's twelve fields (section 3), MinBalance '0' when empty; nothing else.
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
    expect(again).toMatchObject({ token: 't', guest: false, clientId: '0', isVehicle: false, username: 'u', user: null });
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

describe('logout (spec section 4)', () => {
  afterEach(async () => {
    vi.unstubAllGlobals();
    await setLanguage('en');
  });

  it('clears all browser storage, the language too, and the cache', async () => {
    const client = connect();
    updateSession({ token: 't', userId: '7' });
    client.setQueryData(['anything'], 1);
    await setLanguage('hi');
    sessionStorage.setItem('draft', 'x');
    localStorage.setItem('something-else', 'y');
    clearSession();
    expect(localStorage.length).toBe(0);
    expect(sessionStorage.length).toBe(0);
    expect(client.getQueryData(['anything'])).toBeUndefined();
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
