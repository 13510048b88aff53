import { useTranslation } from '../../../lib/i18n.ts';
import { formatTime } from '../../../lib/dates.ts';
import type { ChalkSighting, QueuedChalk } from '../lib/chalk-queue.ts';
import { QueuedItems } from './citation-queue-list.tsx';

const card = 'flex flex-col gap-3 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200';

/** The chalks recorded on this device, newest first, each sent, refused or waiting; nothing when there are none. */
export function ChalkQueueList({ chalks }: { chalks: QueuedChalk[] }) {
  const { t } = useTranslation();
  if (chalks.length === 0) return null;
  return (
    <section className={card} aria-labelledby="chalks-h">
      <h2 id="chalks-h" className="text-lg font-bold">
        {t('Chalks to send')}
      </h2>
      <QueuedItems items={chalks} sent={(c) => t('Sent: chalk {{id}}', { id: c.chalkId })} />
    </section>
  );
}

/** What the device knows of a plate's chalk: when first seen, minutes of the maximum stay, and whether it is over or not sent yet. */
export const chalkSightingText = (t: (key: string, options?: Record<string, unknown>) => string, c: ChalkSighting) =>
  [
    t('Chalked at {{time}}: {{minutes}} of {{max}} minutes', {
      time: formatTime(new Date(c.firstSeenAt)),
      minutes: c.minutes,
      max: c.maxStayMinutes,
    }),
    ...(c.overstayed ? [t('Over the maximum stay')] : []),
    ...(c.pending ? [t('Not sent yet')] : []),
  ].join(' · ');
