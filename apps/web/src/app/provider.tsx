import { onlineManager, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { paths } from '../config/paths.ts';
import { ApiError, setNavigator } from '../lib/api-client.ts';
import { useSession } from '../lib/session.ts';
import { connectSession } from '../lib/session-store.ts';
import { loadToasts } from '../lib/toasts.tsx';
import { isOnline, subscribeOnline } from '../lib/online.ts';
import { persistQueries } from '../lib/persist.ts';
import { ParkingReminderBanner } from '../features/parking/components/active-sessions.tsx';

/**
 * Server state (React Query) and the session in it. A client error is not retried; a dropped
 * connection once. One cache for the app's lifetime, made when the first screen that needs it
 * loads: the landing page does without.
 */
const queryClient = new QueryClient({
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

/** The router's layout for every screen but the landing page (app/router.tsx). */
export function Component() {
  return (
    <QueryClientProvider client={queryClient}>
      <DataShell />
    </QueryClientProvider>
  );
}

/**
 * The first screens a driver meets (docs/benchmarks.md): they paint without the toasts and load
 * them at their first toast (lib/toasts.ts).
 */
const PAINT_WITHOUT_TOASTS = new Set<string>([paths.homepage, paths.login, paths.register, paths.otp]);

/**
 * Registers the router with the API client (a 401 navigates); the parking reminder above the
 * screen. Every other screen loads the toasts as it opens (its forms and actions toast).
 */
function DataShell() {
  const navigate = useNavigate();
  const { member } = useSession();
  const first = PAINT_WITHOUT_TOASTS.has(useLocation().pathname);
  useEffect(() => setNavigator((to) => void navigate(to)), [navigate]);
  useEffect(() => {
    if (!first) loadToasts().catch(() => {}); // offline: the next toast tries again
  }, [first]);
  return (
    <>
      <ParkingReminderBanner enabled={member} />
      <Outlet />
    </>
  );
}
