import { Fragment, useEffect, useRef } from 'react';
import AlertCircle from 'lucide-react/icons/circle-exclamation-point';
import Clock from 'lucide-react/icons/clock';
import { useTranslation } from '../../../lib/i18n.ts';
import { type Attachment, type ChatMessage } from '@parkit/contract';
import { formatDateLong, formatTime } from '../../../lib/dates.ts';
import { AttachmentView } from './attachment-view.tsx';

/** A message shown before the server confirmed it (optimistic send), or one that failed. */
export interface PendingMessage {
  ClientMessageId: string;
  Text: string;
  file?: File | undefined;
  preview?: string | undefined;
  AttachmentId?: string | undefined;
  status: 'sending' | 'failed';
  CreatedAt: string;
}

type Row = { kind: 'sent'; m: ChatMessage } | { kind: 'pending'; m: PendingMessage };

const dayOf = (iso: string) => {
  const d = new Date(iso);
  return `${d.getFullYear()}-${d.getMonth()}-${d.getDate()}`;
};

export interface MessageListProps {
  messages: ChatMessage[];
  pending?: PendingMessage[];
  /** Whose screen: the driver's messages are 'mine' for a driver, support's for an agent. */
  viewer: 'user' | 'support';
  /** The other side's name: 'Support' for a driver, the driver's name for an agent. */
  otherName: string;
  attachmentUrl: (a: Attachment) => string;
  onRetry?: (m: PendingMessage) => void;
}

/** The conversation (docs/product.md#screens): a divider per day, support left and the driver right, newest in view. */
export function MessageList({ messages, pending = [], viewer, otherName, attachmentUrl, onRetry }: MessageListProps) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  const confirmed = new Set(messages.map((m) => m.ClientMessageId));
  const rows: Row[] = [
    ...messages.map((m) => ({ kind: 'sent' as const, m })),
    ...pending.filter((p) => !confirmed.has(p.ClientMessageId)).map((m) => ({ kind: 'pending' as const, m })),
  ];
  const today = dayOf(new Date().toISOString());

  // Scrolled to the newest whenever a message arrives (not when earlier ones are loaded above).
  const last = rows.at(-1);
  const lastKey = last ? (last.kind === 'sent' ? `m${last.m.MessageId}` : `p${last.m.ClientMessageId}`) : '';
  useEffect(() => {
    const el = ref.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [lastKey]);

  let lastDay = '';
  return (
    <div
      ref={ref}
      role="log"
      aria-live="polite"
      aria-label={t('Messages')}
      tabIndex={0}
      className="flex max-h-[400px] flex-col gap-2 overflow-y-auto rounded-2xl bg-slate-50 p-3"
    >
      {rows.map((row) => {
        const m = row.m;
        const day = dayOf(m.CreatedAt);
        const divider = day !== lastDay;
        lastDay = day;
        // A pending message is the viewer's own: the driver's on /chatsupport, the agent's in the console.
        const fromUser = row.kind === 'pending' ? viewer === 'user' : row.m.UserType === 'user';
        const mine = (fromUser ? 'user' : 'support') === viewer;
        // The driver's messages are 'You' to the driver; support's (an agent's or the greeting)
        // are 'Support' to both sides, as several agents may answer one conversation.
        const sender = fromUser ? (mine ? t('You') : otherName) : t('Support');
        const text = row.kind === 'sent' && row.m.Greeting ? t(row.m.Text) : m.Text;
        const attachment =
          row.kind === 'sent'
            ? row.m.Attachment
            : row.m.file
              ? { FileName: row.m.file.name, ContentType: row.m.file.type, Size: row.m.file.size }
              : null;
        return (
          <Fragment key={row.kind === 'sent' ? `m${row.m.MessageId}` : `p${row.m.ClientMessageId}`}>
            {divider && (
              <div role="separator" className="my-1 flex items-center gap-2 text-xs font-semibold text-slate-500">
                <span className="h-px flex-1 bg-slate-200" />
                <span>{day === today ? t('TODAY') : formatDateLong(m.CreatedAt)}</span>
                <span className="h-px flex-1 bg-slate-200" />
              </div>
            )}
            <article
              aria-label={t('Message from {{sender}}', { sender })}
              className={`flex max-w-[85%] flex-col gap-1 rounded-2xl px-3 py-2 text-sm ${mine ? 'self-end bg-brand-700 text-white' : 'self-start bg-white text-slate-900 ring-1 ring-slate-200'}`}
            >
              <p className={`text-xs font-semibold ${mine ? 'text-white/80' : 'text-slate-500'}`}>{sender}</p>
              {attachment && (
                <AttachmentView
                  attachment={attachment}
                  url={row.kind === 'sent' && row.m.Attachment ? attachmentUrl(row.m.Attachment) : null}
                  {...(row.kind === 'pending' && row.m.preview ? { src: row.m.preview } : {})}
                />
              )}
              {text && <p className="break-words whitespace-pre-wrap">{text}</p>}
              <p
                className={`flex items-center justify-end gap-1 text-[11px] ${mine ? 'text-white/80' : 'text-slate-500'}`}
              >
                {row.kind === 'pending' && row.m.status === 'sending' && (
                  <>
                    <Clock className="size-3" aria-hidden />
                    <span className="sr-only">{t('Sending')}</span>
                  </>
                )}
                <time dateTime={m.CreatedAt}>{formatTime(m.CreatedAt)}</time>
              </p>
              {row.kind === 'pending' && row.m.status === 'failed' && (
                <p className="flex items-center gap-2 text-xs font-medium text-white">
                  <AlertCircle className="size-4" aria-hidden />
                  <span>{t('Not sent')}</span>
                  <button
                    type="button"
                    onClick={() => onRetry?.(row.m)}
                    className="rounded-lg bg-white px-2 py-1 text-brand-800 underline-offset-2 hover:underline"
                  >
                    {t('Retry')}
                  </button>
                </p>
              )}
            </article>
          </Fragment>
        );
      })}
    </div>
  );
}
