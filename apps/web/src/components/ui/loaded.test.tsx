import { cleanup, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/api-client.ts';
import { both, Loaded, type QueryState } from './loaded.tsx';

const pending = (): QueryState<number> => ({
  isPending: true,
  isError: false,
  isFetching: true,
  refetch: vi.fn(() => Promise.resolve()),
});
const failed = (): QueryState<number> => ({
  isPending: false,
  isError: true,
  isFetching: false,
  refetch: vi.fn(() => Promise.resolve()),
});
const done = (data: number): QueryState<number> => ({
  isPending: false,
  isError: false,
  data,
  isFetching: false,
  refetch: vi.fn(() => Promise.resolve()),
});

describe('both', () => {
  it('loads while either query loads, even when the other failed', () => {
    expect(both(pending(), failed()).isPending).toBe(true);
    expect(both(done(1), pending()).isPending).toBe(true);
  });

  it('fails when either failed and none loads', () => {
    const s = both(done(1), failed());
    expect([s.isPending, s.isError]).toEqual([false, true]);
    expect(both(failed(), done(2)).isError).toBe(true);
  });

  it('gives both data when both have loaded', () => {
    const s = both(done(1), done(2));
    expect(s.isPending || s.isError ? null : s.data).toEqual([1, 2]);
  });

  it('retries both queries and is fetching while either is', async () => {
    const a = failed();
    const b = { ...done(2), isFetching: true };
    const s = both(a, b);
    expect(s.isFetching).toBe(true);
    await s.refetch();
    expect(a.refetch).toHaveBeenCalledOnce();
    expect(b.refetch).toHaveBeenCalledOnce();
  });
});

describe('Loaded', () => {
  const refusal = (status: number): QueryState<number> => ({
    ...failed(),
    isPending: false,
    isError: true,
    error: new ApiError(status, null, 'No'),
  });
  const shown = (query: QueryState<number>) =>
    render(
      <Loaded
        query={query}
        skeleton="loading"
        failed="Could not load"
        refused={{ status: [403, 404], message: 'Not yours' }}
      >
        {(n) => `got ${n}`}
      </Loaded>,
    );

  it('says a refusal that answers the screen, with no Try again; any other failure can be tried again', () => {
    shown(refusal(404));
    expect(screen.getByRole('alert').textContent).toBe('Not yours');
    expect(screen.queryByRole('button')).toBeNull();
    cleanup();
    shown(refusal(500));
    expect(screen.getByRole('alert').textContent).toContain('Could not load');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
    cleanup();
    shown(done(7));
    expect(screen.getByText('got 7')).toBeTruthy();
  });

  it('joins two queries: the refusal of either', () => {
    const s = both(done(1), refusal(403));
    expect(s.isError && s.error instanceof ApiError && s.error.status).toBe(403);
  });
});
