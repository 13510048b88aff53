import type { ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import { toast } from 'sonner';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { details, token } from '../testing/render.tsx';
import { setLanguage } from './i18n.ts';
import { queryKeys } from './query-keys.ts';
import { accountDetailsQuery, clearSession, completeSignIn, logout, useSession } from './session.ts';
import {
  connectSession,
  continueAsGuest,
  disconnectSession,
  getSession,
  sessionClient,
  updateSession,
} from './session-store.ts';
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
    const asked = serve({
      'GET /api/Account/Details': () => [200, details({ VehicleCount: 2 })],
      'GET /api/Support/Console/Me': () => [403, { message: 'Forbidden' }],
      'GET /api/Operator/Mine': () => [403, { message: 'Forbidden' }],
    });
    expect(await completeSignIn(token())).toBe('/homepage');
    expect(asked).toEqual(['GET /api/Account/Details', 'GET /api/Support/Console/Me', 'GET /api/Operator/Mine']);
    expect(getSession()).toMatchObject({ token: 'header.payload.sig', appId: 'parkit-web', userId: '7', guest: false });
    expect(localStorage.getItem(KEYS.accessToken)).toBe('header.payload.sig');
  });

  it('a member with no vehicle goes to Add Vehicles first', async () => {
    connectSession(new QueryClient());
    serve({
      'GET /api/Account/Details': () => [200, details({ VehicleCount: 0 })],
      'GET /api/Support/Console/Me': () => [403, {}],
      'GET /api/Operator/Mine': () => [403, {}],
    });
    expect(await completeSignIn(token())).toBe('/addvehicles');
  });

  it('a support agent lands on the console', async () => {
    connectSession(new QueryClient());
    serve({
      'GET /api/Account/Details': () => [200, details({ VehicleCount: 0 })],
      'GET /api/Support/Console/Me': () => [200, { AgentId: 1 }],
    });
    expect(await completeSignIn(token())).toBe('/support-console');
  });

  it("an operator's staff land on the operator's console", async () => {
    connectSession(new QueryClient());
    serve({
      'GET /api/Account/Details': () => [200, details({ VehicleCount: 0 })],
      'GET /api/Support/Console/Me': () => [403, {}],
      'GET /api/Operator/Mine': () => [200, [{ OperatorId: 1, Name: 'Austin Parking', Role: 'analyst' }]],
    });
    expect(await completeSignIn(token())).toBe('/operator');
  });

  it("on a sign-in screen (no cache yet: docs/benchmarks.md) it starts the app's cache, which keeps the member", async () => {
    disconnectSession();
    serve({
      'GET /api/Account/Details': () => [200, details({ VehicleCount: 2 })],
      'GET /api/Support/Console/Me': () => [403, {}],
      'GET /api/Operator/Mine': () => [403, {}],
    });
    expect(await completeSignIn(token())).toBe('/homepage');
    const { queryClient } = await import('./query-client.ts');
    expect(sessionClient()).toBe(queryClient);
    expect(queryClient.getQueryData(queryKeys.session)).toMatchObject({ token: 'header.payload.sig', userId: '7' });
    expect(queryClient.getQueryData(queryKeys.accountDetails)).toMatchObject({ VehicleCount: 2 });
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

// The hook every screen reads the member with, and what a mutation run found untested.
describe('useSession', () => {
  function hook() {
    const client = new QueryClient();
    connectSession(client);
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    return { client, ...renderHook(() => useSession(), { wrapper }) };
  }

  it('nobody: not authenticated, not a member, no client id', () => {
    const { result } = hook();
    expect(result.current).toMatchObject({
      token: null,
      guest: false,
      authenticated: false,
      member: false,
      hasClientId: false,
    });
  });

  it('a stored member with a client id', () => {
    localStorage.setItem(KEYS.accessToken, 't');
    localStorage.setItem(KEYS.clientId, '3');
    localStorage.setItem(KEYS.username, 'riley');
    const { result } = hook();
    expect(result.current).toMatchObject({
      token: 't',
      username: 'riley',
      clientId: '3',
      authenticated: true,
      member: true,
      hasClientId: true,
    });
  });

  it('a guest is authenticated but not a member', () => {
    localStorage.setItem(KEYS.isGuest, 'true');
    const { result } = hook();
    expect(result.current).toMatchObject({ guest: true, authenticated: true, member: false, hasClientId: false });
  });

  it('re-renders on every change of the session: an account load, a vehicle list, a logout', async () => {
    localStorage.setItem(KEYS.accessToken, 't');
    const { client, result } = hook();
    // React Query tells its observers on the next tick.
    act(() => client.setQueryData(queryKeys.accountDetails, details({ VehicleCount: 0, ClientId: 5 })));
    await waitFor(() =>
      expect(result.current).toMatchObject({ isVehicle: false, clientId: '5', hasClientId: true, member: true }),
    );
    act(() => client.setQueryData(queryKeys.vehicles, [{ VehicleID: 1 }]));
    await waitFor(() => expect(result.current.isVehicle).toBe(true));
    act(() => clearSession());
    await waitFor(
      () =>
        expect(result.current).toMatchObject({ token: null, authenticated: false, isVehicle: null, clientId: null }),
      { timeout: 1000 },
    ); // with client.clear() it kept the member
    await setLanguage('en');
  });

  it('the cache, not storage, is the truth while the app runs: a screen mounting later reads the cache', async () => {
    const { client } = hook();
    act(() => updateSession({ token: 'fresh' }));
    localStorage.setItem(KEYS.accessToken, 'written behind its back');
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    const later = renderHook(() => useSession(), { wrapper });
    await new Promise((r) => setTimeout(r, 20));
    expect(later.result.current.token).toBe('fresh');
    const query = client.getQueryCache().find({ queryKey: queryKeys.session })!;
    expect(query.gcTime).toBe(Infinity);
    expect(query.isStale()).toBe(false);
  });
});

describe('completeSignIn, the account', () => {
  it('is fetched again even when a fresh one is cached (another member may have been signed in)', async () => {
    const client = new QueryClient();
    connectSession(client);
    client.setQueryData(queryKeys.accountDetails, details({ VehicleCount: 0 }));
    const asked = serve({
      'GET /api/Account/Details': () => [200, details({ VehicleCount: 1 })],
      'GET /api/Support/Console/Me': () => [403, {}],
      'GET /api/Operator/Mine': () => [403, {}],
    });
    expect(await completeSignIn(token())).toBe('/homepage');
    expect(asked[0]).toBe('GET /api/Account/Details');
  });

  it("is fetched with the new member's token", async () => {
    connectSession(new QueryClient());
    localStorage.setItem(KEYS.accessToken, 'someone else');
    const auth: Array<string | undefined> = [];
    vi.stubGlobal('fetch', (path: string, init?: RequestInit) => {
      auth.push((init?.headers as Record<string, string>).authorization);
      return Promise.resolve(
        new Response(JSON.stringify(path === '/api/Account/Details' ? details({ VehicleCount: 1 }) : {}), {
          status: path === '/api/Account/Details' ? 200 : 403,
        }),
      );
    });
    await completeSignIn(token());
    // The account, then the agent's and the operator staff's checks.
    expect(auth).toEqual(['Bearer header.payload.sig', 'Bearer header.payload.sig', 'Bearer header.payload.sig']);
  });

  it("is React Query's to cancel: its signal reaches fetch", async () => {
    const client = new QueryClient();
    connectSession(client);
    const signals: unknown[] = [];
    vi.stubGlobal('fetch', (_path: string, init?: RequestInit) => {
      signals.push(init?.signal);
      return Promise.resolve(new Response(JSON.stringify(details()), { status: 200 }));
    });
    await client.fetchQuery(accountDetailsQuery);
    expect(signals[0]).toBeInstanceOf(AbortSignal);
  });
});

describe('logout, the request', () => {
  it('is a POST that shows no error and never sends the driver to /login by itself', async () => {
    connectSession(new QueryClient());
    localStorage.setItem(KEYS.accessToken, 't');
    const shown = vi.spyOn(toast, 'error');
    const asked = serve({
      'POST /api/Account/Logout': () => [500, { message: 'x', ErrorDetails: { message: 'down' } }],
    });
    await expect(logout()).rejects.toThrow('down');
    expect(asked).toEqual(['POST /api/Account/Logout']);
    expect(shown).not.toHaveBeenCalled();
    expect(localStorage.length).toBe(0);
  });
});
