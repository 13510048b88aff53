import { lazy, Suspense, useState } from 'react';
import LocateFixed from 'lucide-react/icons/locate-fixed';
import RefreshCw from 'lucide-react/icons/refresh-cw';
import Search from 'lucide-react/icons/search';
import { useTranslation } from '../../../lib/i18n.ts';
import { MAX_NEARBY_RADIUS_M, type Zone } from '@parkit/contract';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { useNearbyZones } from '../api/get-nearby-zones.ts';
import { useDriverPosition } from '../hooks/use-driver-position.ts';
import { distanceMeters, type LatLng } from '../lib/position.ts';
import { PositionNotice } from './position-notice.tsx';
import { ViewToggle } from './view-toggle.tsx';
import { ZoneSheet } from './zone-sheet-lazy.tsx';

// Leaflet is the heaviest part of the app: only the map screen loads it.
const ZoneMap = lazy(() => import('./zone-map.tsx').then((m) => ({ default: m.ZoneMap })));

const MAP_LIMIT = 100;
/** About what zoom 17 shows on a phone; "Search this area" covers more after zooming out. */
const START_RADIUS = 800;
const clampRadius = (r: number) => Math.round(Math.min(MAX_NEARBY_RADIUS_M, Math.max(300, r)));

interface Area {
  center: LatLng;
  radius: number;
}

const pill =
  'pointer-events-auto inline-flex min-h-10 items-center gap-2 rounded-full bg-white px-4 text-sm font-semibold shadow-lg ring-1 ring-slate-200';

/** /findParkingMap: the zones around the driver as markers; a tapped marker opens its card. */
export function FindParkingMapScreen() {
  const { t } = useTranslation();
  const driver = useDriverPosition();
  const position = driver.status === 'device' || driver.status === 'fallback' ? driver.position : null;
  const [area, setArea] = useState<Area | null>(null);
  const [moved, setMoved] = useState<Area | null>(null);
  const [recenter, setRecenter] = useState(0);
  const [selected, setSelected] = useState<Zone | null>(null);

  const query: Area | null = area ?? (position && { center: position, radius: START_RADIUS });
  const nearby = useNearbyZones(query && { ...query.center, radius: query.radius, limit: MAP_LIMIT });
  // "Search this area" once the driver has panned away from, or zoomed out past, what the markers cover.
  const canSearchHere =
    moved &&
    query &&
    (distanceMeters(moved.center, query.center) > Math.max(200, query.radius / 3) || moved.radius > query.radius * 1.5);

  return (
    <main className="flex flex-1 flex-col">
      <PageHeader title={t('Find Parking')} action={<ViewToggle to="list" />} />
      {driver.status !== 'device' && (
        <div className="p-3">
          <PositionNotice driver={driver} compact={driver.status !== 'locating'} />
        </div>
      )}
      <div className="relative isolate min-h-80 flex-1 bg-slate-200">
        {position && (
          <div className="absolute inset-0">
            <Suspense fallback={null}>
              <ZoneMap
                center={position}
                recenterToken={recenter}
                driver={{ position, device: driver.status === 'device' }}
                zones={nearby.data ?? []}
                selectedId={selected?.ZoneId ?? null}
                onSelect={setSelected}
                onMoved={(center, radius) => setMoved({ center, radius: clampRadius(radius) })}
              />
            </Suspense>
          </div>
        )}
        <div
          className="pointer-events-none absolute inset-x-0 top-3 z-[1000] flex flex-col items-center gap-2"
          aria-live="polite"
        >
          {canSearchHere && (
            <button type="button" className={`${pill} text-brand-800`} onClick={() => setArea(moved)}>
              <Search className="size-4" aria-hidden />
              {t('Search this area')}
            </button>
          )}
          {nearby.isFetching && <span className={`${pill} text-slate-700`}>{t('Loading zones…')}</span>}
          {nearby.isError && !nearby.isFetching && (
            <button type="button" className={`${pill} text-red-800`} onClick={() => void nearby.refetch()}>
              <RefreshCw className="size-4" aria-hidden />
              {t('The zones could not be loaded.')} {t('Try again')}
            </button>
          )}
          {nearby.data?.length === 0 && !nearby.isFetching && (
            <span className={`${pill} text-slate-700`}>
              {t('No zones in this area. Move the map or search by zone number in the list.')}
            </span>
          )}
        </div>
        {position && (
          <button
            type="button"
            aria-label={driver.status === 'device' ? t('Back to my position') : t('Back to the city centre')}
            onClick={() => {
              setArea(null);
              setMoved(null);
              setRecenter((n) => n + 1);
            }}
            className="absolute inset-e-3 bottom-8 z-[1000] grid size-12 place-items-center rounded-full bg-white text-brand-800 shadow-lg ring-1 ring-slate-200 hover:bg-brand-50"
          >
            <LocateFixed className="size-5" aria-hidden />
          </button>
        )}
      </div>
      <ZoneSheet zone={selected} onClose={() => setSelected(null)} />
    </main>
  );
}
