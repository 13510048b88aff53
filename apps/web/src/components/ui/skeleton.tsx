import { useTranslation } from '../../lib/i18n.ts';

/** Grey blocks in the shape of what is loading; announced once as loading. */
export function Skeleton({ rows = 3, className = 'h-24' }: { rows?: number; className?: string }) {
  const { t } = useTranslation();
  return (
    <div role="status" aria-live="polite" className="flex flex-col gap-3">
      <span className="sr-only">{t('Loading')}</span>
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className={`animate-pulse rounded-2xl bg-slate-200 ${className}`} />
      ))}
    </div>
  );
}
