import type { ComponentType } from 'react';
import { Outlet, useNavigation } from 'react-router';

let Toasts: ComponentType | null = null;
/**
 * Toasts come only from screens past the landing page, so sonner is not in the first chunk (issue
 * 9): provider.tsx, which every such screen loads first, hands its toaster over here. It is in
 * place when that screen first renders and stays, so a toast shown before a move back to the
 * landing page still finishes there.
 */
export function setToaster(toaster: ComponentType) {
  Toasts = toaster;
}

/** The phone-sized frame every screen sits in. */
export function AppShell() {
  const navigation = useNavigation();
  return (
    <div className="mx-auto flex min-h-dvh w-full max-w-md flex-col bg-white shadow-sm">
      {navigation.state === 'loading' && <div className="fixed top-0 left-0 z-50 h-0.5 w-full animate-pulse bg-brand-500" aria-hidden />}
      <Outlet />
      {Toasts && <Toasts />}
    </div>
  );
}
