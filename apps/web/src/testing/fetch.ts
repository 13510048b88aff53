import { afterEach, beforeEach, vi } from 'vitest';
import { setNavigator } from '../lib/api-client.ts';

// The browser's fetch is the boundary of the API client's tests: they pin the spec's error
// catalogue (docs/product.md#errors), headers (docs/product.md#api-calls) and token refresh (docs/product.md#sign-in) without a server.

/** fetch answering every request with `status` and `body` as JSON (an empty body for undefined). */
export function respond(status: number, body: unknown) {
  return vi.fn((_url: string, _init?: RequestInit) =>
    Promise.resolve(new Response(body === undefined ? '' : JSON.stringify(body), { status })),
  );
}

/**
 * For every test of the file: the router's navigation is observed (the returned mock, reset before
 * each test), and fetch goes back to the real one after.
 */
export function observeNavigation() {
  const navigate = vi.fn();
  beforeEach(() => {
    setNavigator(navigate);
    navigate.mockReset();
  });
  afterEach(() => vi.unstubAllGlobals());
  return navigate;
}
