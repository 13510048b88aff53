import { openDB, type IDBPDatabase } from 'idb';

/**
 * The officer's device store (docs/enforcement.md#offline): IndexedDB `parkit-officer`, through idb,
 * with the rights downloaded per operator (`packs`), the citations written offline (`queue`) and
 * the chalks recorded offline (`chalks`, version 2). features/enforcement/lib/offline-store.ts
 * gives its rows their types; it lives here because logout (lib/session.ts) clears it, whichever
 * screen is open.
 */
let opened: Promise<IDBPDatabase> | null = null;
export const officerDevice = () =>
  (opened ??= openDB('parkit-officer', 2, {
    upgrade(d, oldVersion) {
      if (oldVersion < 1) {
        d.createObjectStore('packs', { keyPath: 'operatorId' });
        d.createObjectStore('queue', { keyPath: 'id' });
      }
      if (oldVersion < 2) d.createObjectStore('chalks', { keyPath: 'id' });
    },
  }));

/** A browser without IndexedDB (or a test's jsdom) never had an officer's data. */
const hasDevice = () => typeof indexedDB !== 'undefined';

async function waiting(store: 'queue' | 'chalks'): Promise<number> {
  if (!hasDevice()) return 0;
  const items = (await (await officerDevice()).getAll(store)) as { state: string }[];
  return items.filter((i) => i.state === 'waiting').length;
}

/** How many citations written on this device wait to be sent: logout warns about them. */
export const unsentCitations = () => waiting('queue');

/** How many chalks recorded on this device wait to be sent: logout warns about them too. */
export const unsentChalks = () => waiting('chalks');

/** Logout: the downloaded rights and both queues leave the device with the officer. */
export async function clearOfficerDevice(): Promise<void> {
  if (!hasDevice()) return;
  const d = await officerDevice();
  await d.clear('packs');
  await d.clear('queue');
  await d.clear('chalks');
}
