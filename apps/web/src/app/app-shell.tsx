import { useEffect } from 'react';
import { Outlet, useNavigate, useNavigation } from 'react-router';
import { Toaster } from 'sonner';
import { setNavigator } from '../lib/api-client.ts';
import { useSession } from '../lib/session.ts';
import { ParkingReminderBanner } from '../features/parking/components/active-sessions.tsx';

/** The phone-sized frame every screen sits in; registers the router with the API client. */
export function AppShell() {
  const navigate = useNavigate();
  const navigation = useNavigation();
  const { member } = useSession();
  useEffect(() => setNavigator((to) => void navigate(to)), [navigate]);
  return (
    <div className="mx-auto flex min-h-dvh w-full max-w-md flex-col bg-white shadow-sm">
      {navigation.state === 'loading' && <div className="fixed top-0 left-0 z-50 h-0.5 w-full animate-pulse bg-brand-500" aria-hidden />}
      <ParkingReminderBanner enabled={member} />
      <Outlet />
      <Toaster position="top-center" richColors closeButton />
    </div>
  );
}
