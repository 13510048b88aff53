export interface LatLng {
  lat: number;
  lng: number;
}

/** Why the device's position could not be used; each gets its own explanation on screen. */
export type LocationFailure = 'denied' | 'unavailable' | 'timeout' | 'unsupported';

export class LocationError extends Error {
  constructor(readonly reason: LocationFailure) {
    super(`Location ${reason}`);
    this.name = 'LocationError';
  }
}

/**
 * Chrome's own `timeout` only starts once the driver has answered the permission prompt, so a
 * prompt left open would wait forever: our timer covers the whole ask.
 */
export const LOCATE_TIMEOUT_MS = 10_000;

/** The device's position, once, from the browser (navigator.geolocation). */
export function getDevicePosition(timeoutMs = LOCATE_TIMEOUT_MS): Promise<LatLng> {
  return new Promise((resolve, reject) => {
    if (typeof navigator === 'undefined' || !('geolocation' in navigator)) {
      reject(new LocationError('unsupported'));
      return;
    }
    const timer = setTimeout(() => reject(new LocationError('timeout')), timeoutMs);
    navigator.geolocation.getCurrentPosition(
      (p) => {
        clearTimeout(timer);
        resolve({ lat: p.coords.latitude, lng: p.coords.longitude });
      },
      (e) => {
        clearTimeout(timer);
        reject(
          new LocationError(
            e.code === e.PERMISSION_DENIED ? 'denied' : e.code === e.TIMEOUT ? 'timeout' : 'unavailable',
          ),
        );
      },
      // A minute-old fix is good enough to sort zones; a fresh high-accuracy fix can take long.
      { enableHighAccuracy: false, timeout: timeoutMs, maximumAge: 60_000 },
    );
  });
}

const EARTH_RADIUS_M = 6_371_008.8;
const rad = (deg: number) => (deg * Math.PI) / 180;

/** Great-circle distance in metres (haversine): enough to tell whether the map moved. */
export function distanceMeters(a: LatLng, b: LatLng): number {
  const dLat = rad(b.lat - a.lat);
  const dLng = rad(b.lng - a.lng);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}
