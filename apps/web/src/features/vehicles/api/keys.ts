import { queryKeys } from '../../../lib/query-keys.ts';

/** React Query keys of vehicles (one place); the list's is shared: the session follows it. */
export const vehicleKeys = {
  list: queryKeys.vehicles,
  models: (makeId: number | undefined) => ['vehicle-models', makeId] as const,
};
