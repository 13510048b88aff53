import 'leaflet/dist/leaflet.css';
import 'react-leaflet-cluster/dist/assets/MarkerCluster.css';
import 'react-leaflet-cluster/dist/assets/MarkerCluster.Default.css';
import { useEffect, useMemo } from 'react';
import L from 'leaflet';
import { MapContainer, Marker, TileLayer, useMap } from 'react-leaflet';
import MarkerClusterGroup from 'react-leaflet-cluster';
import { useTranslation } from 'react-i18next';
import type { PastSession } from '@parkit/contract';
import { env } from '../../../config/env.ts';
import { sessionWhen } from '../lib/session-format.ts';

const ATTRIBUTION = '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors';
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A session marker drawn in HTML (no image to load): the zone number, as on the street sign. */
const sessionIcon = (zone: string) =>
  L.divIcon({
    className: 'session-marker',
    html: `<span class="flex size-full items-center justify-center"><span class="inline-block rounded-md border-2 border-white bg-brand-700 px-1.5 py-0.5 text-xs font-extrabold text-white tabular-nums shadow-md ring-1 ring-brand-800">${escapeHtml(zone)}</span></span>`,
    iconSize: [48, 26],
    iconAnchor: [24, 13],
  });

/**
 * Leaflet makes the marker's element, and the cluster group makes it anew each time the marker
 * comes out of a cluster: it is named for screen readers (and tests) on every 'add'.
 */
function SessionMarker({ session: s, onOpen }: { session: PastSession; onOpen: (id: number) => void }) {
  const { t } = useTranslation();
  const icon = useMemo(() => sessionIcon(s.ZoneNumber), [s.ZoneNumber]);
  const label = t('Session {{id}}, zone {{zone}}, {{when}}', { id: s.SessionId, zone: s.ZoneNumber, when: sessionWhen(s) });
  return (
    <Marker
      position={[s.Latitude, s.Longitude]}
      icon={icon}
      eventHandlers={{
        add: (e: L.LeafletEvent) => {
          const el = (e.target as L.Marker).getElement();
          el?.setAttribute('aria-label', label);
          el?.setAttribute('role', 'link');
        },
        click: () => onOpen(s.SessionId),
        keydown: (e: L.LeafletEvent) => {
          const key = (e as L.LeafletKeyboardEvent).originalEvent;
          if (key.key !== 'Enter' && key.key !== ' ') return;
          key.preventDefault();
          onOpen(s.SessionId);
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
    map.fitBounds(L.latLngBounds(points), { padding: [32, 32], maxZoom: 16 });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the key stands for the points
  }, [map, key]);
  return null;
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
    <MapContainer center={[centre.lat, centre.lng]} zoom={13} className="size-full" attributionControl>
      <TileLayer url={env.VITE_MAP_TILE_URL} attribution={ATTRIBUTION} />
      <FitBounds points={points} />
      <MarkerClusterGroup chunkedLoading showCoverageOnHover={false} maxClusterRadius={48}>
        {sessions.map((s) => (
          <SessionMarker key={s.SessionId} session={s} onOpen={onOpen} />
        ))}
      </MarkerClusterGroup>
    </MapContainer>
  );
}
