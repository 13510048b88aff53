import type { Citation, CitationFile } from '@parkit/contract';
import { ApiError } from '../../../lib/api-client.ts';

/** A citation written on the officer's device, kept until the server has it. */
export interface QueuedCitation {
  /** Also the Idempotency-Key: a resend answers the first citation. */
  id: string;
  operatorId: number;
  ZoneId: number;
  ZoneNumber: string;
  PlateNumber: string;
  PlateState: string;
  ViolationId: number;
  Location: string;
  /** When the officer saw the vehicle (ISO 8601). */
  observedAt: string;
  photos: Blob[];
  /** The photos' ids once uploaded (a retry does not upload them again). */
  photoIds: string[];
  state: 'waiting' | 'sent' | 'refused';
  citationId?: number;
  /** The server's reason for a refusal. */
  error?: string;
}

export interface QueueStore {
  list(): Promise<QueuedCitation[]>;
  put(item: QueuedCitation): Promise<void>;
}

export interface QueueApi {
  uploadPhoto(operatorId: number, photo: Blob): Promise<CitationFile>;
  issue(item: QueuedCitation): Promise<Citation>;
}

/**
 * Sends every waiting citation, oldest first: its photos (each id kept as soon as it is known),
 * then the citation with its Idempotency-Key and the moment seen. A refusal (a right covered the
 * plate, a moment too old) is final and kept with its reason; no connection stops the run, and
 * what is waiting stays for the next. Answers how many were sent.
 */
export async function syncQueue(store: QueueStore, api: QueueApi): Promise<number> {
  return sendWaiting(store, async (item) => {
    while (item.photoIds.length < item.photos.length) {
      const file = await api.uploadPhoto(item.operatorId, item.photos[item.photoIds.length]!);
      item.photoIds.push(file.FileId);
      await store.put(item);
    }
    const citation = await api.issue(item);
    return { citationId: citation.CitationId };
  });
}

/** What a device queue keeps of an item's send (the citations', the chalks'). */
interface Sendable {
  state: 'waiting' | 'sent' | 'refused';
  observedAt: string;
  error?: string;
}

/**
 * A device queue's send loop: every waiting item, oldest first, through `send`, which answers what
 * the server gave back to keep with it; a refusal is final and kept with its reason; no
 * connection stops the run, and what is waiting stays for the next. Answers how many were sent.
 */
export async function sendWaiting<T extends Sendable>(
  store: { list(): Promise<T[]>; put(item: T): Promise<void> },
  send: (item: T) => Promise<Partial<T>>,
): Promise<number> {
  const waiting = (await store.list())
    .filter((q) => q.state === 'waiting')
    .sort((a, b) => a.observedAt.localeCompare(b.observedAt));
  let sent = 0;
  for (const item of waiting) {
    try {
      const answer = await send(item);
      await store.put({ ...item, ...answer, state: 'sent' });
      sent++;
    } catch (err) {
      if (isRefusal(err)) {
        await store.put({ ...item, state: 'refused', error: err.message });
        continue;
      }
      break;
    }
  }
  return sent;
}

/**
 * A queue's item the server refused for good (a 4xx other than 401 and 429), as opposed to no
 * connection, a server error or a signed-out device, which leave it waiting for the next run.
 */
export const isRefusal = (err: unknown): err is ApiError =>
  err instanceof ApiError && err.status !== null && err.status < 500 && err.status !== 429 && err.status !== 401;
