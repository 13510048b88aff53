import 'leaflet/dist/leaflet.css';
import { useEffect, useMemo, useState } from 'react';
import L from 'leaflet';
import Supercluster from 'supercluster';
import { MapContainer, Marker, TileLayer, useMap, useMapEvents, type MarkerProps } from 'react-leaflet';
import { useTranslation } from '../../../lib/i18n.ts';
import type { PastSession } from '@parkit/contract';
import { env } from '../../../config/env.ts';
import { sessionWhen } from '../lib/session-format.ts';

const ATTRIBUTION = '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors';
/** Sessions crowd (the same zones, again and again): grouped below street zoom, as Find Parking's map does (supercluster). */
const MAX_ZOOM = 18;
const CLUSTER_UNTIL_ZOOM = 16;
const CLUSTER_RADIUS_PX = 48;
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A session marker drawn in HTML (no image to load, so it shows without tiles): the zone number. */
const sessionIcon = (zone: string) =>
  L.divIcon({
    className: 'session-marker',
    html: `<span class="flex size-full items-center justify-center"><span class="inline-block rounded-md border-2 border-white bg-brand-700 px-1.5 py-0.5 text-xs font-extrabold text-white tabular-nums shadow-md ring-1 ring-brand-800">${escapeHtml(zone)}</span></span>`,
    iconSize: [48, 26],
    iconAnchor: [24, 13],
  });

/**
 * One icon per count, made once: a new icon on every render (each pan or zoom renders) makes
 * Leaflet replace the marker's element, which loses keyboard focus and a tap in progress.
 */
const clusterIcons = new Map<number, L.DivIcon>();
function clusterIcon(count: number): L.DivIcon {
  let icon = clusterIcons.get(count);
  if (!icon) {
    icon = makeClusterIcon(count);
    clusterIcons.set(count, icon);
  }
  return icon;
}

function makeClusterIcon(count: number): L.DivIcon {
  const size = count < 10 ? 36 : count < 100 ? 42 : 48;
  return L.divIcon({
    className: 'session-cluster',
    html: `<span class="flex size-full items-center justify-center rounded-full border-2 border-white bg-brand-800 text-sm font-extrabold text-white tabular-nums shadow-md ring-4 ring-brand-700/30">${count}</span>`,
    iconSize: [size, size],
    iconAnchor: [size / 2, size / 2],
  });
}

/** Leaflet makes the marker's element (anew each time it is added): it is named for screen readers on every 'add'. */
function LabelledMarker({
  label,
  role,
  onOpen,
  ...props
}: MarkerProps & { label: string; role: string; onOpen: () => void }) {
  return (
    <Marker
      {...props}
      eventHandlers={{
        add: (e: L.LeafletEvent) => {
          const el = (e.target as L.Marker).getElement();
          el?.setAttribute('aria-label', label);
          el?.setAttribute('role', role);
        },
        click: onOpen,
        // Leaflet gives markers a tab stop but no keyboard activation.
        keydown: (e: L.LeafletEvent) => {
          const key = (e as L.LeafletKeyboardEvent).originalEvent;
          if (key.key !== 'Enter' && key.key !== ' ') return;
          key.preventDefault();
          onOpen();
        },
      }}
    />
  );
}

/** Shows every session: the view fits their bounds whenever the set changes. */
function FitBounds({ points }: { points: [number, number][] }) {
  const map = useMap();
  const key = points.map((p) => p.join(',')).join(';');
  useEffect(() => {
    if (points.length === 0) return;
    map.fitBounds(L.latLngBounds(points), { padding: [32, 32], maxZoom: CLUSTER_UNTIL_ZOOM + 1 });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the key stands for the points
  }, [map, key]);
  return null;
}

/**
 * Sessions at one zone share its position: at full zoom they are spread on a small ring (a few
 * metres) so that each one can be tapped.
 */
function spread(sessions: PastSession[]): Map<number, [number, number]> {
  const at = new Map<string, PastSession[]>();
  for (const s of sessions) {
    const k = `${s.Latitude},${s.Longitude}`;
    at.set(k, [...(at.get(k) ?? []), s]);
  }
  const out = new Map<number, [number, number]>();
  for (const group of at.values()) {
    group.forEach((s, i) => {
      if (group.length === 1) return out.set(s.SessionId, [s.Latitude, s.Longitude]);
      const angle = (2 * Math.PI * i) / group.length;
      const metres = 6 + group.length;
      const dLat = (metres * Math.cos(angle)) / 111_320;
      const dLng = (metres * Math.sin(angle)) / (111_320 * Math.cos((s.Latitude * Math.PI) / 180));
      out.set(s.SessionId, [s.Latitude + dLat, s.Longitude + dLng]);
    });
  }
  return out;
}

function SessionMarkers({ sessions, onOpen }: { sessions: PastSession[]; onOpen: (id: number) => void }) {
  const { t } = useTranslation();
  const map = useMap();
  const read = () => ({ zoom: map.getZoom(), bounds: map.getBounds() });
  const [view, setView] = useState(read);
  useMapEvents({ moveend: () => setView(read()), zoomend: () => setView(read()) });
  const positions = useMemo(() => spread(sessions), [sessions]);
  const index = useMemo(() => {
    const sc = new Supercluster<{ session: PastSession }>({ radius: CLUSTER_RADIUS_PX, maxZoom: CLUSTER_UNTIL_ZOOM });
    sc.load(
      sessions.map((session) => {
        const [lat, lng] = positions.get(session.SessionId)!;
        return {
          type: 'Feature' as const,
          geometry: { type: 'Point' as const, coordinates: [lng, lat] },
          properties: { session },
        };
      }),
    );
    return sc;
  }, [sessions, positions]);
  const icons = useMemo(() => new Map(sessions.map((s) => [s.SessionId, sessionIcon(s.ZoneNumber)])), [sessions]);
  const b = view.bounds;
  const items = index.getClusters([b.getWest(), b.getSouth(), b.getEast(), b.getNorth()], Math.round(view.zoom));
  return (
    <>
      {items.map((f) => {
        const [lng, lat] = f.geometry.coordinates as [number, number];
        if ('cluster' in f.properties) {
          const { cluster_id: id, point_count: count } = f.properties;
          return (
            <LabelledMarker
              key={`c${id}`}
              role="button"
              label={t('{{count}} sessions here: zoom in', { count })}
              position={[lat, lng]}
              icon={clusterIcon(count)}
              onOpen={() => map.setView([lat, lng], Math.min(index.getClusterExpansionZoom(id), MAX_ZOOM))}
            />
          );
        }
        const s = f.properties.session;
        return (
          <LabelledMarker
            key={s.SessionId}
            role="link"
            label={t('Session {{id}}, zone {{zone}}, {{when}}', {
              id: s.SessionId,
              zone: s.ZoneNumber,
              when: sessionWhen(s),
            })}
            position={[lat, lng]}
            icon={icons.get(s.SessionId)!}
            onOpen={() => onOpen(s.SessionId)}
          />
        );
      })}
    </>
  );
}

export interface SessionsMapProps {
  sessions: PastSession[];
  centre: { lat: number; lng: number };
  onOpen: (id: number) => void;
}

/** Leaflet map of the sessions, clustered where they crowd. Tiles are decoration: offline, markers still work. */
export function SessionsMap({ sessions, centre, onOpen }: SessionsMapProps) {
  const points = useMemo(() => sessions.map((s) => [s.Latitude, s.Longitude] as [number, number]), [sessions]);
  return (
    <MapContainer
      center={[centre.lat, centre.lng]}
      zoom={13}
      maxZoom={MAX_ZOOM}
      className="size-full"
      attributionControl
    >
      <TileLayer url={env.VITE_MAP_TILE_URL} attribution={ATTRIBUTION} maxZoom={MAX_ZOOM} />
      <FitBounds points={points} />
      <SessionMarkers sessions={sessions} onOpen={onOpen} />
    </MapContainer>
  );
}
