import { Outlet, useLocation, useNavigation } from 'react-router';
import { OfflineBanner } from '../components/ui/offline-banner.tsx';
import { paths } from '../config/paths.ts';
import { Toaster } from '../lib/toasts.tsx';

/**
 * The phone-sized frame every screen sits in (the operator's console excepted: full width). The Toaster is here, not in the data layer, and only
 * once sonner is loaded (lib/toasts.ts): the landing page and /homepage paint without it (issue
 * 9), and once mounted it stays, so a toast shown before a move back to the landing page still
 * finishes there. The offline banner is here too, so the landing page says it as well.
 */
export function AppShell() {
  const navigation = useNavigation();
  // The operator's console is a desktop page (still usable at 390 px); its join page is not.
  const { pathname } = useLocation();
  const wide = pathname.startsWith(`${paths.operator}/`) && pathname !== paths.operatorJoin;
  const frame = wide || pathname === paths.operator ? 'max-w-none' : 'max-w-md shadow-sm';
  return (
    <div className={`mx-auto flex min-h-dvh w-full flex-col bg-white ${frame}`}>
      {navigation.state === 'loading' && (
        <div className="fixed top-0 inset-s-0 z-50 h-0.5 w-full animate-pulse bg-brand-500" aria-hidden />
      )}
      <OfflineBanner />
      <Outlet />
      <Toaster position="top-center" richColors closeButton />
    </div>
  );
}
