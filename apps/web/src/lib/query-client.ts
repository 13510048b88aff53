import { onlineManager, QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client.ts';
import { isOnline, subscribeOnline } from './online.ts';
import { persistQueries } from './persist.ts';
import { connectSession } from './session-store.ts';

/**
 * Server state (React Query) and the session in it. A client error is not retried; a dropped
 * connection once. One cache for the app's lifetime, made when this module first loads: with the
 * data layer's screens (app/provider.tsx), or at a sign-in's answer (lib/session.ts,
 * `completeSignIn`): the landing page and the sign-in screens paint without it
 * (docs/benchmarks.md).
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      retry: (count, err) => !(err instanceof ApiError && err.status !== null) && count < 1,
    },
    mutations: { retry: false },
  },
});
// Offline, queries and mutations wait (a screen says so, components/ui/skeleton.tsx) and run when
// the connection is back. React Query assumes a connection until an event says otherwise: a page
// opened offline starts offline here (lib/online.ts is the one signal).
onlineManager.setEventListener((setOnline) => {
  setOnline(isOnline());
  return subscribeOnline(() => setOnline(isOnline()));
});
// The signed-in member lives in this cache (lib/session-store.ts), seeded from storage.
connectSession(queryClient);
// What a driver opens with no connection: kept per member, put back here (lib/persist.ts).
persistQueries(queryClient);
