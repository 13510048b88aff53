import 'leaflet/dist/leaflet.css';
import { useEffect, useRef, useState } from 'react';
import L from 'leaflet';
import { CircleMarker, MapContainer, Marker, Polygon, Polyline, TileLayer, useMap, useMapEvents } from 'react-leaflet';
import type { ZoneCurb } from '@parkit/contract';
import { useTranslation } from '../../../lib/i18n.ts';
import { env } from '../../../config/env.ts';
import { Button } from '../../../components/ui/button.tsx';
import { curbOf, verticesOf, type CurbKind, type LngLat } from '../lib/curb.ts';

const ATTRIBUTION = '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors';
const MAX_ZOOM = 19;

export interface LatLng {
  lat: number;
  lng: number;
}

/** The zone's point: drawn in HTML, as the driver's map draws zones (no image assets). */
const pointIcon = L.divIcon({
  className: 'zone-point',
  html: '<span class="block size-6 rounded-full border-[3px] border-white bg-brand-700 shadow-md ring-2 ring-brand-800"></span>',
  iconSize: [24, 24],
  iconAnchor: [12, 12],
});

type Mode = 'point' | CurbKind;

/** Clicks on the map: the point, or the curb's next vertex, by the mode chosen. */
function Clicks({ onClick }: { onClick: (at: LatLng) => void }) {
  useMapEvents({ click: (e) => onClick({ lat: e.latlng.lat, lng: e.latlng.lng }) });
  return null;
}

/** Brings a point typed in the fields into view. */
function FollowPoint({ point }: { point: LatLng | null }) {
  const map = useMap();
  useEffect(() => {
    if (!point) return;
    // From the world view (a new zone), a typed point opens at street level; else it is brought into view.
    if (map.getZoom() < 12) map.setView([point.lat, point.lng], 17);
    else map.panInside([point.lat, point.lng], { padding: [40, 40] });
  }, [map, point]);
  return null;
}

/**
 * The zone on a map (docs/decisions/015-zone-drawing.md): a click places the point, or, while a
 * curb is being drawn, adds the curb's next vertex; the marker can be dragged. With the keyboard,
 * the arrow keys move the map and "Use the map's centre" takes the point or vertex under the
 * cross-hair. Read-only: the zone is shown, nothing reacts.
 */
export function ZoneMapEditor({
  point,
  curb,
  editable,
  onPoint,
  onCurb,
}: {
  point: LatLng | null;
  curb: ZoneCurb | null;
  editable: boolean;
  onPoint: (at: LatLng) => void;
  onCurb: (curb: ZoneCurb | null) => void;
}) {
  const { t } = useTranslation();
  const [mode, setMode] = useState<Mode>('point');
  const [vertices, setVertices] = useState<LngLat[]>(() => verticesOf(curb));
  const [start] = useState<LatLng | null>(point);
  const mapRef = useRef<L.Map | null>(null);
  const drawnKind: CurbKind | null = mode === 'point' ? (curb?.type ?? null) : mode;

  const addVertex = (at: LatLng) => {
    if (mode === 'point') return onPoint(at);
    const next = [...vertices, [at.lng, at.lat] as LngLat];
    setVertices(next);
    onCurb(curbOf(mode, next));
  };
  const begin = (kind: CurbKind) => {
    setMode(kind);
    setVertices([]);
    onCurb(null);
  };
  const undo = () => {
    const next = vertices.slice(0, -1);
    setVertices(next);
    onCurb(drawnKind ? curbOf(drawnKind, next) : null);
  };
  const clear = () => {
    setMode('point');
    setVertices([]);
    onCurb(null);
  };
  const useCentre = () => {
    const c = mapRef.current?.getCenter();
    if (c) addVertex({ lat: c.lat, lng: c.lng });
  };
  const positions = vertices.map(([lng, lat]) => [lat, lng] as [number, number]);
  const hint =
    mode === 'point'
      ? t('Click the map to place the zone’s point, or type its latitude and longitude.')
      : mode === 'LineString'
        ? t('Click the map along the curb, one point at a time ({{count}} so far).', { count: vertices.length })
        : t('Click the map around the area, one corner at a time ({{count}} so far).', { count: vertices.length });

  return (
    <div className="flex flex-col gap-2">
      {editable && (
        <div className="flex flex-wrap gap-2" role="group" aria-label={t('Drawing')}>
          <Button
            size="sm"
            variant={mode === 'point' ? 'primary' : 'secondary'}
            aria-pressed={mode === 'point'}
            onClick={() => setMode('point')}
          >
            {t('Place the point')}
          </Button>
          <Button
            size="sm"
            variant={mode === 'LineString' ? 'primary' : 'secondary'}
            aria-pressed={mode === 'LineString'}
            onClick={() => begin('LineString')}
          >
            {t('Draw a curb line')}
          </Button>
          <Button
            size="sm"
            variant={mode === 'Polygon' ? 'primary' : 'secondary'}
            aria-pressed={mode === 'Polygon'}
            onClick={() => begin('Polygon')}
          >
            {t('Draw an area')}
          </Button>
          <Button size="sm" variant="ghost" onClick={useCentre}>
            {t('Use the map’s centre')}
          </Button>
          {mode !== 'point' && vertices.length > 0 && (
            <Button size="sm" variant="ghost" onClick={undo}>
              {t('Undo the last point')}
            </Button>
          )}
          {(curb !== null || vertices.length > 0) && (
            <Button size="sm" variant="ghost" onClick={clear}>
              {t('Remove the curb')}
            </Button>
          )}
        </div>
      )}
      {editable && (
        <p className="text-sm text-slate-600" aria-live="polite">
          {hint}
        </p>
      )}
      <div
        role="region"
        aria-label={t('Map of the zone')}
        className="relative h-80 overflow-hidden rounded-xl ring-1 ring-slate-200 md:h-[28rem]"
      >
        <MapContainer
          center={start ? [start.lat, start.lng] : [20, 0]}
          zoom={start ? 17 : 2}
          maxZoom={MAX_ZOOM}
          ref={mapRef}
          className={`size-full ${editable ? 'cursor-crosshair' : ''}`}
        >
          <TileLayer url={env.VITE_MAP_TILE_URL} attribution={ATTRIBUTION} maxZoom={MAX_ZOOM} />
          <FollowPoint point={point} />
          {editable && <Clicks onClick={addVertex} />}
          {point && (
            <Marker
              position={[point.lat, point.lng]}
              icon={pointIcon}
              draggable={editable}
              keyboard={false}
              eventHandlers={{
                dragend: (e) => {
                  const at = (e.target as L.Marker).getLatLng();
                  onPoint({ lat: at.lat, lng: at.lng });
                },
              }}
            />
          )}
          {drawnKind === 'Polygon' && positions.length >= 3 ? (
            <Polygon positions={positions} pathOptions={{ color: '#0f766e' }} />
          ) : (
            positions.length >= 2 && <Polyline positions={positions} pathOptions={{ color: '#0f766e', weight: 5 }} />
          )}
          {editable &&
            positions.map((p, i) => (
              <CircleMarker key={i} center={p} radius={5} pathOptions={{ color: '#0f766e', fillOpacity: 1 }} />
            ))}
        </MapContainer>
        {editable && (
          <span
            aria-hidden
            className="pointer-events-none absolute inset-0 z-[400] m-auto size-5 rounded-full border-2 border-slate-900/60"
          />
        )}
      </div>
    </div>
  );
}
