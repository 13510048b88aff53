import { lazy, Suspense, useEffect } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from '../../../lib/i18n.ts';
import { LoadError } from '../../../components/ui/load-error.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { href, paths } from '../../../config/paths.ts';
import { useSessions } from '../api/get-sessions.ts';
import { useHistoryFilters } from '../hooks/use-history-filters.ts';
import { useHistoryPosition } from '../hooks/use-history-position.ts';
import { byDistance, filterCount } from '../lib/history-filters.ts';
import { DistanceNote } from './distance-note.tsx';
import { EmptyHistory } from './empty-history.tsx';
import { HistoryPage } from './history-page.tsx';
import { HistoryToolbar } from './history-toolbar.tsx';
import type { HistoryScreenProps } from './past-park-screen.tsx';
import { SessionCard } from './session-card.tsx';

// Leaflet is heavy: only the map screens load it.
const SessionsMap = lazy(() => import('./sessions-map.tsx').then((m) => ({ default: m.SessionsMap })));

/** The map shows up to this many sessions (10 pages); the list under it says how many. */
const MAP_MAX = 500;
const MAP_PAGE = 50;

/** /mappage: the same sessions (same sort and filters) on the map, each marker opening its session. */
export function MapPageScreen(props: MapPageProps) {
  return (
    <HistoryPage toggleTo="list">
      <SessionsOnMap {...props} />
    </HistoryPage>
  );
}

type MapPageProps = HistoryScreenProps & { centre: { lat: number; lng: number } | null };

function SessionsOnMap({ vehicles, getPosition, centre }: MapPageProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [filters, setFilters] = useHistoryFilters();
  const { position, settled } = useHistoryPosition(byDistance(filters.sort), getPosition);
  const q = useSessions(filters, position, settled, MAP_PAGE);
  const sessions = q.data?.pages.flatMap((p) => p.Sessions) ?? [];
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = q;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && sessions.length < MAP_MAX) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage, sessions.length]);

  const first = sessions[0];
  const mapCentre = first ? { lat: first.Latitude, lng: first.Longitude } : centre;
  return (
    <>
      <div className="p-4 pb-2">
        <HistoryToolbar filters={filters} vehicles={vehicles} onChange={setFilters} csv={false} />
        {byDistance(filters.sort) && (
          <div className="mt-2">
            <DistanceNote from={q.data?.pages[0]?.DistanceFrom} />
          </div>
        )}
      </div>
      <div className="relative isolate h-[45dvh] min-h-64 bg-slate-200">
        {mapCentre && sessions.length > 0 && (
          <Suspense fallback={null}>
            <SessionsMap
              sessions={sessions}
              centre={mapCentre}
              onOpen={(id) => void navigate(href(paths.parkingSessionDetail, { id }))}
            />
          </Suspense>
        )}
      </div>
      <section aria-labelledby="map-list-heading" className="flex flex-col gap-3 p-4">
        {(q.isPending || !settled) && <Skeleton rows={3} className="h-28" />}
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
          <>
            <h2 id="map-list-heading" className="text-sm font-semibold text-slate-700">
              {hasNextPage
                ? t('The first {{count}} sessions on the map', { count: sessions.length })
                : t('{{count}} sessions on the map', { count: sessions.length })}
            </h2>
            <ul className="flex flex-col gap-3">
              {sessions.map((s) => (
                <SessionCard key={s.SessionId} session={s} />
              ))}
            </ul>
          </>
        )}
      </section>
    </>
  );
}
