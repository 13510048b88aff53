import type { ReactNode } from 'react';
import { ApiError } from '../../lib/api-client.ts';
import { LoadError } from './load-error.tsx';

/** What Loaded reads of a query: a react-query result (plain or infinite), or two of them joined by `both`. */
export type QueryState<T> = { isFetching: boolean; refetch: () => Promise<unknown> } & (
  | { isPending: true; isError: false }
  | { isPending: false; isError: true; error?: unknown }
  | { isPending: false; isError: false; data: T }
);

/** A screen's answer in place of its content (not found, not allowed): said once to assistive technology. */
export function Notice({ children }: { children: ReactNode }) {
  return (
    <p role="alert" className="rounded-2xl bg-white p-6 text-center text-slate-700">
      {children}
    </p>
  );
}

/**
 * A query's states, one way for every list and screen: the screen's own `skeleton` while it loads,
 * LoadError with Try again (`failed`, already translated; `compact` inside a card) when it failed,
 * else `children` given its data. A refusal that is an answer (`refused`: not found, not allowed) is
 * a Notice with no Try again; a state known before asking (no id) comes first, on the screen.
 */
export function Loaded<T>({
  query,
  skeleton,
  failed,
  refused,
  compact,
  children,
}: {
  query: QueryState<T>;
  skeleton: ReactNode;
  failed: string;
  /** The server's statuses that answer the screen, and what to say instead (already translated). */
  refused?: { status: readonly number[]; message: string };
  compact?: boolean;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return skeleton;
  if (query.isError && refused && isRefusal(query.error, refused.status)) return <Notice>{refused.message}</Notice>;
  if (query.isError)
    return (
      <LoadError compact={compact} message={failed} onRetry={() => void query.refetch()} retrying={query.isFetching} />
    );
  return children(query.data);
}

function isRefusal(error: unknown, status: readonly number[]): boolean {
  return error instanceof ApiError && error.status !== null && status.includes(error.status);
}

/** Two queries as one for Loaded: loading while either loads, failed if either failed; Try again refetches both. */
export function both<A, B>(a: QueryState<A>, b: QueryState<B>): QueryState<[A, B]> {
  const common = { isFetching: a.isFetching || b.isFetching, refetch: () => Promise.all([a.refetch(), b.refetch()]) };
  if (a.isPending || b.isPending) return { ...common, isPending: true, isError: false };
  if (a.isError) return { ...common, isPending: false, isError: true, error: a.error };
  if (b.isError) return { ...common, isPending: false, isError: true, error: b.error };
  return { ...common, isPending: false, isError: false, data: [a.data, b.data] };
}
