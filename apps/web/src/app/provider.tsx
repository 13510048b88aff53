import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { paths } from '../config/paths.ts';
import { setNavigator } from '../lib/api-client.ts';
import { queryClient } from '../lib/query-client.ts';
import { useSession } from '../lib/session.ts';
import { loadToasts } from '../lib/toasts.tsx';
import { ParkingReminderBanner } from '../features/parking/components/active-sessions.tsx';

/**
 * The router's layout for every screen but the landing page and the sign-in screens
 * (app/router.tsx): the data layer, server state in React Query (lib/query-client.ts).
 */
export function Component() {
  return (
    <QueryClientProvider client={queryClient}>
      <DataShell />
    </QueryClientProvider>
  );
}

/**
 * The first screen a driver meets in the data layer (docs/benchmarks.md): it paints without the
 * toasts and loads them at its first toast (lib/toasts.ts), as the sign-in screens do.
 */
const PAINT_WITHOUT_TOASTS = new Set<string>([paths.homepage]);

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
