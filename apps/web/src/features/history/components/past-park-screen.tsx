import { useEffect, useRef } from 'react';
import { useTranslation } from '../../../lib/i18n.ts';
import { Button } from '../../../components/ui/button.tsx';
import { LoadError } from '../../../components/ui/load-error.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { useSessions } from '../api/get-sessions.ts';
import { useHistoryFilters } from '../hooks/use-history-filters.ts';
import { useHistoryPosition, type LatLng } from '../hooks/use-history-position.ts';
import { byDistance, filterCount } from '../lib/history-filters.ts';
import { DistanceNote } from './distance-note.tsx';
import { EmptyHistory } from './empty-history.tsx';
import type { VehicleOption } from './filters-dialog.tsx';
import { HistoryPage } from './history-page.tsx';
import { HistoryToolbar } from './history-toolbar.tsx';
import { SessionCard } from './session-card.tsx';

export interface HistoryScreenProps {
  vehicles: VehicleOption[];
  getPosition: () => Promise<LatLng>;
}

/** /pastpark: the member's sessions, newest first by default, a page at a time as the list scrolls. */
export function PastParkScreen(props: HistoryScreenProps) {
  return (
    <HistoryPage toggleTo="map">
      <PastParkList {...props} />
    </HistoryPage>
  );
}

function PastParkList({ vehicles, getPosition }: HistoryScreenProps) {
  const { t } = useTranslation();
  const [filters, setFilters] = useHistoryFilters();
  const { position, settled } = useHistoryPosition(byDistance(filters.sort), getPosition);
  const q = useSessions(filters, position, settled);
  const sessions = q.data?.pages.flatMap((p) => p.Sessions) ?? [];
  const more = useRef<HTMLDivElement>(null);

  // Infinite scroll: the next page loads as the end of the list comes into view.
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = q;
  useEffect(() => {
    const el = more.current;
    if (!el || !hasNextPage || typeof IntersectionObserver === 'undefined') return;
    const io = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting) && !isFetchingNextPage) void fetchNextPage();
      },
      { rootMargin: '400px' },
    );
    io.observe(el);
    return () => io.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  const loading = q.isPending || !settled;
  return (
    <div className="flex flex-col gap-3 p-4">
      <HistoryToolbar filters={filters} vehicles={vehicles} onChange={setFilters} />
      {byDistance(filters.sort) && <DistanceNote from={q.data?.pages[0]?.DistanceFrom} />}
      {loading && <Skeleton rows={4} className="h-28" />}
      {q.isError && !q.data && (
        <LoadError
          message={t('Your sessions could not be loaded.')}
          onRetry={() => void q.refetch()}
          retrying={q.isFetching}
        />
      )}
      {q.data && sessions.length === 0 && (
        <EmptyHistory filtered={filterCount(filters) > 0} onClear={() => setFilters({ sort: filters.sort })} />
      )}
      {sessions.length > 0 && (
        <ul
          aria-label={t('Past Parking Sessions')}
          aria-busy={q.isFetching}
          className={`flex flex-col gap-3 ${q.isPlaceholderData ? 'opacity-60' : ''}`}
        >
          {sessions.map((s) => (
            <SessionCard key={s.SessionId} session={s} />
          ))}
        </ul>
      )}
      <div ref={more}>
        {isFetchingNextPage && <Skeleton rows={2} className="h-28" />}
        {hasNextPage && !isFetchingNextPage && (
          <Button variant="ghost" block onClick={() => void fetchNextPage()}>
            {t('Show more')}
          </Button>
        )}
        {q.isFetchNextPageError && (
          <LoadError compact message={t('More sessions could not be loaded.')} onRetry={() => void fetchNextPage()} />
        )}
      </div>
    </div>
  );
}
