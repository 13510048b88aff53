import { describe, expect, it, vi } from 'vitest';
import { api, type ApiError } from './api-client.ts';
import { KEYS } from './storage.ts';
import { observeNavigation } from '../testing/fetch.ts';

// Renewing an expired access token with the refresh cookie (docs/product.md#sign-in): once for requests
// that fail together, never twice for one request, and the session ends when it is refused.
const navigate = observeNavigation();

/** A server: `/token` answers `refresh`, everything else `answer(token)`. */
function server(refresh: () => Response | Promise<Response>, answer: (auth: string | undefined) => Response) {
  const fetch = vi.fn((url: string, init?: RequestInit) => {
    if (url === '/token') return Promise.resolve(refresh());
    return Promise.resolve(answer((init?.headers as Record<string, string>).authorization));
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}
const unauthorized = () => new Response('{"message":"Unauthorized"}', { status: 401 });
const ok = (body: unknown) => new Response(JSON.stringify(body), { status: 200 });
const paths = (f: ReturnType<typeof server>) => f.mock.calls.map((c) => c[0]);
const renewed = () => ok({ access_token: 'new' });

describe('refreshing the access token: once, and only once', () => {
  it('renews an expired access token once with the refresh cookie and retries', async () => {
    localStorage.setItem(KEYS.accessToken, 'old');
    const fetch = vi
      .fn()
      .mockResolvedValueOnce(new Response('{"message":"Unauthorized"}', { status: 401 }))
      .mockResolvedValueOnce(new Response(JSON.stringify({ access_token: 'new' }), { status: 200 }))
      .mockResolvedValueOnce(new Response('{"Balance":1}', { status: 200 }));
    vi.stubGlobal('fetch', fetch);
    await expect(api.get('/api/Account/Details')).resolves.toEqual({ Balance: 1 });
    expect(localStorage.getItem(KEYS.accessToken)).toBe('new');
    expect(((fetch.mock.calls[2]![1] as RequestInit).headers as Record<string, string>).authorization).toBe(
      'Bearer new',
    );
  });

  it('requests that fail together share one refresh', async () => {
    localStorage.setItem(KEYS.accessToken, 'old');
    const fetch = server(
      () => ok({ access_token: 'new' }),
      (auth) => (auth === 'Bearer new' ? ok({ ok: true }) : unauthorized()),
    );
    await expect(Promise.all([api.get('/api/a'), api.get('/api/b'), api.post('/api/c', {})])).resolves.toHaveLength(3);
    expect(paths(fetch).filter((p) => p === '/token')).toHaveLength(1);
    expect(fetch).toHaveBeenCalledTimes(7);
  });

  it('a retry that is refused again is not refreshed again: the session ends', async () => {
    localStorage.setItem(KEYS.accessToken, 'old');
    const fetch = server(() => ok({ access_token: 'new' }), unauthorized);
    const err = (await api.post('/api/x', {}, { showError: false }).catch((e: unknown) => e)) as ApiError;
    expect(err.status).toBe(401);
    expect(paths(fetch)).toEqual(['/api/x', '/token', '/api/x']);
    expect(localStorage.getItem(KEYS.accessToken)).toBeNull();
    expect(navigate).toHaveBeenCalledWith('/login');
  });

  it('a refused refresh ends the session without retrying', async () => {
    localStorage.setItem(KEYS.accessToken, 'old');
    const fetch = server(unauthorized, unauthorized);
    await api.post('/api/x', {}, { showError: false }).catch(() => undefined);
    expect(paths(fetch)).toEqual(['/api/x', '/token']);
    expect(localStorage.getItem(KEYS.accessToken)).toBeNull();
    expect(navigate).toHaveBeenCalledWith('/login');
  });

  it('a refresh that gets no answer ends the session too', async () => {
    localStorage.setItem(KEYS.accessToken, 'old');
    const fetch = vi.fn((url: string) =>
      url === '/token' ? Promise.reject(new TypeError('offline')) : Promise.resolve(unauthorized()),
    );
    vi.stubGlobal('fetch', fetch);
    const err = (await api.get('/api/x', { showError: false }).catch((e: unknown) => e)) as ApiError;
    expect(err.status).toBe(401);
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(localStorage.getItem(KEYS.accessToken)).toBeNull();
  });

  it('without a token (a guest) nothing is refreshed', async () => {
    const fetch = server(() => ok({ access_token: 'new' }), unauthorized);
    await api.get('/api/x', { showError: false }).catch(() => undefined);
    expect(paths(fetch)).toEqual(['/api/x']);
  });

  it('a 401 of the token POST itself is not refreshed', async () => {
    localStorage.setItem(KEYS.accessToken, 'old');
    const fetch = server(unauthorized, unauthorized);
    await api
      .token({ grant_type: 'password', username: 'u', password: 'wrong' }, { showError: false })
      .catch(() => undefined);
    expect(paths(fetch)).toEqual(['/token']);
  });

  it('other refusals are not refreshed', async () => {
    localStorage.setItem(KEYS.accessToken, 'old');
    const fetch = server(
      () => ok({ access_token: 'new' }),
      () => new Response('{"message":"Forbidden"}', { status: 403 }),
    );
    await api.get('/api/x', { showError: false }).catch(() => undefined);
    expect(paths(fetch)).toEqual(['/api/x']);
    expect(localStorage.getItem(KEYS.accessToken)).toBe('old');
  });
});

describe('raw (an event stream, an attachment): an expired token', () => {
  it('renews an expired token once and retries with the new one', async () => {
    localStorage.setItem(KEYS.accessToken, 'old');
    const fetch = server(renewed, (auth) => (auth === 'Bearer new' ? new Response('ok') : unauthorized()));
    const res = await api.raw('/api/a');
    expect(res.status).toBe(200);
    expect(fetch.mock.calls.map((c) => c[0])).toEqual(['/api/a', '/token', '/api/a']);
  });

  it('a retry refused again is handed back, not refreshed again', async () => {
    localStorage.setItem(KEYS.accessToken, 'old');
    const fetch = server(renewed, unauthorized);
    expect((await api.raw('/api/a')).status).toBe(401);
    expect(fetch.mock.calls.map((c) => c[0])).toEqual(['/api/a', '/token', '/api/a']);
  });

  it('a refused refresh hands back the 401 without a retry', async () => {
    localStorage.setItem(KEYS.accessToken, 'old');
    const fetch = server(unauthorized, unauthorized);
    expect((await api.raw('/api/a')).status).toBe(401);
    expect(fetch.mock.calls.map((c) => c[0])).toEqual(['/api/a', '/token']);
  });

  it('no token, or another status: no refresh', async () => {
    const fetch = server(renewed, unauthorized);
    expect((await api.raw('/api/a')).status).toBe(401);
    expect(fetch.mock.calls.map((c) => c[0])).toEqual(['/api/a']);
    localStorage.setItem(KEYS.accessToken, 'old');
    const refused = server(renewed, () => new Response('', { status: 403 }));
    expect((await api.raw('/api/b')).status).toBe(403);
    expect(refused.mock.calls.map((c) => c[0])).toEqual(['/api/b']);
  });
});

describe('the refresh request (docs/product.md#sign-in: the refresh cookie)', () => {
  it('is a form-encoded POST /token with grant_type=refresh_token and the cookie', async () => {
    localStorage.setItem(KEYS.accessToken, 'old');
    const fetch = vi.fn((url: string, _init?: RequestInit) =>
      Promise.resolve(
        url === '/token'
          ? new Response('{"message":"Unauthorized"}', { status: 401 })
          : new Response('{}', { status: 401 }),
      ),
    );
    vi.stubGlobal('fetch', fetch);
    await api.get('/api/x', { showError: false }).catch(() => undefined);
    const [url, init] = fetch.mock.calls[1]!;
    expect(url).toBe('/token');
    expect(init!.method).toBe('POST');
    expect(init!.body).toBe('grant_type=refresh_token');
    expect(init!.credentials).toBe('same-origin');
    expect(init!.headers).toEqual({ 'content-type': 'application/x-www-form-urlencoded' });
  });
});
