import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/i18n.ts';
import { toast } from '../../../lib/toasts.tsx';
import type { Attachment, ChatMessage } from '@parkit/contract';
import { ApiError } from '../../../lib/api-client.ts';
import { mergeMessages, sendMessage, uploadAttachment, useMessages } from '../api/chat.ts';
import { supportKeys } from '../api/keys.ts';
import { useSupportEvents } from '../hooks/use-support-events.ts';
import { ChatComposer } from './chat-composer.tsx';
import { ConversationHistory } from './conversation-history.tsx';
import { useChatSender } from '../hooks/use-chat-sender.ts';

const attachmentUrl = (a: Attachment) => `/api/Support/Chat/Attachment/${a.AttachmentId}`;

/** Support chat (/chatsupport): stored, live, with optimistic sends and attachments. */
export function ChatScreen() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const messages = useMessages();

  const onSent = useCallback((m: ChatMessage) => mergeMessages(qc, supportKeys.messages, [m]), [qc]);
  // A refusal the driver can act on (a file type, too many messages) is said; the message stays, marked.
  const say = useCallback(
    (err: unknown) => {
      if (err instanceof ApiError && err.status !== null && err.status < 500 && err.status !== 401)
        toast.error(t(err.message));
      throw err;
    },
    [t],
  );
  const send = useCallback((body: Parameters<typeof sendMessage>[0]) => sendMessage(body).catch(say), [say]);
  const upload = useCallback((file: File) => uploadAttachment(file).catch(say), [say]);
  const sender = useChatSender(send, upload, onSent);

  const status = useSupportEvents('/api/Support/Chat/Events', (e) => {
    if (e.type === 'message') mergeMessages(qc, supportKeys.messages, [e.message]);
    // (Re)connected: catch up on whatever came while the stream was down.
    if (e.type === 'ready') void qc.invalidateQueries({ queryKey: supportKeys.messages });
    if (e.type === 'callback') void qc.invalidateQueries({ queryKey: supportKeys.callBacks });
  });

  return (
    <div className="flex flex-col gap-3">
      {status === 'offline' && (
        <p role="status" className="rounded-xl bg-amber-50 px-3 py-2 text-sm text-amber-900">
          {t('Reconnecting… new replies will appear when the connection is back.')}
        </p>
      )}
      <ConversationHistory
        messages={messages}
        url="/api/Support/Chat/Messages"
        sender={sender}
        viewer="user"
        otherName={t('Support')}
        attachmentUrl={attachmentUrl}
      />
      <ChatComposer onSend={sender.submit} />
    </div>
  );
}
