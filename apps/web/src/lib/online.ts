import { useSyncExternalStore } from 'react';

/**
 * Whether the device has a connection, as the browser says (navigator.onLine and its
 * online/offline events): the one signal for the offline banner, the screens' offline notices and
 * React Query's onlineManager, which pauses queries while offline and runs them again when the
 * connection is back (lib/query-client.ts; docs/architecture.md#offline).
 */
export function isOnline(): boolean {
  return typeof navigator === 'undefined' || navigator.onLine !== false;
}

/** Calls `onChange` on every change of the connection; answers the unsubscribe. */
export function subscribeOnline(onChange: () => void): () => void {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
}

export function useOnline(): boolean {
  return useSyncExternalStore(subscribeOnline, isOnline, () => true);
}
