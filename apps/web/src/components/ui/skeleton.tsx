import { useTranslation } from '../../lib/i18n.ts';
import { useOnline } from '../../lib/online.ts';

/**
 * Grey blocks in the shape of what is loading; announced once as loading. Offline nothing is
 * loading (React Query pauses until the connection is back, lib/query-client.ts): the blocks give
 * way to saying so, and the content comes by itself once the device is online again.
 */
export function Skeleton({ rows = 3, className = 'h-24' }: { rows?: number; className?: string }) {
  const { t } = useTranslation();
  const online = useOnline();
  if (!online)
    return (
      <p role="status" className="rounded-2xl border border-dashed border-slate-300 p-4 text-sm text-slate-700">
        {t('This needs a connection. It loads by itself when you are back online.')}
      </p>
    );
  return (
    <div role="status" aria-live="polite" className="flex flex-col gap-3">
      <span className="sr-only">{t('Loading')}</span>
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className={`animate-pulse rounded-2xl bg-slate-200 ${className}`} />
      ))}
    </div>
  );
}
