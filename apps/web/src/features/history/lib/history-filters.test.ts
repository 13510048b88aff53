import { describe, expect, it } from 'vitest';
import { apiQuery, filterCount, filtersFromSearch, searchFromFilters } from './history-filters.ts';

describe('history filters in the URL', () => {
  it('round-trips a choice and leaves the defaults out', () => {
    const f = { sort: 'far' as const, from: '2026-03-01', to: '2026-03-31', vehicle: 7 };
    expect(searchFromFilters(f).toString()).toBe('sort=far&from=2026-03-01&to=2026-03-31&vehicle=7');
    expect(filtersFromSearch(searchFromFilters(f))).toEqual(f);
    expect(searchFromFilters({ sort: 'newest' }).toString()).toBe('');
  });

  it('drops what it does not understand', () => {
    expect(filtersFromSearch(new URLSearchParams('sort=sideways&from=yesterday&vehicle=-2'))).toEqual({
      sort: 'newest',
      from: undefined,
      to: undefined,
      vehicle: undefined,
    });
  });

  it('sends the position only for a distance sort', () => {
    expect(apiQuery({ sort: 'newest' }, { lat: 30.1234567, lng: -97.7 })).toBe('sort=newest');
    expect(apiQuery({ sort: 'near' }, { lat: 30.1234567, lng: -97.7 })).toBe('sort=near&lat=30.12346&lng=-97.70000');
    expect(apiQuery({ sort: 'near' }, null, { limit: '20' })).toBe('sort=near&limit=20');
  });

  it('counts the active filters for the Filters button', () => {
    expect(filterCount({ sort: 'near' })).toBe(0);
    expect(filterCount({ sort: 'near', from: '2026-01-01', vehicle: 3 })).toBe(2);
  });
});
