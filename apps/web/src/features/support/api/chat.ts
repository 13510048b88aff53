import { useQuery, type QueryClient } from '@tanstack/react-query';
import type { Attachment, ChatMessage, SendChatRequest } from '@parkit/contract';
import { api } from '../../../lib/api-client.ts';
import { supportKeys } from './keys.ts';

/** GET /api/Support/Chat/Messages: the newest 50, oldest first (the first call opens with the greeting). */
export const getMessages = (signal?: AbortSignal) =>
  api.get<ChatMessage[]>('/api/Support/Chat/Messages', { showError: false, signal });

export const useMessages = () =>
  useQuery({
    queryKey: supportKeys.messages,
    queryFn: ({ signal }) => getMessages(signal),
    refetchOnWindowFocus: false,
  });

/** POST /api/Support/Chat/Send; the ClientMessageId makes a retry safe. */
export const sendMessage = (body: SendChatRequest) =>
  api.post<ChatMessage>('/api/Support/Chat/Send', body, { showError: false });

/** POST /api/Support/Chat/Attachment: one file under the key 'file'. */
export const uploadAttachment = (file: File) =>
  api.upload<Attachment>('/api/Support/Chat/Attachment', 'file', file, {}, { showError: false });

/** Adds messages to a cached conversation once each, in order (live events and sends meet here). */
export function mergeMessages(qc: QueryClient, key: readonly unknown[], incoming: ChatMessage[]) {
  qc.setQueryData<ChatMessage[]>(key, (old) => {
    if (!old) return old;
    const byId = new Map(old.map((m) => [m.MessageId, m]));
    for (const m of incoming) byId.set(m.MessageId, m);
    return [...byId.values()].sort((a, b) => a.MessageId - b.MessageId);
  });
}
