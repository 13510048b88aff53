import type { ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import { toast } from 'sonner';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { REFERENCE_STALE_MS, referenceQueryOptions } from './reference-query.ts';
import { statesQueryOptions, useStates } from './states-query.ts';
import { isSupportAgent } from './support-agent.ts';

function answer(status: number, body: unknown) {
  const fetch = vi.fn((_path: string, _init?: RequestInit) =>
    Promise.resolve(new Response(JSON.stringify(body), { status })),
  );
  vi.stubGlobal('fetch', fetch);
  return fetch;
}
afterEach(() => vi.unstubAllGlobals());

const run = <T,>(o: { queryFn?: unknown }) =>
  (o.queryFn as (c: { signal: AbortSignal }) => Promise<T>)({ signal: new AbortController().signal });

describe('reference lists', () => {
  it('are kept an hour, under their own key, and fetched from their path', async () => {
    expect(REFERENCE_STALE_MS).toBe(3_600_000);
    const o = referenceQueryOptions<string[]>('vehicle-colors', '/api/Vehicle/Colors');
    expect(o.queryKey).toEqual(['vehicle-colors']);
    expect(o.staleTime).toBe(3_600_000);
    expect('retry' in o).toBe(false);
    const fetch = answer(200, ['Blue']);
    expect(await run(o)).toEqual(['Blue']);
    expect(fetch.mock.calls[0]![0]).toBe('/api/Vehicle/Colors');
  });

  it('a failure is not shown (the form works without the list); states are not retried', async () => {
    const shown = vi.spyOn(toast, 'error');
    const o = statesQueryOptions();
    expect(o.queryKey).toEqual(['core-states']);
    expect(o.retry).toBe(false);
    const fetch = answer(500, { message: 'down' });
    await expect(run(o)).rejects.toThrow();
    expect(fetch.mock.calls[0]![0]).toBe('/api/Core/States');
    expect(shown).not.toHaveBeenCalled();
  });
});

describe('isSupportAgent', () => {
  it("asks the console's Me: 200 is an agent, 403 is not, and a refusal shows nothing", async () => {
    const shown = vi.spyOn(toast, 'error');
    const fetch = answer(200, { AgentId: 1 });
    expect(await isSupportAgent()).toBe(true);
    expect(fetch.mock.calls[0]![0]).toBe('/api/Support/Console/Me');
    answer(403, { message: 'Forbidden' });
    expect(await isSupportAgent()).toBe(false);
    expect(shown).not.toHaveBeenCalled();
  });
});

// The hook the address forms use.
describe('useStates (GET /api/Core/States)', () => {
  function hook() {
    const client = new QueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    return renderHook(() => useStates(), { wrapper });
  }

  it('gives the two-letter codes', async () => {
    const fetch = vi.fn((_path: string, _init?: RequestInit) =>
      Promise.resolve(new Response('["CA","NY"]', { status: 200 })),
    );
    vi.stubGlobal('fetch', fetch);
    const { result } = hook();
    await waitFor(() => expect(result.current.data).toEqual(['CA', 'NY']));
    expect(fetch.mock.calls[0]![0]).toBe('/api/Core/States');
    expect(fetch.mock.calls[0]![1]!.signal).toBeInstanceOf(AbortSignal);
  });

  it('a failure is asked once, not retried', async () => {
    const fetch = vi.fn(() => Promise.resolve(new Response('{"message":"down"}', { status: 500 })));
    vi.stubGlobal('fetch', fetch);
    const { result } = hook();
    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});
