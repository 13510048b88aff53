import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError, errorMessage, setNavigator } from './api-client.ts';
import { toast } from 'sonner';
import { KEYS } from './storage.ts';

// The browser's fetch is the boundary here: these tests pin the spec's error catalogue
// (section 8) and headers (section 7) without a server.
function respond(status: number, body: unknown) {
  return vi.fn((_url: string, _init?: RequestInit) => Promise.resolve(new Response(body === undefined ? '' : JSON.stringify(body), { status })));
}

// Every test: the router's navigation is observed, and fetch goes back to the real one after.
const navigate = vi.fn();
beforeEach(() => {
  setNavigator(navigate);
  navigate.mockReset();
});
afterEach(() => vi.unstubAllGlobals());

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

// Issue 7: every status of the error catalogue (spec section 8), so that a mutation such as
// `status === 401` -> `true` (every error would sign the driver out) fails a test.
describe('the error catalogue, status by status', () => {
  let shown: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    shown = vi.spyOn(toast, 'error');
    shown.mockClear();
  });
  afterEach(() => shown.mockRestore());

  const cases: Array<[status: number, body: unknown, message: string]> = [
    [400, { message: 'Please correct the highlighted fields', errors: [] }, 'Please correct the highlighted fields'],
    [403, { message: 'Forbidden' }, 'Forbidden'],
    [404, { message: 'Not found' }, 'Not found'],
    [409, { message: 'This username is already taken' }, 'This username is already taken'],
    [422, { message: 'Idempotency-Key reused' }, 'Idempotency-Key reused'],
    [429, { message: 'Too many attempts. Please try again later.' }, 'Too many attempts. Please try again later.'],
    [400, null, 'An unkown exception has occur. Please Contact administrator.'],
    [500, { message: 'Internal', ErrorDetails: { message: 'Database down' } }, 'Database down'],
    [500, { message: 'Internal' }, 'An unkown exception has occur. Please Contact administrator.'],
    [503, { message: 'x', ErrorDetails: { message: 'Maintenance' } }, 'Maintenance'],
  ];

  for (const [status, body, message] of cases) {
    it(`${status} ${JSON.stringify(body)}: toasts "${message}", keeps the session, stays on the page`, async () => {
      localStorage.setItem(KEYS.accessToken, 'tok');
      vi.stubGlobal('fetch', respond(status, body ?? undefined));
      const err = (await api.post('/api/x', {}).catch((e: unknown) => e)) as ApiError;
      expect(err).toBeInstanceOf(ApiError);
      expect(err.status).toBe(status);
      expect(err.message).toBe(message);
      expect(shown).toHaveBeenCalledWith(message);
      expect(navigate).not.toHaveBeenCalled();
      expect(localStorage.getItem(KEYS.accessToken)).toBe('tok');
    });
  }

  it("401 with the toast: 'Unauthorized', the token goes, and /login", async () => {
    vi.stubGlobal('fetch', respond(401, { message: 'Token expired' }));
    const err = (await api.get('/api/x').catch((e: unknown) => e)) as ApiError;
    expect(err.status).toBe(401);
    expect(err.message).toBe('Unauthorized');
    expect(shown).toHaveBeenCalledWith('Unauthorized');
    expect(navigate).toHaveBeenCalledWith('/login');
  });

  it('no toast when the caller shows the error itself', async () => {
    vi.stubGlobal('fetch', respond(409, { message: 'taken' }));
    await api.post('/api/x', {}, { showError: false }).catch(() => undefined);
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    await api.get('/api/x', { showError: false }).catch(() => undefined);
    expect(shown).not.toHaveBeenCalled();
  });

  it("no answer: 'Server Not Responding' as a toast", async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    await api.get('/api/x').catch(() => undefined);
    expect(shown).toHaveBeenCalledWith('Server Not Responding');
  });

  it('an aborted request is neither a toast nor an ApiError', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new DOMException('aborted', 'AbortError')));
    const err = await api.get('/api/x').catch((e: unknown) => e);
    expect((err as Error).name).toBe('AbortError');
    expect(shown).not.toHaveBeenCalled();
  });

  it('a 429 carries its Retry-After in seconds', async () => {
    vi.stubGlobal('fetch', vi.fn(() => Promise.resolve(new Response('{"message":"slow down"}', { status: 429, headers: { 'retry-after': '42' } }))));
    const err = (await api.post('/api/x', {}, { showError: false }).catch((e: unknown) => e)) as ApiError;
    expect(err.retryAfter).toBe(42);
    vi.stubGlobal('fetch', respond(429, { message: 'slow down' }));
    expect(((await api.post('/api/x', {}, { showError: false }).catch((e: unknown) => e)) as ApiError).retryAfter).toBeNull();
  });

  it('puts a field error where a form finds it', async () => {
    vi.stubGlobal('fetch', respond(400, { message: 'm', errors: [{ field: 'City', message: 'City is Required' }] }));
    const err = (await api.post('/api/x', {}, { showError: false }).catch((e: unknown) => e)) as ApiError;
    expect(err.fieldMessage('City')).toBe('City is Required');
    expect(err.fieldMessage('State')).toBeUndefined();
  });
});

describe('401 without the toast: which helpers go to /login (spec section 8)', () => {

  const calls: Array<[name: string, call: () => Promise<unknown>, redirects: boolean]> = [
    ['get', () => api.get('/api/x', { showError: false }), false],
    ['post', () => api.post('/api/x', {}, { showError: false }), true],
    ['upload', () => api.upload('/api/x', 'file', new Blob(['x']), {}, { showError: false }), true],
    ['token', () => api.token({ grant_type: 'password', username: 'u', password: 'p' }, { showError: false }), true],
  ];
  for (const [name, call, redirects] of calls) {
    it(`${name} ${redirects ? 'goes' : 'does not go'} to /login`, async () => {
      vi.stubGlobal('fetch', respond(401, { message: 'Unauthorized' }));
      await call().catch(() => undefined);
      if (redirects) expect(navigate).toHaveBeenCalledWith('/login');
      else expect(navigate).not.toHaveBeenCalled();
    });
  }

  it('sends xapikey on POST (upload too), never on GET', async () => {
    localStorage.setItem(KEYS.userId, '42');
    const fetch = respond(200, {});
    vi.stubGlobal('fetch', fetch);
    await api.get('/api/x');
    await api.upload('/api/x', 'file', new Blob(['x']), { Kind: 'photo' });
    const keys = fetch.mock.calls.map((c) => ((c[1] as RequestInit).headers as Record<string, string>).xapikey);
    expect(keys).toEqual([undefined, '42']);
    const upload = fetch.mock.calls[1]![1] as RequestInit;
    expect(upload.body).toBeInstanceOf(FormData);
    expect((upload.body as FormData).get('Kind')).toBe('photo');
    expect(((upload.headers as Record<string, string>)['content-type'])).toBeUndefined();
  });
});

describe('refreshing the access token: once, and only once', () => {

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
    const fetch = vi.fn((url: string) => (url === '/token' ? Promise.reject(new TypeError('offline')) : Promise.resolve(unauthorized())));
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
    await api.token({ grant_type: 'password', username: 'u', password: 'wrong' }, { showError: false }).catch(() => undefined);
    expect(paths(fetch)).toEqual(['/token']);
  });

  it('other refusals are not refreshed', async () => {
    localStorage.setItem(KEYS.accessToken, 'old');
    const fetch = server(() => ok({ access_token: 'new' }), () => new Response('{"message":"Forbidden"}', { status: 403 }));
    await api.get('/api/x', { showError: false }).catch(() => undefined);
    expect(paths(fetch)).toEqual(['/api/x']);
    expect(localStorage.getItem(KEYS.accessToken)).toBe('old');
  });
});
