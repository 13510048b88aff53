import { queryOptions } from '@tanstack/react-query';
import { api } from './api-client.ts';

/** Reference data: it changes with a migration, not during a visit. */
export const REFERENCE_STALE_MS = 60 * 60 * 1000;

/**
 * A reference list (states, vehicle makes, colors): GET `path`, kept for an hour; a failure is
 * not shown (docs/product.md#api-calls: the form still works without it).
 */
export const referenceQueryOptions = <T>(key: string, path: string, opts: { retry?: false } = {}) =>
  queryOptions({
    queryKey: [key],
    queryFn: ({ signal }) => api.get<T>(path, { showError: false, signal }),
    staleTime: REFERENCE_STALE_MS,
    ...opts,
  });
