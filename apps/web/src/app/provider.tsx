import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Outlet, useNavigate } from 'react-router';
import { Toaster } from 'sonner';
import { ApiError, setNavigator } from '../lib/api-client.ts';
import { useSession } from '../lib/session.ts';
import { connectSession } from '../lib/session-store.ts';
import { ParkingReminderBanner } from '../features/parking/components/active-sessions.tsx';
import { setToaster } from './app-shell.tsx';

/**
 * Server state (React Query) and the session in it. A client error is not retried; a dropped
 * connection once. One cache for the app's lifetime, made when the first screen that needs it
 * loads: the landing page does without (issue 9).
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
// The signed-in member lives in this cache (lib/session-store.ts), seeded from storage.
connectSession(queryClient);
setToaster(function AppToaster() {
  return <Toaster position="top-center" richColors closeButton />;
});

/** The router's layout for every screen but the landing page (app/router.tsx). */
export function Component() {
  return (
    <QueryClientProvider client={queryClient}>
      <DataShell />
    </QueryClientProvider>
  );
}

/** Registers the router with the API client (a 401 navigates); the parking reminder above the screen. */
function DataShell() {
  const navigate = useNavigate();
  const { member } = useSession();
  useEffect(() => setNavigator((to) => void navigate(to)), [navigate]);
  return (
    <>
      <ParkingReminderBanner enabled={member} />
      <Outlet />
    </>
  );
}
