import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { QueuedCitation, QueueStore } from './citation-queue.ts';
import type { OfflinePack } from './offline-rights.ts';

interface OfficerDb extends DBSchema {
  packs: { key: number; value: OfflinePack & { operatorId: number } };
  queue: { key: string; value: QueuedCitation };
}

let opened: Promise<IDBPDatabase<OfficerDb>> | null = null;
/** The officer's device store: IndexedDB (photos are kept as Blobs), through idb. */
const db = () =>
  (opened ??= openDB<OfficerDb>('parkit-officer', 1, {
    upgrade(d) {
      d.createObjectStore('packs', { keyPath: 'operatorId' });
      d.createObjectStore('queue', { keyPath: 'id' });
    },
  }));

export const packStore = {
  get: async (operatorId: number): Promise<OfflinePack | null> => (await (await db()).get('packs', operatorId)) ?? null,
  put: async (operatorId: number, pack: OfflinePack) => {
    await (await db()).put('packs', { ...pack, operatorId });
  },
};

export const queueStore: QueueStore = {
  list: async () => (await db()).getAll('queue'),
  put: async (item) => {
    await (await db()).put('queue', item);
  },
};
