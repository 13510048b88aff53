import type { DBSchema, IDBPDatabase } from 'idb';
import { officerDevice } from '../../../lib/officer-device.ts';
import type { ChalkStore, QueuedChalk } from './chalk-queue.ts';
import type { QueuedCitation, QueueStore } from './citation-queue.ts';
import type { OfflinePack } from './offline-rights.ts';

interface OfficerDb extends DBSchema {
  packs: { key: number; value: OfflinePack & { operatorId: number } };
  queue: { key: string; value: QueuedCitation };
  chalks: { key: string; value: QueuedChalk };
}

/** The officer's device store (lib/officer-device.ts, which logout clears) with its rows' types. */
const db = () => officerDevice() as unknown as Promise<IDBPDatabase<OfficerDb>>;

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

export const chalkStore: ChalkStore = {
  list: async () => (await db()).getAll('chalks'),
  put: async (item) => {
    await (await db()).put('chalks', item);
  },
};
