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
      <ul className="flex flex-col gap-2">
        {queue
          .slice()
          .sort((a, b) => b.observedAt.localeCompare(a.observedAt))
          .map((q) => (
            <li key={q.id} className="rounded-xl bg-slate-50 p-3">
              <p className="font-mono font-bold">
                {q.PlateNumber} · {t('Zone {{number}}', { number: q.ZoneNumber })} ·{' '}
                {formatTime(new Date(q.observedAt))}
              </p>
              <p>
                {q.state === 'sent'
                  ? t('Sent: citation {{id}}', { id: q.citationId })
                  : q.state === 'refused'
                    ? `${t('Refused')}: ${t(q.error ?? '')}`
                    : t('Waiting for a connection')}
              </p>
            </li>
          ))}
      </ul>
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
