import type { ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { LoadError } from './load-error.tsx';

/**
 * A query's states, one way for every list and screen: `skeleton` while it loads, LoadError with
 * Try again (`failed`, already translated) when it failed, else `children` given its data.
 */
export function Loaded<T>({ query, skeleton, failed, children }: { query: UseQueryResult<T>; skeleton: ReactNode; failed: string; children: (data: T) => ReactNode }) {
  if (query.isPending) return skeleton;
  if (query.isError) return <LoadError message={failed} onRetry={() => void query.refetch()} retrying={query.isFetching} />;
  return children(query.data);
}
