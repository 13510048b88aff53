import { openDB, type IDBPDatabase } from 'idb';

/**
 * The officer's device store (docs/enforcement.md#offline): IndexedDB `parkit-officer`, through idb,
 * with the rights downloaded per operator (`packs`) and the citations written offline (`queue`).
 * features/enforcement/lib/offline-store.ts gives its rows their types; it lives here because
 * logout (lib/session.ts) clears it, whichever screen is open.
 */
let opened: Promise<IDBPDatabase> | null = null;
export const officerDevice = () =>
  (opened ??= openDB('parkit-officer', 1, {
    upgrade(d) {
      d.createObjectStore('packs', { keyPath: 'operatorId' });
      d.createObjectStore('queue', { keyPath: 'id' });
    },
  }));

/** A browser without IndexedDB (or a test's jsdom) never had an officer's data. */
const hasDevice = () => typeof indexedDB !== 'undefined';

/** How many citations written on this device wait to be sent: logout warns about them. */
export async function unsentCitations(): Promise<number> {
  if (!hasDevice()) return 0;
  const items = (await (await officerDevice()).getAll('queue')) as { state: string }[];
  return items.filter((i) => i.state === 'waiting').length;
}

/** Logout: the downloaded rights and the queue leave the device with the officer. */
export async function clearOfficerDevice(): Promise<void> {
  if (!hasDevice()) return;
  const d = await officerDevice();
  await d.clear('packs');
  await d.clear('queue');
}
