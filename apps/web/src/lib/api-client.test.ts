import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError, errorMessage } from './api-client.ts';
import { toast } from 'sonner';
import { KEYS } from './storage.ts';
import { setLanguage } from './i18n.ts';
import { observeNavigation, respond } from '../testing/fetch.ts';

// Requests and their errors: the headers (docs/product.md#api-calls) and the error catalogue (docs/product.md#errors).
// Renewing an expired token (docs/product.md#sign-in) is api-client-refresh.test.ts.
const navigate = observeNavigation();

describe('errorMessage (docs/product.md#errors)', () => {
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

  it('sends the app’s language (not the browser’s) as Accept-Language: the server writes its texts in it', async () => {
    const fetch = respond(200, { ok: true });
    vi.stubGlobal('fetch', fetch);
    const language = () =>
      ((fetch.mock.calls.at(-1)![1] as RequestInit).headers as Record<string, string>)['accept-language'];
    await api.get('/api/Vehicle/List');
    expect(language()).toBe('en');
    await setLanguage('es');
    await api.file('/api/Parking/Sessions.csv');
    expect(language()).toBe('es');
    await setLanguage('hi');
    await api.post('/api/Account/SendOtp', { PhoneNumber: '5125550123' });
    expect(language()).toBe('hi');
    await setLanguage('en');
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

// Every status of the error catalogue (docs/product.md#errors), so that a mutation such as
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
    vi.stubGlobal(
      'fetch',
      vi.fn(() =>
        Promise.resolve(new Response('{"message":"slow down"}', { status: 429, headers: { 'retry-after': '42' } })),
      ),
    );
    const err = (await api.post('/api/x', {}, { showError: false }).catch((e: unknown) => e)) as ApiError;
    expect(err.retryAfter).toBe(42);
    vi.stubGlobal('fetch', respond(429, { message: 'slow down' }));
    expect(
      ((await api.post('/api/x', {}, { showError: false }).catch((e: unknown) => e)) as ApiError).retryAfter,
    ).toBeNull();
  });

  it('puts a field error where a form finds it', async () => {
    vi.stubGlobal('fetch', respond(400, { message: 'm', errors: [{ field: 'City', message: 'City is Required' }] }));
    const err = (await api.post('/api/x', {}, { showError: false }).catch((e: unknown) => e)) as ApiError;
    expect(err.fieldMessage('City')).toBe('City is Required');
    expect(err.fieldMessage('State')).toBeUndefined();
  });
});

describe('401 without the toast: which helpers go to /login (docs/product.md#errors)', () => {
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
    expect((upload.headers as Record<string, string>)['content-type']).toBeUndefined();
  });
});

// What a mutation run of this file found untested (the request as sent, the file and raw
// helpers, the refresh request itself, an abort).
describe('the request as the server receives it (docs/product.md#api-calls)', () => {
  const init = (f: ReturnType<typeof respond>, i = 0) => f.mock.calls[i]![1] as RequestInit;
  const sent = (f: ReturnType<typeof respond>, i = 0) => init(f, i).headers as Record<string, string>;

  it("POST sends JSON (an empty object when no data), same-origin, with the caller's headers", async () => {
    const fetch = respond(200, {});
    vi.stubGlobal('fetch', fetch);
    await api.post('/api/x', { Name: 'Riley' }, { headers: { 'idempotency-key': 'k1' } });
    await api.post('/api/y');
    expect(init(fetch).method).toBe('POST');
    expect(init(fetch).body).toBe('{"Name":"Riley"}');
    expect(init(fetch).credentials).toBe('same-origin');
    expect(sent(fetch)['content-type']).toBe('application/json');
    expect(sent(fetch)['idempotency-key']).toBe('k1');
    expect(init(fetch, 1).body).toBe('{}');
  });

  it('GET sends no body, no content-type, and no authorization without a token', async () => {
    const fetch = respond(200, {});
    vi.stubGlobal('fetch', fetch);
    await api.get('/api/x');
    expect(init(fetch).method).toBe('GET');
    expect(init(fetch).body).toBeUndefined();
    expect(sent(fetch)['content-type']).toBeUndefined();
    expect(sent(fetch).authorization).toBeUndefined();
    expect(sent(fetch).appid).toBe('parkit-web');
  });

  it('the token POST is form-encoded', async () => {
    const fetch = respond(200, { access_token: 'abc', member_id: 1 });
    vi.stubGlobal('fetch', fetch);
    await api.token({ grant_type: 'password', username: 'u@x.in', password: 'p&q' });
    expect(fetch.mock.calls[0]![0]).toBe('/token');
    expect(init(fetch).method).toBe('POST');
    expect(sent(fetch)['content-type']).toBe('application/x-www-form-urlencoded');
    expect(new URLSearchParams(init(fetch).body as string).get('password')).toBe('p&q');
    expect(init(fetch).body).toBe('grant_type=password&username=u%40x.in&password=p%26q');
  });

  it("upload and token keep the caller's options: no toast when showError is false, its signal", async () => {
    const shown = vi.spyOn(toast, 'error');
    const fetch = respond(409, { message: 'taken' });
    vi.stubGlobal('fetch', fetch);
    const { signal } = new AbortController();
    await api.upload('/api/x', 'file', new Blob(['x']), {}, { showError: false, signal }).catch(() => undefined);
    await api.token({ grant_type: 'password' }, { showError: false, signal }).catch(() => undefined);
    expect(shown).not.toHaveBeenCalled();
    expect(init(fetch, 0).signal).toBe(signal);
    expect(init(fetch, 1).signal).toBe(signal);
    shown.mockRestore();
  });

  it('a success with an empty or a non-JSON body resolves to null', async () => {
    vi.stubGlobal('fetch', respond(200, undefined));
    await expect(api.get('/api/x')).resolves.toBeNull();
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(new Response('not json', { status: 200 }))),
    );
    await expect(api.get('/api/x')).resolves.toBeNull();
  });

  it('an error with a non-JSON body is the unknown error', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(new Response('<html>Bad Gateway</html>', { status: 502 }))),
    );
    const err = (await api.get('/api/x', { showError: false }).catch((e: unknown) => e)) as ApiError;
    expect(err.status).toBe(502);
    expect(err.body).toBeNull();
    expect(err.message).toBe('An unkown exception has occur. Please Contact administrator.');
  });

  it('ApiError: its name, and no field message when the body has no field errors', () => {
    const err = new ApiError(409, { message: 'taken' }, 'taken');
    expect(err.name).toBe('ApiError');
    expect(err.fieldMessage('UserName')).toBeUndefined();
    expect(new ApiError(null, null, 'Server Not Responding').fieldMessage('UserName')).toBeUndefined();
  });
});

describe('an aborted request', () => {
  /** fetch that never answers, and rejects as a browser does when its signal aborts. */
  function hanging() {
    const fetch = vi.fn(
      (_url: string, init?: RequestInit) =>
        new Promise<Response>((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () =>
            reject(new DOMException('The operation was aborted.', 'AbortError')),
          );
        }),
    );
    vi.stubGlobal('fetch', fetch);
    return fetch;
  }

  for (const [name, call] of [
    ['get', (signal: AbortSignal) => api.get('/api/x', { signal })],
    ['post', (signal: AbortSignal) => api.post('/api/x', {}, { signal })],
    ['raw', (signal: AbortSignal) => api.raw('/api/x', { signal })],
  ] as const) {
    it(`${name}: the caller's signal reaches fetch, and the abort is rethrown as it is, with no toast`, async () => {
      const shown = vi.spyOn(toast, 'error');
      hanging();
      const ctrl = new AbortController();
      const pending = call(ctrl.signal).catch((e: unknown) => e);
      ctrl.abort();
      const err = (await pending) as Error;
      expect(err).not.toBeInstanceOf(ApiError);
      expect(err.name).toBe('AbortError');
      expect(shown).not.toHaveBeenCalled();
      expect(navigate).not.toHaveBeenCalled();
      shown.mockRestore();
    });
  }
});

describe('a file (receipt PDF, CSV export)', () => {
  it('comes back as a Blob with its bytes', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() =>
        Promise.resolve(new Response('a,b\n1,2\n', { status: 200, headers: { 'content-type': 'text/csv' } })),
      ),
    );
    const blob = await api.file('/api/History/Export');
    expect(blob).toBeInstanceOf(Blob);
    expect(await blob.text()).toBe('a,b\n1,2\n');
  });

  it('a refusal is the same ApiError as for get, and does not redirect', async () => {
    const fetch = respond(404, { message: 'Receipt not found' });
    vi.stubGlobal('fetch', fetch);
    const err = (await api.file('/api/x', { showError: false }).catch((e: unknown) => e)) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err.message).toBe('Receipt not found');
    expect((fetch.mock.calls[0]![1] as RequestInit).method).toBe('GET');
    vi.stubGlobal('fetch', respond(401, { message: 'Unauthorized' }));
    await api.file('/api/x', { showError: false }).catch(() => undefined);
    expect(navigate).not.toHaveBeenCalled();
  });
});

describe('raw (an event stream, an attachment)', () => {
  it("is a same-origin GET with the caller's headers, and hands back the Response as it is", async () => {
    localStorage.setItem(KEYS.accessToken, 'tok');
    localStorage.setItem(KEYS.userId, '42');
    const fetch = vi.fn((_url: string, _init?: RequestInit) =>
      Promise.resolve(new Response('data: 1\n\n', { status: 200 })),
    );
    vi.stubGlobal('fetch', fetch);
    const res = await api.raw('/api/stream', { headers: { accept: 'text/event-stream' } });
    expect(await res.text()).toBe('data: 1\n\n');
    const init = fetch.mock.calls[0]![1]!;
    expect(init.credentials).toBe('same-origin');
    expect(init.method ?? 'GET').toBe('GET');
    expect(init.headers).toMatchObject({
      accept: 'text/event-stream',
      authorization: 'Bearer tok',
      appid: 'parkit-web',
    });
    expect((init.headers as Record<string, string>).xapikey).toBeUndefined();
  });
});

describe('without a registered router', () => {
  it('a 401 goes to /login through the browser', async () => {
    vi.resetModules();
    const fresh = await import('./api-client.ts');
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    vi.stubGlobal('fetch', respond(401, { message: 'Unauthorized' }));
    await fresh.api.post('/api/x', {}, { showError: false }).catch(() => undefined);
    expect(assign).toHaveBeenCalledWith('/login');
  });
});

describe('a money call whose answer was lost is asked again with the same key (docs/cluster.md#a-lost-answer-asked-again)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());
  const keyOf = (f: ReturnType<typeof vi.fn>, i: number) =>
    ((f.mock.calls[i]![1] as RequestInit).headers as Record<string, string>)['idempotency-key'];

  it('a dropped connection, then a 503 with Retry-After, then the answer: three sends of one key, one result', async () => {
    const answers = [
      () => Promise.reject(new TypeError('Failed to fetch')),
      () => Promise.resolve(new Response('{}', { status: 503, headers: { 'retry-after': '3' } })),
      () => Promise.resolve(new Response('{"SessionId":7}', { status: 200 })),
    ];
    const fetch = vi.fn((_url: string, _init?: RequestInit) => answers[fetch.mock.calls.length - 1]!());
    vi.stubGlobal('fetch', fetch);
    const pending = api.post<{ SessionId: number }>(
      '/api/Parking/Start',
      { QuoteId: 1 },
      { headers: { 'idempotency-key': 'q1' } },
    );
    await vi.advanceTimersByTimeAsync(999);
    expect(fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetch).toHaveBeenCalledTimes(2);
    // The 503's Retry-After (3 s) is waited, not the next step of 2 s.
    await vi.advanceTimersByTimeAsync(2999);
    expect(fetch).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    await expect(pending).resolves.toEqual({ SessionId: 7 });
    expect(fetch).toHaveBeenCalledTimes(3);
    expect([0, 1, 2].map((i) => keyOf(fetch, i))).toEqual(['q1', 'q1', 'q1']);
    expect((fetch.mock.calls[2]![1] as RequestInit).body).toBe('{"QuoteId":1}');
  });

  it('gives up after four more attempts (about 15 s) and shows the spec’s "Server Not Responding"', async () => {
    const fetch = vi.fn((_url: string, _init?: RequestInit) => Promise.reject(new TypeError('Failed to fetch')));
    vi.stubGlobal('fetch', fetch);
    const pending = api.post('/api/Wallet/AddMoney', {}, { headers: { 'idempotency-key': 'k' } });
    const failed = expect(pending).rejects.toMatchObject({ status: null, message: 'Server Not Responding' });
    await vi.advanceTimersByTimeAsync(1000 + 2000 + 4000 + 8000);
    await failed;
    expect(fetch).toHaveBeenCalledTimes(5);
  });

  it('the last 503 is the answer when every attempt got one', async () => {
    const fetch = respond(503, { message: 'x', ErrorDetails: { message: 'Database unavailable' } });
    vi.stubGlobal('fetch', fetch);
    const pending = api.post('/api/Parking/Stop', {}, { headers: { 'idempotency-key': 'k' }, showError: false });
    const failed = expect(pending).rejects.toMatchObject({ status: 503, message: 'Database unavailable' });
    await vi.advanceTimersByTimeAsync(15_000);
    await failed;
    expect(fetch).toHaveBeenCalledTimes(5);
  });

  it('a call without a key, or an answer the app gave (409, 500), is not sent again', async () => {
    for (const [status, headers] of [
      [503, {}],
      [409, { 'idempotency-key': 'k' }],
      [500, { 'idempotency-key': 'k' }],
    ] as const) {
      const fetch = respond(status, { message: 'no' });
      vi.stubGlobal('fetch', fetch);
      await expect(api.post('/api/x', {}, { headers, showError: false })).rejects.toBeInstanceOf(ApiError);
      expect(fetch).toHaveBeenCalledTimes(1);
    }
  });

  it('an abort during the wait stops the attempts', async () => {
    const fetch = respond(502, {});
    vi.stubGlobal('fetch', fetch);
    const ctl = new AbortController();
    const pending = api.post('/api/x', {}, { headers: { 'idempotency-key': 'k' }, signal: ctl.signal });
    const aborted = expect(pending).rejects.toThrow();
    await vi.advanceTimersByTimeAsync(500);
    ctl.abort();
    await aborted;
    await vi.advanceTimersByTimeAsync(15_000);
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});
