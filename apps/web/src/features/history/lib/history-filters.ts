import { SESSION_SORTS, type SessionSort } from '@parkit/contract';

/** What the driver chose on /pastpark and /mappage; kept in the URL so back and reload keep it. */
export interface HistoryFilters {
  sort: SessionSort;
  from?: string | undefined;
  to?: string | undefined;
  vehicle?: number | undefined;
}

export const DEFAULT_FILTERS: HistoryFilters = { sort: 'newest' };

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Reads the URL's choice; anything unknown or malformed is dropped (a hand-edited URL still works). */
export function filtersFromSearch(search: URLSearchParams): HistoryFilters {
  const sort = search.get('sort');
  const from = search.get('from') ?? '';
  const to = search.get('to') ?? '';
  const vehicle = Number(search.get('vehicle'));
  return {
    sort: (SESSION_SORTS as readonly string[]).includes(sort ?? '') ? (sort as SessionSort) : 'newest',
    from: DAY.test(from) ? from : undefined,
    to: DAY.test(to) ? to : undefined,
    vehicle: Number.isSafeInteger(vehicle) && vehicle > 0 ? vehicle : undefined,
  };
}

/** The URL's query for a choice; defaults are left out so the plain /pastpark stays plain. */
export function searchFromFilters(f: HistoryFilters): URLSearchParams {
  const s = new URLSearchParams();
  if (f.sort !== 'newest') s.set('sort', f.sort);
  if (f.from) s.set('from', f.from);
  if (f.to) s.set('to', f.to);
  if (f.vehicle !== undefined) s.set('vehicle', String(f.vehicle));
  return s;
}

export const byDistance = (sort: SessionSort) => sort === 'near' || sort === 'far';

/** The API's query: the filters, and the driver's position for a distance sort when there is one. */
export function apiQuery(
  f: HistoryFilters,
  position: { lat: number; lng: number } | null,
  extra: Record<string, string> = {},
): string {
  const s = searchFromFilters(f);
  s.set('sort', f.sort);
  if (byDistance(f.sort) && position) {
    s.set('lat', position.lat.toFixed(5));
    s.set('lng', position.lng.toFixed(5));
  }
  for (const [k, v] of Object.entries(extra)) s.set(k, v);
  return s.toString();
}

export const filterCount = (f: HistoryFilters) => Number(Boolean(f.from || f.to)) + Number(f.vehicle !== undefined);
