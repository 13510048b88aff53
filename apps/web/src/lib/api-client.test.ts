import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError, errorMessage, setNavigator } from './api-client.ts';
import { KEYS } from './storage.ts';

// The browser's fetch is the boundary here: these tests pin the spec's error catalogue
// (section 8) and headers (section 7) without a server.
function respond(status: number, body: unknown) {
  return vi.fn((_url: string, _init?: RequestInit) => Promise.resolve(new Response(body === undefined ? '' : JSON.stringify(body), { status })));
}

describe('errorMessage (spec section 8)', () => {
  it('words each case as the spec does', () => {
    expect(errorMessage(null, null)).toBe('Server Not Responding');
    expect(errorMessage(401, { message: 'whatever' })).toBe('Unauthorized');
    expect(errorMessage(500, { message: 'x', ErrorDetails: { message: 'Database down' } })).toBe('Database down');
    expect(errorMessage(500, null)).toBe('An unkown exception has occur. Please Contact administrator.');
    expect(errorMessage(409, { message: 'This username is already taken' })).toBe('This username is already taken');
  });
});

describe('api helpers', () => {
  const navigate = vi.fn();
  beforeEach(() => {
    setNavigator(navigate);
    navigate.mockReset();
  });
  afterEach(() => vi.unstubAllGlobals());

  it('sends the bearer token, appid, and xapikey on POST', async () => {
    localStorage.setItem(KEYS.accessToken, 'tok');
    localStorage.setItem(KEYS.userId, '42');
    const fetch = respond(200, { ok: true });
    vi.stubGlobal('fetch', fetch);
    await api.post('/api/Vehicle/Add', { a: 1 });
    const headers = (fetch.mock.calls[0]![1] as RequestInit).headers as Record<string, string>;
    expect(headers.authorization).toBe('Bearer tok');
    expect(headers.appid).toBe('parkit-web');
    expect(headers.xapikey).toBe('42');
    await api.get('/api/Vehicle/List');
    expect(((fetch.mock.calls[1]![1] as RequestInit).headers as Record<string, string>).xapikey).toBeUndefined();
  });

  it('on a 401 from POST goes to /login even without the toast, and forgets the token', async () => {
    localStorage.setItem(KEYS.accessToken, 'expired');
    // The refresh attempt fails too.
    vi.stubGlobal('fetch', respond(401, { message: 'Unauthorized' }));
    const err = await api.post('/api/Vehicle/Add', {}, { showError: false }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(401);
    expect(navigate).toHaveBeenCalledWith('/login');
    expect(localStorage.getItem(KEYS.accessToken)).toBeNull();
  });

  it('the GET helper does not redirect by itself', async () => {
    vi.stubGlobal('fetch', respond(401, { message: 'Unauthorized' }));
    await api.get('/api/Account/Details', { showError: false }).catch(() => undefined);
    expect(navigate).not.toHaveBeenCalled();
  });

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
    expect(((fetch.mock.calls[2]![1] as RequestInit).headers as Record<string, string>).authorization).toBe('Bearer new');
  });

  it('turns a network failure into Server Not Responding', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    const err = (await api.get('/api/x', { showError: false }).catch((e: unknown) => e)) as ApiError;
    expect(err.status).toBeNull();
    expect(err.message).toBe('Server Not Responding');
  });

  it('stores the access_token of the token POST', async () => {
    vi.stubGlobal('fetch', respond(200, { access_token: 'abc', member_id: 1 }));
    await api.token({ grant_type: 'password', username: 'u', password: 'p' });
    expect(localStorage.getItem(KEYS.accessToken)).toBe('abc');
  });
});
