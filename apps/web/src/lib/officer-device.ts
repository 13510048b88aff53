import { openDB, type IDBPDatabase } from 'idb';

/**
 * The officer's device store (docs/enforcement.md#offline): IndexedDB `parkit-officer`, through idb,
 * with the rights downloaded per operator (`packs`), the citations written offline (`queue`) and
 * the chalks recorded offline (`chalks`, version 2), and whose they are (`owner`, version 3: the
 * member id of the officer who signed in last). features/enforcement/lib/offline-store.ts gives its
 * rows their types; it lives here because logout and sign-in (lib/session.ts) clear it, whichever
 * screen is open.
 */
let opened: Promise<IDBPDatabase> | null = null;
export const officerDevice = () =>
  (opened ??= openDB('parkit-officer', 3, {
    upgrade(d, oldVersion) {
      if (oldVersion < 1) {
        d.createObjectStore('packs', { keyPath: 'operatorId' });
        d.createObjectStore('queue', { keyPath: 'id' });
      }
      if (oldVersion < 2) d.createObjectStore('chalks', { keyPath: 'id' });
      if (oldVersion < 3) d.createObjectStore('owner');
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
  await d.clear('owner');
}

/**
 * Sign-in: the device is the member's now. Another member's downloaded rights, citations and chalks
 * (an officer whose session ended without a logout) leave it: they are not this member's to read
 * or to send under this member's name. The same member signing in again keeps them.
 */
export async function claimOfficerDevice(memberId: string): Promise<void> {
  if (!hasDevice()) return;
  try {
    const d = await officerDevice();
    const owner = (await d.get('owner', 'member')) as string | undefined;
    if (owner !== undefined && owner !== memberId) await clearOfficerDevice();
    await d.put('owner', memberId, 'member');
  } catch {
    // A browser that refuses IndexedDB (a private window) keeps nothing here: the sign-in goes on.
  }
}
