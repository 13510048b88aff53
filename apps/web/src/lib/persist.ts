import { dehydrate, hydrate, type DehydratedState, type Query, type QueryClient } from '@tanstack/react-query';
import { queryKeys } from './query-keys.ts';
import { getSession } from './session-store.ts';

/**
 * What a driver may open with no connection (docs/architecture.md#offline): the answers below,
 * kept in the browser per signed-in member and put back into the cache when the app starts, so a
 * reload offline shows the active session, its countdown and proof of payment, the receipts and
 * the last nearby zones. Kept with React Query's own dehydrate/hydrate; logout clears every stored
 * key (lib/session.ts clearSession), this one too. A guest keeps nothing here.
 */
const PREFIX = 'parkit_offline_cache:';
/** Answers older than this are not put back. */
const MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;
/** The starts of the keys kept (the parking and history features' keys, the account's). */
const KEPT: readonly (readonly unknown[])[] = [
  ['parking', 'active'],
  ['parking', 'session'],
  ['parking', 'proof'],
  ['parking', 'operator'],
  ['parking', 'zones', 'nearby'],
  ['parking', 'zones', 'one'],
  ['history', 'sessions'],
  queryKeys.accountDetails,
  queryKeys.reminders,
  queryKeys.vehicles,
];

const startsWith = (key: readonly unknown[], start: readonly unknown[]) => start.every((x, i) => key[i] === x);
const kept = (q: Query) =>
  q.state.status === 'success' &&
  Date.now() - q.state.dataUpdatedAt < MAX_AGE_MS &&
  KEPT.some((start) => startsWith(q.queryKey, start));

/** The member whose answers these are: none for a guest or a visitor. */
function owner(): string | null {
  const s = getSession();
  return s.token && !s.guest && s.userId ? s.userId : null;
}

/** Puts the member's kept answers back, then keeps them as they change. Returns the unsubscribe. */
export function persistQueries(client: QueryClient): () => void {
  const member = owner();
  if (member) {
    try {
      const raw = localStorage.getItem(PREFIX + member);
      if (raw) hydrate(client, JSON.parse(raw) as DehydratedState);
    } catch {
      // Unreadable or refused storage: start from the network.
    }
  }
  let timer: ReturnType<typeof setTimeout> | null = null;
  const save = () => {
    timer = null;
    const who = owner();
    if (!who) return;
    try {
      localStorage.setItem(PREFIX + who, JSON.stringify(dehydrate(client, { shouldDehydrateQuery: kept })));
    } catch {
      // Full or refused storage: the app works as before, only not offline.
    }
  };
  const unsubscribe = client.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated' || event.action.type !== 'success' || !kept(event.query)) return;
    timer ??= setTimeout(save, 500);
  });
  // A reload or a closed tab within the half second writes what is waiting, so the next start
  // never puts back answers older than the ones on screen (a vehicle just deleted, say).
  const flush = () => {
    if (!timer) return;
    clearTimeout(timer);
    save();
  };
  window.addEventListener('pagehide', flush);
  return () => {
    unsubscribe();
    window.removeEventListener('pagehide', flush);
    if (timer) clearTimeout(timer);
  };
}
