import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n.ts';
import { MAX_NEARBY_RADIUS_M, type Zone } from '@parkit/contract';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { useNearbyZones } from '../api/get-nearby-zones.ts';
import { useSearchZones } from '../api/search-zones.ts';
import { useDebouncedValue } from '../hooks/use-debounced-value.ts';
import { useDriverPosition } from '../hooks/use-driver-position.ts';
import { formatDistance } from '../lib/zone-format.ts';
import { PositionNotice } from './position-notice.tsx';
import { ViewToggle } from './view-toggle.tsx';
import { ZoneList } from './zone-list.tsx';
import { ZoneSearch } from './zone-search.tsx';
import { ZoneSheet } from './zone-sheet-lazy.tsx';

/** Search radii a driver can widen to when nothing is close (the server allows up to 10 km). */
const RADII = [2_000, 5_000, MAX_NEARBY_RADIUS_M] as const;
const NEARBY_LIMIT = 30;

/** /findparking: the zones nearest the driver, or those matching a zone number or an address. */
export function FindParkingScreen() {
  const { t } = useTranslation();
  const driver = useDriverPosition();
  const position = driver.status === 'device' || driver.status === 'fallback' ? driver.position : null;
  const [text, setText] = useState('');
  const q = useDebouncedValue(text.trim(), 300);
  const [step, setStep] = useState(0);
  const radius = RADII[step] ?? RADII[0];
  const wider = RADII[step + 1];
  const [open, setOpen] = useState<Zone | null>(null);

  const searching = q.length > 0;
  const nearby = useNearbyZones(position && !searching ? { ...position, radius, limit: NEARBY_LIMIT } : null);
  const search = useSearchZones({ q, near: position });
  const active = searching ? search : nearby;
  const radiusText = formatDistance(radius, t) ?? '';
  const widen = wider && (
    <button
      type="button"
      onClick={() => setStep(step + 1)}
      className="mx-auto mt-3 block min-h-11 text-sm font-semibold text-brand-700 underline underline-offset-2"
    >
      {t('Search within {{distance}}', { distance: formatDistance(wider, t) ?? '' })}
    </button>
  );

  const heading = searching
    ? t('Results for “{{q}}”', { q })
    : driver.status === 'fallback'
      ? t('Zones near the centre of {{city}}', { city: driver.operator.City })
      : t('Zones near you');

  return (
    <main className="flex flex-1 flex-col bg-slate-50">
      <PageHeader title={t('Find Parking')} action={<ViewToggle to="map" />} />
      <div className="flex flex-col gap-3 p-4">
        <ZoneSearch value={text} onChange={setText} />
        <p className="-mt-1 text-xs text-slate-600">{t('The zone number is on the parking sign or meter.')}</p>
        <PositionNotice driver={driver} />
        {driver.status === 'locating' && !searching && <Skeleton rows={4} className="h-24" />}
        {(position || searching) && (
          <section aria-labelledby="zones-heading" className="flex flex-col gap-2">
            <h2 id="zones-heading" className="text-sm font-semibold text-slate-700">
              {heading}
            </h2>
            <ZoneList
              zones={active.data}
              loading={active.isFetching || active.isPending}
              failed={active.isError}
              onRetry={() => void active.refetch()}
              onOpen={setOpen}
              footer={!searching && active.data && active.data.length < NEARBY_LIMIT ? widen : undefined}
              empty={
                searching ? (
                  <>
                    <p className="font-semibold">{t('No zone matches “{{q}}”.', { q })}</p>
                    <p className="mt-1">{t('Check the zone number on the parking sign, or try a street name.')}</p>
                  </>
                ) : (
                  <>
                    <p className="font-semibold">{t('No zones within {{distance}}.', { distance: radiusText })}</p>
                    <p className="mt-1">
                      {wider
                        ? t('Widen the search, or search by zone number or address.')
                        : t('Search by zone number or address.')}
                    </p>
                    {widen}
                  </>
                )
              }
            />
          </section>
        )}
      </div>
      <ZoneSheet zone={open} onClose={() => setOpen(null)} />
    </main>
  );
}
