import { Outlet, useNavigation } from 'react-router';
import { OfflineBanner } from '../components/ui/offline-banner.tsx';
import { Toaster } from '../lib/toasts.tsx';

/**
 * The phone-sized frame every screen sits in. The Toaster is here, not in the data layer, and only
 * once sonner is loaded (lib/toasts.ts): the landing page and /homepage paint without it (issue
 * 9), and once mounted it stays, so a toast shown before a move back to the landing page still
 * finishes there. The offline banner is here too, so the landing page says it as well.
 */
export function AppShell() {
  const navigation = useNavigation();
  return (
    <div className="mx-auto flex min-h-dvh w-full max-w-md flex-col bg-white shadow-sm">
      {navigation.state === 'loading' && (
        <div className="fixed top-0 left-0 z-50 h-0.5 w-full animate-pulse bg-brand-500" aria-hidden />
      )}
      <OfflineBanner />
      <Outlet />
      <Toaster position="top-center" richColors closeButton />
    </div>
  );
}
