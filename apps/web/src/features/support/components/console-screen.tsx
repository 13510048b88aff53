import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/i18n.ts';
import { Loaded } from '../../../components/ui/loaded.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { mergeMessages } from '../api/chat.ts';
import { markRead, useCallBackQueue, useConsoleMe, useConversations } from '../api/console.ts';
import { supportKeys } from '../api/keys.ts';
import { useSupportEvents } from '../hooks/use-support-events.ts';
import { ConsoleCallBacks } from './console-callbacks.tsx';
import { ConsoleConversation } from './console-conversation.tsx';
import { ConversationList } from './conversation-list.tsx';

type Tab = 'chats' | 'callbacks';

/** The support console (/support-console): conversations and the call-back queue, live. */
export function ConsoleScreen() {
  const { t } = useTranslation();
  const me = useConsoleMe();
  return (
    <Loaded
      query={me}
      skeleton={<Skeleton rows={3} className="h-16" />}
      failed={t('The console could not be loaded.')}
      refused={{ status: [401, 403], message: t('Only support agents can open the console') }}
    >
      {() => <Console />}
    </Loaded>
  );
}

function Console() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [tab, setTab] = useState<Tab>('chats');
  const [open, setOpen] = useState<number | null>(null);
  const conversations = useConversations(true);
  const queue = useCallBackQueue(true);

  useSupportEvents('/api/Support/Console/Events', (e) => {
    if (e.type === 'ready') {
      void qc.invalidateQueries({ queryKey: supportKeys.console });
      return;
    }
    if (e.type === 'message') {
      mergeMessages(qc, supportKeys.conversation(e.message.MemberId), [e.message]);
      // The open conversation is being read: its new message is not 'unread'.
      if (e.message.MemberId === open && e.message.UserType === 'user')
        void markRead(open).then(() => qc.invalidateQueries({ queryKey: supportKeys.conversations }));
      else void qc.invalidateQueries({ queryKey: supportKeys.conversations });
    }
    if (e.type === 'read') void qc.invalidateQueries({ queryKey: supportKeys.conversations });
    if (e.type === 'callback') void qc.invalidateQueries({ queryKey: supportKeys.queue });
  });

  const unread = conversations.data?.reduce((n, c) => n + c.Unread, 0) ?? 0;
  const openCount = queue.data?.filter((c) => c.Status === 'open').length ?? 0;
  const tabs: { id: Tab; label: string }[] = [
    { id: 'chats', label: unread ? t('Conversations ({{n}} unread)', { n: unread }) : t('Conversations') },
    { id: 'callbacks', label: t('Call backs ({{n}})', { n: openCount }) },
  ];

  return (
    <div className="flex flex-col gap-4">
      <div
        role="tablist"
        aria-label={t('Support console')}
        className="grid grid-cols-2 gap-1 rounded-xl bg-slate-100 p-1"
      >
        {tabs.map((x) => (
          <button
            key={x.id}
            role="tab"
            type="button"
            aria-selected={tab === x.id}
            onClick={() => setTab(x.id)}
            className={`min-h-11 rounded-lg px-2 text-sm font-semibold ${tab === x.id ? 'bg-white text-brand-800 shadow-sm' : 'text-slate-600'}`}
          >
            {x.label}
          </button>
        ))}
      </div>
      <div role="tabpanel">
        {tab === 'callbacks' ? (
          <ConsoleCallBacks query={queue} />
        ) : open !== null ? (
          <ConsoleConversation
            memberId={open}
            conversation={conversations.data?.find((c) => c.MemberId === open)}
            onBack={() => setOpen(null)}
          />
        ) : (
          <Loaded
            query={conversations}
            skeleton={<Skeleton rows={3} className="h-16" />}
            failed={t('Conversations could not be loaded.')}
          >
            {(list) => <ConversationList conversations={list} onOpen={setOpen} />}
          </Loaded>
        )}
      </div>
    </div>
  );
}
