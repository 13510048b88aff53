import { QueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { details, token } from '../testing/render.tsx';
import { completeSignIn, logout } from './session.ts';
import { connectSession, continueAsGuest, getSession } from './session-store.ts';
import { KEYS } from './storage.ts';

type Routes = Record<string, () => [number, unknown]>;
/** fetch answered from a table; what was asked, in order. */
function serve(routes: Routes) {
  const asked: string[] = [];
  vi.stubGlobal('fetch', (path: string, init?: RequestInit) => {
    const key = `${init?.method ?? 'GET'} ${path}`;
    asked.push(key);
    const route = routes[key];
    if (!route) return Promise.reject(new TypeError(`unexpected ${key}`));
    const [status, body] = route();
    return Promise.resolve(new Response(JSON.stringify(body), { status }));
  });
  return asked;
}

afterEach(() => vi.unstubAllGlobals());

describe('after a sign-in: the session, then where to go', () => {
  it('a member with a vehicle goes home; the session holds the token, the app id and the member id', async () => {
    connectSession(new QueryClient());
    const asked = serve({ 'GET /api/Account/Details': () => [200, details({ VehicleCount: 2 })], 'GET /api/Support/Console/Me': () => [403, { message: 'Forbidden' }] });
    expect(await completeSignIn(token())).toBe('/homepage');
    expect(asked).toEqual(['GET /api/Account/Details', 'GET /api/Support/Console/Me']);
    expect(getSession()).toMatchObject({ token: 'header.payload.sig', appId: 'parkit-web', userId: '7', guest: false });
    expect(localStorage.getItem(KEYS.accessToken)).toBe('header.payload.sig');
  });

  it('a member with no vehicle goes to Add Vehicles first', async () => {
    connectSession(new QueryClient());
    serve({ 'GET /api/Account/Details': () => [200, details({ VehicleCount: 0 })], 'GET /api/Support/Console/Me': () => [403, {}] });
    expect(await completeSignIn(token())).toBe('/addvehicles');
  });

  it('a support agent lands on the console', async () => {
    connectSession(new QueryClient());
    serve({ 'GET /api/Account/Details': () => [200, details({ VehicleCount: 0 })], 'GET /api/Support/Console/Me': () => [200, { AgentId: 1 }] });
    expect(await completeSignIn(token())).toBe('/support-console');
  });
});

describe('continue as guest', () => {
  it('sets the guest flag and the app id, nothing of a member, and goes home', () => {
    connectSession(new QueryClient());
    expect(continueAsGuest()).toBe('/homepage');
    expect(getSession()).toMatchObject({ guest: true, appId: 'parkit-web', token: null });
    expect(localStorage.getItem(KEYS.isGuest)).toBe('true');
  });
});

describe('logout', () => {
  it('asks the server to revoke the refresh token, then forgets everything', async () => {
    connectSession(new QueryClient());
    localStorage.setItem(KEYS.accessToken, 't');
    const asked = serve({ 'POST /api/Account/Logout': () => [200, {}] });
    await logout();
    expect(asked).toEqual(['POST /api/Account/Logout']);
    expect(localStorage.length).toBe(0);
    expect(getSession().token).toBeNull();
  });

  it('forgets everything even when the server cannot be reached', async () => {
    connectSession(new QueryClient());
    localStorage.setItem(KEYS.accessToken, 't');
    const shown = vi.spyOn(toast, 'error');
    serve({});
    await expect(logout()).rejects.toThrow();
    expect(localStorage.length).toBe(0);
    expect(shown).not.toHaveBeenCalled(); // no 'Server Not Responding' on the way out
  });
});
