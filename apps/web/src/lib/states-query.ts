import { useQuery } from '@tanstack/react-query';
import { referenceQueryOptions } from './reference-query.ts';

/** GET /api/Core/States: two-letter codes; a failure is ignored silently (docs/product.md#api-calls). */
export const statesQueryOptions = () =>
  referenceQueryOptions<string[]>('core-states', '/api/Core/States', { retry: false });

export const useStates = () => useQuery(statesQueryOptions());
