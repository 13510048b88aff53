import 'leaflet/dist/leaflet.css';
import { useEffect, useMemo, useRef, useState } from 'react';
import L from 'leaflet';
import Supercluster from 'supercluster';
import { MapContainer, Marker, TileLayer, useMap, useMapEvents, type MarkerProps } from 'react-leaflet';
import { useTranslation } from 'react-i18next';
import type { Zone } from '@parkit/contract';
import { env } from '../../../config/env.ts';
import type { LatLng } from '../lib/position.ts';

const ATTRIBUTION = '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors';
/** Street level: the two sides of a block are told apart, a few blocks around are in view. */
const ZOOM = 17;
/**
 * Below street level the zone labels crowd (100+ drawn over each other, issue 7): they are
 * grouped into one marker per cluster (supercluster), which zooms in when tapped. From ZOOM on,
 * every zone has its own marker.
 */
const CLUSTER_UNTIL_ZOOM = ZOOM - 1;
const CLUSTER_RADIUS_PX = 48;

/** A cluster: how many zones, drawn like a zone marker but round. */
function clusterIcon(count: number): L.DivIcon {
  const size = count < 10 ? 36 : count < 100 ? 42 : 48;
  return L.divIcon({
    className: 'zone-cluster',
    html: `<span class="flex size-full items-center justify-center rounded-full border-2 border-white bg-brand-800 text-sm font-extrabold text-white tabular-nums shadow-md ring-4 ring-brand-700/30">${count}</span>`,
    iconSize: [size, size],
    iconAnchor: [size / 2, size / 2],
  });
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A zone marker drawn in HTML (no image assets): the zone number, as on the street sign. */
function zoneIcon(number: string, selected: boolean): L.DivIcon {
  return L.divIcon({
    className: 'zone-marker',
    html: `<span class="flex size-full items-center justify-center"><span class="${selected ? 'bg-amber-400 text-slate-900 ring-amber-600 scale-110' : 'bg-brand-700 text-white ring-brand-800'} inline-block rounded-md border-2 border-white px-1.5 py-0.5 text-xs font-extrabold tabular-nums shadow-md ring-1">${escapeHtml(number)}</span></span>`,
    iconSize: [48, 26],
    iconAnchor: [24, 13],
  });
}

const driverIcon = (device: boolean) =>
  L.divIcon({
    className: 'driver-marker',
    html: device
      ? '<span class="block size-5 rounded-full border-[3px] border-white bg-blue-600 shadow-[0_0_0_6px_rgba(37,99,235,0.25)]"></span>'
      : '<span class="block size-5 rotate-45 rounded-sm border-[3px] border-white bg-slate-700 shadow-md"></span>',
    iconSize: [20, 20],
    iconAnchor: [10, 10],
  });

/**
 * Leaflet builds the marker's element itself; this names it for screen readers (and Playwright).
 * The marker is on the map by the time this effect runs (children's effects run first), and a
 * DivIcon reuses its element when the icon changes, so the name survives selection.
 */
function LabelledMarker({ label, role = 'button', ...props }: MarkerProps & { label: string; role?: string }) {
  const ref = useRef<L.Marker>(null);
  useEffect(() => {
    const el = ref.current?.getElement();
    el?.setAttribute('aria-label', label);
    el?.setAttribute('role', role);
  }, [label, role, props.icon]);
  return <Marker ref={ref} {...props} />;
}

/** Follows a new centre (the device answered after a fallback, or "my position"). */
function Recenter({ center, token }: { center: LatLng; token: number }) {
  const map = useMap();
  useEffect(() => {
    map.setView([center.lat, center.lng], map.getZoom());
  }, [map, center.lat, center.lng, token]);
  return null;
}

/** Reports where the driver moved the map, with the radius that covers the visible area. */
function MoveWatcher({ onMoved }: { onMoved: (center: LatLng, radius: number) => void }) {
  const map = useMapEvents({
    moveend: () => {
      const c = map.getCenter();
      onMoved({ lat: c.lat, lng: c.lng }, map.distance(c, map.getBounds().getNorthEast()));
    },
  });
  return null;
}

type ZonePoint = { zone: Zone; rank: number };

/** The map's view, followed so the clusters match what is on screen. */
function useView() {
  const map = useMap();
  const read = () => ({ zoom: map.getZoom(), bounds: map.getBounds() });
  const [view, setView] = useState(read);
  useMapEvents({ moveend: () => setView(read()), zoomend: () => setView(read()) });
  return { map, ...view };
}

/** The zones, one marker each at street level, in clusters when zoomed out (the chosen one never). */
function ZoneMarkers({
  zones,
  selectedId,
  icons,
  onSelect,
}: {
  zones: Zone[];
  selectedId: number | null;
  icons: Map<number, L.DivIcon>;
  onSelect: (zone: Zone) => void;
}) {
  const { t } = useTranslation();
  const { map, zoom, bounds } = useView();
  const index = useMemo(() => {
    const sc = new Supercluster<ZonePoint>({ radius: CLUSTER_RADIUS_PX, maxZoom: CLUSTER_UNTIL_ZOOM });
    sc.load(
      zones
        .map((zone, rank) => ({ zone, rank }))
        .filter(({ zone }) => zone.ZoneId !== selectedId)
        .map((p) => ({ type: 'Feature' as const, geometry: { type: 'Point' as const, coordinates: [p.zone.Longitude, p.zone.Latitude] }, properties: p })),
    );
    return sc;
  }, [zones, selectedId]);
  const box: [number, number, number, number] = [bounds.getWest(), bounds.getSouth(), bounds.getEast(), bounds.getNorth()];
  const items = index.getClusters(box, Math.round(zoom));
  const selected = zones.findIndex((z) => z.ZoneId === selectedId);
  const singles: ZonePoint[] = items.flatMap((f) => ('cluster' in f.properties ? [] : [f.properties as ZonePoint]));
  if (selected >= 0) singles.push({ zone: zones[selected]!, rank: selected });

  return (
    <>
      {items.map((f) => {
        if (!('cluster' in f.properties)) return null;
        const { cluster_id: id, point_count: count } = f.properties;
        const [lng, lat] = f.geometry.coordinates as [number, number];
        const open = () => map.setView([lat, lng], Math.min(index.getClusterExpansionZoom(id), ZOOM));
        return (
          <LabelledMarker
            key={`c${id}`}
            label={t('{{count}} zones here: zoom in', { count })}
            position={[lat, lng]}
            icon={clusterIcon(count)}
            eventHandlers={{
              click: open,
              keydown: (e: L.LeafletEvent) => {
                const key = (e as L.LeafletKeyboardEvent).originalEvent;
                if (key.key !== 'Enter' && key.key !== ' ') return;
                key.preventDefault();
                open();
              },
            }}
          />
        );
      })}
      {singles.map(({ zone: z, rank }) => (
        <LabelledMarker
          key={z.ZoneId}
          label={t('Zone {{number}}', { number: z.ZoneNumber })}
          position={[z.Latitude, z.Longitude]}
          icon={icons.get(z.ZoneId)!}
          // Zones across a street overlap at street zoom: the nearer one (the list comes nearest
          // first) is drawn on top, the chosen one above all.
          zIndexOffset={z.ZoneId === selectedId ? 1_000_000 : (zones.length - rank) * 1000}
          eventHandlers={{
            click: () => onSelect(z),
            // Leaflet gives markers a tab stop but no keyboard activation. preventDefault stops the
            // keypress that would otherwise land on the card's first button and close it at once.
            keydown: (e: L.LeafletEvent) => {
              const key = (e as L.LeafletKeyboardEvent).originalEvent;
              if (key.key !== 'Enter' && key.key !== ' ') return;
              key.preventDefault();
              onSelect(z);
            },
          }}
        />
      ))}
    </>
  );
}

export interface ZoneMapProps {
  center: LatLng;
  /** Bump to bring the map back to `center` after the driver panned away. */
  recenterToken: number;
  driver: { position: LatLng; device: boolean };
  zones: Zone[];
  selectedId: number | null;
  onSelect: (zone: Zone) => void;
  onMoved: (center: LatLng, radius: number) => void;
}

/** Leaflet map: the driver and the zones around. Tiles are decoration: offline, markers still work. */
export function ZoneMap({ center, recenterToken, driver, zones, selectedId, onSelect, onMoved }: ZoneMapProps) {
  const { t } = useTranslation();
  const meIcon = useMemo(() => driverIcon(driver.device), [driver.device]);
  const icons = useMemo(() => new Map(zones.map((z) => [z.ZoneId, zoneIcon(z.ZoneNumber, z.ZoneId === selectedId)])), [zones, selectedId]);
  return (
    <MapContainer center={[center.lat, center.lng]} zoom={ZOOM} className="size-full" attributionControl>
      <TileLayer url={env.VITE_MAP_TILE_URL} attribution={ATTRIBUTION} />
      <Recenter center={center} token={recenterToken} />
      <MoveWatcher onMoved={onMoved} />
      <LabelledMarker
        position={[driver.position.lat, driver.position.lng]}
        icon={meIcon}
        interactive={false}
        keyboard={false}
        // Above the zones so the driver always sees it; not interactive, so taps go through it.
        zIndexOffset={2_000_000}
        label={driver.device ? t('Your position') : t('City centre')}
        role="img"
      />
      <ZoneMarkers zones={zones} selectedId={selectedId} icons={icons} onSelect={onSelect} />
    </MapContainer>
  );
}
