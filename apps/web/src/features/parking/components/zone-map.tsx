import 'leaflet/dist/leaflet.css';
import { useEffect, useMemo, useRef, useState } from 'react';
import L from 'leaflet';
import { MapContainer, Marker, Popup, TileLayer, useMap, useMapEvents, type MarkerProps } from 'react-leaflet';
import { useTranslation } from '../../../lib/i18n.ts';
import type { Zone } from '@parkit/contract';
import { env } from '../../../config/env.ts';
import type { LatLng } from '../lib/position.ts';
import { groupSize, MAX_ZOOM, markerIndex, spots, ZONE_LABEL } from '../lib/marker-layout.ts';

const ATTRIBUTION = '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors';
/** Street level: the two sides of a block are told apart, a few blocks around are in view. */
const ZOOM = 17;

/** A cluster: how many zones, drawn like a zone marker but round. */
function clusterIcon(count: number): L.DivIcon {
  const size = groupSize(count).w;
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
    iconSize: [ZONE_LABEL.w, ZONE_LABEL.h],
    iconAnchor: [ZONE_LABEL.w / 2, ZONE_LABEL.h / 2],
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

/** The map's zoom, followed so the groups match what is on screen. */
function useZoom() {
  const map = useMap();
  const [zoom, setZoom] = useState(() => map.getZoom());
  useMapEvents({ zoomend: () => setZoom(map.getZoom()) });
  return { map, zoom };
}

const onEnter = (act: (e: L.LeafletEvent) => void) => (e: L.LeafletEvent) => {
  const key = (e as L.LeafletKeyboardEvent).originalEvent;
  if (key.key !== 'Enter' && key.key !== ' ') return;
  key.preventDefault();
  act(e);
};

/**
 * The zones, never one label over another (lib/marker-layout.ts): zones whose labels would touch
 * are one group marker at any zoom; a group zooms in to its zones when tapped, and at the deepest
 * zoom (zones on one spot) it lists them to choose from. The chosen zone is always drawn.
 */
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
  const { map, zoom } = useZoom();
  const byId = useMemo(() => new Map(zones.map((z, rank) => [z.ZoneId, { zone: z, rank }])), [zones]);
  const index = useMemo(
    () => markerIndex(zones.map((z) => ({ id: z.ZoneId, lat: z.Latitude, lng: z.Longitude }))),
    [zones],
  );
  const chosen = selectedId === null ? undefined : byId.get(selectedId)?.zone;
  const list = spots(index, zoom, chosen ? { id: chosen.ZoneId, lat: chosen.Latitude, lng: chosen.Longitude } : null);
  const deepest = zoom >= MAX_ZOOM;

  return (
    <>
      {list.map((spot) => {
        const members = spot.ids.flatMap((id) => byId.get(id) ?? []).sort((a, b) => a.rank - b.rank);
        if (members.length > 1) {
          const count = members.length;
          const open = () =>
            map.fitBounds(L.latLngBounds(members.map(({ zone: z }) => [z.Latitude, z.Longitude])), {
              maxZoom: MAX_ZOOM,
            });
          return (
            <LabelledMarker
              key={`g${spot.ids.join('-')}`}
              label={
                deepest
                  ? t('{{count}} zones here: choose one', { count })
                  : t('{{count}} zones here: zoom in', { count })
              }
              position={[spot.lat, spot.lng]}
              icon={clusterIcon(count)}
              eventHandlers={
                deepest
                  ? { keydown: onEnter((e) => (e.target as L.Marker).openPopup()) }
                  : { click: open, keydown: onEnter(open) }
              }
            >
              {deepest && (
                <Popup>
                  <ul className="flex flex-col gap-1">
                    {members.map(({ zone: z }) => (
                      <li key={z.ZoneId}>
                        <button
                          type="button"
                          className="min-h-11 w-full rounded-lg px-3 text-start font-semibold text-brand-800 hover:bg-brand-50"
                          onClick={() => {
                            map.closePopup();
                            onSelect(z);
                          }}
                        >
                          {t('Zone {{number}}', { number: z.ZoneNumber })}
                        </button>
                      </li>
                    ))}
                  </ul>
                </Popup>
              )}
            </LabelledMarker>
          );
        }
        const { zone: z, rank } = members[0]!;
        return (
          <LabelledMarker
            key={z.ZoneId}
            label={t('Zone {{number}}', { number: z.ZoneNumber })}
            position={[z.Latitude, z.Longitude]}
            icon={icons.get(z.ZoneId)!}
            // Nearer zones (the list comes nearest first) above, the chosen one above all.
            zIndexOffset={z.ZoneId === selectedId ? 1_000_000 : (zones.length - rank) * 1000}
            eventHandlers={{
              click: () => onSelect(z),
              // Leaflet gives markers a tab stop but no keyboard activation. preventDefault stops the
              // keypress that would otherwise land on the card's first button and close it at once.
              keydown: onEnter(() => onSelect(z)),
            }}
          />
        );
      })}
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
  const icons = useMemo(
    () => new Map(zones.map((z) => [z.ZoneId, zoneIcon(z.ZoneNumber, z.ZoneId === selectedId)])),
    [zones, selectedId],
  );
  return (
    <MapContainer
      center={[center.lat, center.lng]}
      zoom={ZOOM}
      maxZoom={MAX_ZOOM}
      className="size-full"
      attributionControl
    >
      <TileLayer url={env.VITE_MAP_TILE_URL} attribution={ATTRIBUTION} maxZoom={MAX_ZOOM} />
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
