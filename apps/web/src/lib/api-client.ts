import { SPEC_MESSAGES, type ErrorResponse, type TokenResponse } from '@parkit/contract';
import { env } from '../config/env.ts';
import { paths } from '../config/paths.ts';
import i18n from './i18n.ts';
import { endSignedInSession, getSession, updateSession } from './session-store.ts';
import { toast } from './toasts.tsx';

/**
 * The only HTTP client (the helpers of docs/product.md#api-calls, the error catalogue of docs/product.md#errors). Same origin: the
 * server serves the app, so {host} is this page's origin.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number | null,
    readonly body: Partial<ErrorResponse> | null,
    message: string,
    /** A 429's Retry-After, in seconds: when the request may be made again. */
    readonly retryAfter: number | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
  /** The message of one field in a 400/409, for forms. */
  fieldMessage(field: string): string | undefined {
    return this.body?.errors?.find((e) => e.field === field)?.message;
  }
}

export interface RequestOptions {
  /** docs/product.md#errors: show the catalogue's toast on failure (default true). */
  showError?: boolean;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

type Navigate = (to: string) => void;
let navigate: Navigate = (to) => window.location.assign(to);
/** The router registers itself so a 401 navigates without a page reload. */
export function setNavigator(fn: Navigate) {
  navigate = fn;
}

/** docs/product.md#errors, word for word; the server's own messages are translated by their text. */
export function errorMessage(status: number | null, body: Partial<ErrorResponse> | null): string {
  if (status === null) return SPEC_MESSAGES.serverNotResponding;
  if (status === 401) return SPEC_MESSAGES.unauthorized;
  if (status >= 500) return body?.ErrorDetails?.message || SPEC_MESSAGES.unknownError;
  return body?.message || SPEC_MESSAGES.unknownError;
}

/**
 * docs/product.md#api-calls: the bearer token and appid always; xapikey (the stored user id) on post and put,
 * so on `write` requests (POST and PUT).
 */
function headers(write: boolean, extra?: Record<string, string>): Record<string, string> {
  const session = getSession();
  // The app's language, not the browser's: codes, CSV headers and a member's saved language (at
  // sign-in) follow it on the server.
  const h: Record<string, string> = {
    appid: session.appId ?? env.VITE_APP_ID,
    'accept-language': i18n.language,
    ...extra,
  };
  if (session.token) h.authorization = `Bearer ${session.token}`;
  const userId = session.userId;
  if (userId && write) h.xapikey = userId;
  return h;
}

let refreshing: Promise<boolean> | null = null;
/** An expired access token is renewed once with the refresh cookie before a 401 counts. */
function refreshAccessToken(): Promise<boolean> {
  refreshing ??= fetch('/token', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=refresh_token',
    credentials: 'same-origin',
  })
    .then(async (res) => {
      if (!res.ok) return false;
      const body = (await res.json()) as TokenResponse;
      updateSession({ token: body.access_token });
      return true;
    })
    .catch(() => false)
    .finally(() => {
      refreshing = null;
    });
  return refreshing;
}

/**
 * On a definitive 401 the session is over: its token goes, so /login does not bounce back. A
 * member's session (a token was sent) is remembered as ended where the driver was.
 */
function endSession(hadToken: boolean) {
  if (hadToken) endSignedInSession(`${window.location.pathname}${window.location.search}`);
  else updateSession({ token: null });
}

/** Answers that say the request may not have been answered by the app: a proxy's, or "the database is away for now". */
const LOST_ANSWER = new Set([502, 503, 504]);
/** The waits before each new attempt when the answer names none (Retry-After wins, up to 10 s). */
export const RESEND_WAITS_MS = [1000, 2000, 4000, 8000];

function hasIdempotencyKey(h: Record<string, string> | undefined): boolean {
  return Object.keys(h ?? {}).some((k) => k.toLowerCase() === 'idempotency-key');
}

function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason as Error);
      },
      { once: true },
    );
  });
}

/**
 * A call that carries an Idempotency-Key (money) whose answer was lost (the network dropped it, or
 * 502/503/504) is sent again, the same request with the same key, so the server applies it once
 * or replays the answer of the one that did (docs/cluster.md#a-lost-answer-asked-again).
 * Up to four more attempts, about 15 s in all; null when the last one still had no answer.
 */
async function sendUntilAnswered(send: () => Promise<Response>, signal: AbortSignal | undefined) {
  for (let attempt = 0; ; attempt++) {
    let res: Response | null = null;
    try {
      res = await send();
    } catch (err) {
      if ((err as Error).name === 'AbortError') throw err;
    }
    if (res && !LOST_ANSWER.has(res.status)) return res;
    const next = RESEND_WAITS_MS[attempt];
    if (next === undefined) return res;
    const retryAfter = Number(res?.headers.get('retry-after'));
    await wait(Number.isFinite(retryAfter) && retryAfter > 0 ? Math.min(retryAfter, 10) * 1000 : next, signal);
  }
}

async function request<T>(
  method: string,
  path: string,
  body: BodyInit | undefined,
  contentType: string | undefined,
  opts: RequestOptions & { redirectOn401: boolean; retry?: boolean; blob?: boolean },
): Promise<T> {
  const showError = opts.showError ?? true;
  const send = () =>
    fetch(path, {
      method,
      body,
      signal: opts.signal,
      credentials: 'same-origin',
      headers: headers(method === 'POST' || method === 'PUT', {
        ...(contentType ? { 'content-type': contentType } : {}),
        ...opts.headers,
      }),
    });
  let res: Response | null;
  try {
    res = hasIdempotencyKey(opts.headers) ? await sendUntilAnswered(send, opts.signal) : await send();
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    res = null;
  }
  if (!res) {
    const message = errorMessage(null, null);
    if (showError) toast.error(i18n.t(message));
    throw new ApiError(null, null, message);
  }
  if (res.status === 401 && getSession().token && opts.retry !== false && path !== '/token') {
    if (await refreshAccessToken()) return request<T>(method, path, body, contentType, { ...opts, retry: false });
  }
  // A file (a receipt's PDF, the CSV export) comes back as it is.
  if (res.ok && opts.blob) return (await res.blob()) as T;
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  if (res.ok) return parsed as T;
  const errBody = (parsed && typeof parsed === 'object' ? parsed : null) as Partial<ErrorResponse> | null;
  const message = errorMessage(res.status, errBody);
  if (showError) toast.error(i18n.t(message));
  if (res.status === 401) {
    endSession(path !== '/token' && Boolean(getSession().token));
    // docs/product.md#errors: a 401 shown as an error goes to /login; post, upload and token calls go
    // there even without the toast. The GET helper does not redirect by itself. (The spec's PUT,
    // DELETE and form POST helpers are added when a screen needs one: issue 7 removed them unused.)
    if (showError || opts.redirectOn401) navigate(paths.login);
  }
  const wait = Number(res.headers.get('retry-after'));
  throw new ApiError(res.status, errBody, message, Number.isFinite(wait) && wait > 0 ? Math.ceil(wait) : null);
}

/**
 * A GET whose body is not JSON (a file, an event stream): the raw Response, after the same
 * one-time token refresh on 401. The caller reads the body and handles its status.
 */
async function raw(path: string, opts: RequestOptions = {}, retry = true): Promise<Response> {
  const res = await fetch(path, {
    signal: opts.signal,
    credentials: 'same-origin',
    headers: headers(false, opts.headers),
  });
  if (res.status === 401 && retry && getSession().token && (await refreshAccessToken())) return raw(path, opts, false);
  return res;
}

const json = (data: unknown) => JSON.stringify(data ?? {});
const form = (data: Record<string, string>) => new URLSearchParams(data).toString();

export const api = {
  raw,
  get: <T>(path: string, opts: RequestOptions = {}) =>
    request<T>('GET', path, undefined, undefined, { ...opts, redirectOn401: false }),
  /** A GET whose answer is a file (PDF, CSV): a Blob, with the same errors as get. */
  file: (path: string, opts: RequestOptions = {}) =>
    request<Blob>('GET', path, undefined, undefined, { ...opts, redirectOn401: false, blob: true }),
  post: <T>(path: string, data?: unknown, opts: RequestOptions = {}) =>
    request<T>('POST', path, json(data), 'application/json', { ...opts, redirectOn401: true }),
  /** A whole object replaced (the console's zone edit). */
  put: <T>(path: string, data?: unknown, opts: RequestOptions = {}) =>
    request<T>('PUT', path, json(data), 'application/json', { ...opts, redirectOn401: true }),
  /** One file under a key plus extra fields (multipart). */
  upload: <T>(
    path: string,
    key: string,
    file: Blob,
    fields: Record<string, string> = {},
    opts: RequestOptions = {},
  ) => {
    const fd = new FormData();
    for (const [k, v] of Object.entries(fields)) fd.append(k, v);
    fd.append(key, file);
    return request<T>('POST', path, fd, undefined, { ...opts, redirectOn401: true });
  },
  /** The form-encoded token POST; the access_token it returns is stored. */
  async token(fields: Record<string, string>, opts: RequestOptions = {}): Promise<TokenResponse> {
    const res = await request<TokenResponse>('POST', '/token', form(fields), 'application/x-www-form-urlencoded', {
      ...opts,
      redirectOn401: true,
    });
    updateSession({ token: res.access_token });
    return res;
  },
};
