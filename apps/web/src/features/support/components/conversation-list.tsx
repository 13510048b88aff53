import { useTranslation } from '../../../lib/i18n.ts';
import { type Conversation } from '@parkit/contract';
import { formatDateLong, formatTime } from '../../../lib/dates.ts';

/** Open conversations, newest activity first, with unread counts. */
export function ConversationList({
  conversations,
  onOpen,
}: {
  conversations: Conversation[];
  onOpen: (memberId: number) => void;
}) {
  const { t } = useTranslation();
  if (conversations.length === 0)
    return <p className="rounded-2xl bg-slate-50 p-4 text-sm text-slate-600">{t('No conversations yet.')}</p>;
  return (
    <ul className="flex flex-col gap-2">
      {conversations.map((c) => {
        const name = c.Name || c.UserName;
        return (
          <li key={c.MemberId}>
            <button
              type="button"
              onClick={() => onOpen(c.MemberId)}
              aria-label={c.Unread ? t('{{name}}, {{n}} unread', { name, n: c.Unread }) : name}
              className="flex w-full items-center gap-3 rounded-2xl bg-white p-4 text-start shadow-sm ring-1 ring-slate-200 hover:bg-slate-50"
            >
              <div className="min-w-0 flex-1">
                <p className="flex items-baseline justify-between gap-2">
                  <span className="truncate font-semibold">{name}</span>
                  <span className="shrink-0 text-xs text-slate-500">
                    {formatDateLong(c.LastMessageAt)} {formatTime(c.LastMessageAt)}
                  </span>
                </p>
                <p className="truncate text-sm text-slate-600">{c.LastMessage}</p>
              </div>
              {c.Unread > 0 && (
                <span
                  className="grid min-w-6 shrink-0 place-items-center rounded-full bg-brand-700 px-2 py-0.5 text-xs font-bold text-white"
                  aria-hidden
                >
                  {c.Unread}
                </span>
              )}
            </button>
          </li>
        );
      })}
    </ul>
  );
}
