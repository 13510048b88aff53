import type { ReactNode } from 'react';
import { useTranslation } from '../../../lib/i18n.ts';
import type { Zone } from '@parkit/contract';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { ZoneRow } from './zone-row.tsx';
import { LoadError } from '../../../components/ui/load-error.tsx';

interface ZoneListProps {
  zones: Zone[] | undefined;
  loading: boolean;
  failed: boolean;
  onRetry: () => void;
  onOpen: (zone: Zone) => void;
  /** What to try when nothing was found (widen the search, check the sign). */
  empty: ReactNode;
  /** Under the list: e.g. "Search a wider area". */
  footer?: ReactNode;
}

/** Skeletons while loading, a retry after a failure, what to try when empty, else the rows. */
export function ZoneList({ zones, loading, failed, onRetry, onOpen, empty, footer }: ZoneListProps) {
  const { t } = useTranslation();
  if (loading && !zones) return <Skeleton rows={5} className="h-24" />;
  if (failed && !zones) {
    return <LoadError message={t('The zones could not be loaded.')} onRetry={onRetry} />;
  }
  if (!zones || zones.length === 0)
    return (
      <div className="rounded-2xl border border-dashed border-slate-300 p-5 text-center text-sm text-slate-700">
        {empty}
      </div>
    );
  return (
    <>
      <ul
        aria-label={t('Zones')}
        aria-busy={loading || undefined}
        className={`flex flex-col gap-2 ${loading ? 'opacity-60' : ''}`}
      >
        {zones.map((z) => (
          <ZoneRow key={z.ZoneId} zone={z} onOpen={onOpen} />
        ))}
      </ul>
      {footer}
    </>
  );
}
