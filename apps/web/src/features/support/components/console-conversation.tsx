import { useCallback, useEffect } from 'react';
import ArrowLeft from 'lucide-react/icons/arrow-left';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/i18n.ts';
import type { Attachment, ChatMessage, Conversation } from '@parkit/contract';
import { api } from '../../../lib/api-client.ts';
import { mergeMessages } from '../api/chat.ts';
import { markRead, useConversation } from '../api/console.ts';
import { supportKeys } from '../api/keys.ts';
import { ChatComposer } from './chat-composer.tsx';
import { ConversationHistory } from './conversation-history.tsx';
import { useChatSender } from '../hooks/use-chat-sender.ts';

const attachmentUrl = (a: Attachment) => `/api/Support/Console/Attachment/${a.AttachmentId}`;
const noUpload = () => Promise.reject(new Error('agents send text'));

/** One conversation in the console: its history with attachments and the agent's reply box. */
export function ConsoleConversation({
  memberId,
  conversation,
  onBack,
}: {
  memberId: number;
  conversation: Conversation | undefined;
  onBack: () => void;
}) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const messages = useConversation(memberId);
  const name = conversation?.Name || conversation?.UserName || t('Driver');

  useEffect(() => {
    void markRead(memberId).then(() => qc.invalidateQueries({ queryKey: supportKeys.conversations }));
  }, [memberId, qc]);

  const send = useCallback(
    (body: { Text: string; ClientMessageId: string }) =>
      api.post<ChatMessage>(`/api/Support/Console/Conversations/${memberId}/Send`, body),
    [memberId],
  );
  const onSent = useCallback(
    (m: ChatMessage) => mergeMessages(qc, supportKeys.conversation(memberId), [m]),
    [qc, memberId],
  );
  const sender = useChatSender(send, noUpload, onSent);

  return (
    <section aria-label={t('Conversation with {{name}}', { name })} className="flex flex-col gap-3">
      <div className="flex items-center gap-2">
        <button
          type="button"
          onClick={onBack}
          aria-label={t('All conversations')}
          className="grid size-11 place-items-center rounded-full hover:bg-slate-100"
        >
          <ArrowLeft className="size-5" aria-hidden />
        </button>
        <div className="min-w-0">
          <h2 className="truncate font-semibold">{name}</h2>
          {conversation && <p className="text-xs text-slate-500">{conversation.Phone}</p>}
        </div>
      </div>
      <ConversationHistory
        messages={messages}
        url={`/api/Support/Console/Conversations/${memberId}/Messages`}
        sender={sender}
        viewer="support"
        otherName={name}
        attachmentUrl={attachmentUrl}
      />
      <ChatComposer onSend={sender.submit} allowFiles={false} />
    </section>
  );
}
