import { useTranslation } from '../../../lib/i18n.ts';
import { formatTime } from '../../../lib/dates.ts';
import { Button } from '../../../components/ui/button.tsx';
import type { QueuedCitation } from '../lib/citation-queue.ts';

const card = 'flex flex-col gap-3 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200';

/** The citations written on this device, newest first, each sent, refused or waiting, and Send now. */
export function CitationQueueList({
  queue,
  online,
  syncing,
  onSync,
}: {
  queue: QueuedCitation[];
  online: boolean;
  syncing: boolean;
  onSync: () => void;
}) {
  const { t } = useTranslation();
  return (
    <section className={card} aria-labelledby="queue-h">
      <h2 id="queue-h" className="text-lg font-bold">
        {t('Citations to send')}
      </h2>
      {queue.length === 0 && <p>{t('No citations written on this device.')}</p>}
      <QueuedItems items={queue} sent={(q) => t('Sent: citation {{id}}', { id: q.citationId })} />
      <Button
        type="button"
        variant="secondary"
        className="min-h-12"
        disabled={!online}
        loading={syncing}
        onClick={onSync}
      >
        {t('Send now')}
      </Button>
    </section>
  );
}

/** What both device queues hold: a plate in a zone at a moment, and how its send went. */
interface QueuedItem {
  id: string;
  PlateNumber: string;
  ZoneNumber: string;
  observedAt: string;
  state: 'waiting' | 'sent' | 'refused';
  error?: string | undefined;
}

/** A device queue's items, newest first: each sent (`sent` says as what), refused with its reason, or waiting. */
export function QueuedItems<T extends QueuedItem>({ items, sent }: { items: T[]; sent: (item: T) => string }) {
  const { t } = useTranslation();
  return (
    <ul className="flex flex-col gap-2">
      {items
        .slice()
        .sort((a, b) => b.observedAt.localeCompare(a.observedAt))
        .map((q) => (
          <li key={q.id} className="rounded-xl bg-slate-50 p-3">
            <p className="font-mono font-bold">
              {q.PlateNumber} · {t('Zone {{number}}', { number: q.ZoneNumber })} · {formatTime(new Date(q.observedAt))}
            </p>
            <p>
              {q.state === 'sent'
                ? sent(q)
                : q.state === 'refused'
                  ? `${t('Refused')}: ${t(q.error ?? '')}`
                  : t('Waiting for a connection')}
            </p>
          </li>
        ))}
    </ul>
  );
}
