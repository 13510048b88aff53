import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/i18n.ts';
import type { ChatMessage } from '@parkit/contract';
import { Loaded } from '../../../components/ui/loaded.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { LoadEarlier } from './load-earlier.tsx';
import { MessageList, type MessageListProps, type PendingMessage } from './message-list.tsx';
import { useOlderMessages } from '../hooks/use-older-messages.ts';

type Props = Pick<MessageListProps, 'viewer' | 'otherName' | 'attachmentUrl'> & {
  /** The newest page of the conversation. */
  messages: UseQueryResult<ChatMessage[]>;
  /** Where the earlier pages come from. */
  url: string;
  sender: { pending: PendingMessage[]; retry: (p: PendingMessage) => void };
};

/** A conversation as the driver's chat and the agent's console show it: the earlier pages on request, then the messages still being sent. */
export function ConversationHistory({ messages, url, sender, ...list }: Props) {
  const { t } = useTranslation();
  const older = useOlderMessages(url, messages.data);
  return (
    <Loaded
      query={messages}
      skeleton={<Skeleton rows={3} className="h-14" />}
      failed={t('The conversation could not be loaded.')}
    >
      {() => (
        <>
          <LoadEarlier older={older} />
          <MessageList messages={older.all} pending={sender.pending} onRetry={sender.retry} {...list} />
        </>
      )}
    </Loaded>
  );
}
