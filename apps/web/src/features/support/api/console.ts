import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ChatMessage, ConsoleCallBack, Conversation, SendChatRequest } from '@parkit/contract';
import { api } from '../../../lib/api-client.ts';
import { mergeMessages } from './chat.ts';
import { supportKeys } from './keys.ts';

const base = '/api/Support/Console';

/** GET /Console/Me: 200 for an agent, 403 for anyone else. */
export const useConsoleMe = () =>
  useQuery({
    queryKey: supportKeys.consoleMe,
    queryFn: ({ signal }) =>
      api.get<{ MemberId: number; UserName: string }>(`${base}/Me`, { showError: false, signal }),
    retry: false,
  });

export const useConversations = (enabled: boolean) =>
  useQuery({
    queryKey: supportKeys.conversations,
    queryFn: ({ signal }) => api.get<Conversation[]>(`${base}/Conversations`, { showError: false, signal }),
    enabled,
  });

export const useConversation = (memberId: number | null) =>
  useQuery({
    queryKey: supportKeys.conversation(memberId ?? 0),
    queryFn: ({ signal }) =>
      api.get<ChatMessage[]>(`${base}/Conversations/${memberId}/Messages`, { showError: false, signal }),
    enabled: memberId !== null,
  });

export const useCallBackQueue = (enabled: boolean) =>
  useQuery({
    queryKey: supportKeys.queue,
    queryFn: ({ signal }) => api.get<ConsoleCallBack[]>(`${base}/CallBacks`, { showError: false, signal }),
    enabled,
  });

export const markRead = (memberId: number) =>
  api.post(`${base}/Conversations/${memberId}/Read`, {}, { showError: false });

export function useReply(memberId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: SendChatRequest) => api.post<ChatMessage>(`${base}/Conversations/${memberId}/Send`, body),
    onSuccess: (msg) => mergeMessages(qc, supportKeys.conversation(memberId), [msg]),
  });
}

export function useCloseCallBack() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, status }: { id: number; status: 'called' | 'no_answer' }) =>
      api.post(`${base}/CallBacks/${id}/Close`, { Status: status }),
    onSettled: () => qc.invalidateQueries({ queryKey: supportKeys.queue }),
  });
}
