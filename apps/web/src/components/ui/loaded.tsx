import type { ReactNode } from 'react';
import { LoadError } from './load-error.tsx';

/** What Loaded reads of a query: a react-query result (plain or infinite), or two of them joined by `both`. */
export type QueryState<T> = { isFetching: boolean; refetch: () => Promise<unknown> } & (
  | { isPending: true; isError: false }
  | { isPending: false; isError: true }
  | { isPending: false; isError: false; data: T }
);

/**
 * A query's states, one way for every list and screen: the screen's own `skeleton` while it loads,
 * LoadError with Try again (`failed`, already translated; `compact` inside a card) when it failed,
 * else `children` given its data. A screen's other states (no id, not found, not allowed) come first.
 */
export function Loaded<T>({
  query,
  skeleton,
  failed,
  compact,
  children,
}: {
  query: QueryState<T>;
  skeleton: ReactNode;
  failed: string;
  compact?: boolean;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return skeleton;
  if (query.isError) return <LoadError compact={compact} message={failed} onRetry={() => void query.refetch()} retrying={query.isFetching} />;
  return children(query.data);
}

/** Two queries as one for Loaded: loading while either loads, failed if either failed; Try again refetches both. */
export function both<A, B>(a: QueryState<A>, b: QueryState<B>): QueryState<[A, B]> {
  const common = { isFetching: a.isFetching || b.isFetching, refetch: () => Promise.all([a.refetch(), b.refetch()]) };
  if (a.isPending || b.isPending) return { ...common, isPending: true, isError: false };
  if (a.isError || b.isError) return { ...common, isPending: false, isError: true };
  return { ...common, isPending: false, isError: false, data: [a.data, b.data] };
}
