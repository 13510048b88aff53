import { useSyncExternalStore } from 'react';
import type * as SonnerModule from 'sonner';
import type { ToasterProps } from 'sonner';

type Sonner = typeof SonnerModule;

let sonner: Sonner | null = null;
let loading: Promise<Sonner> | null = null;
const listeners = new Set<() => void>();

/**
 * sonner (the toasts and their Toaster), loaded the first time it is wanted rather than with the
 * first screen (/homepage fetched it before its first paint and never used it). Screens
 * toast through `toast` below, never through sonner itself; app/provider.tsx asks for it as any
 * other screen opens, and a toast asks for it when it has one to show. A failed load (offline) is tried
 * again at the next call.
 */
export function loadToasts(): Promise<Sonner> {
  loading ??= import('sonner').then(
    (m) => {
      sonner = m;
      for (const listener of listeners) listener();
      return m;
    },
    (err: unknown) => {
      loading = null;
      throw err;
    },
  );
  return loading;
}

/**
 * The one way the app shows a toast: at once once sonner is here, else as soon as it is. The
 * Toaster mounts when sonner arrives and shows the toasts made before it (sonner keeps them for its
 * first subscriber).
 */
function show(kind: 'success' | 'error', message: string) {
  if (sonner) sonner.toast[kind](message);
  else
    loadToasts().then(
      (m) => m.toast[kind](message),
      () => {},
    );
}

/** `toast.success(text)`, `toast.error(text)`: the text already translated. */
export const toast = {
  success: (message: string) => show('success', message),
  error: (message: string) => show('error', message),
};

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
const current = () => sonner;

/** sonner's Toaster once sonner is loaded, nothing before (app/app-shell.tsx mounts it). */
export function Toaster(props: ToasterProps) {
  const loaded = useSyncExternalStore(subscribe, current, current);
  return loaded && <loaded.Toaster {...props} />;
}
