import { describe, expect, it } from 'vitest';
import {
  ENFORCEMENT_KEY_HEADER,
  EnforcementQuery,
  NearbyZonesQuery,
  ReceiptQuery,
  SearchZonesQuery,
  SessionFilters,
  SessionsQuery,
} from './index.ts';
import { messages, expectMessages } from './test-messages.ts';

// The query-string schemas of the history, the receipts, the plate check and the zone
// search, with the messages the API sends.

describe('the history filters', () => {
  it('newest first by default; a blank value is not given', () => {
    expect(SessionFilters.parse({})).toEqual({ sort: 'newest' });
    expect(SessionFilters.parse({ sort: ' ', lat: '', lng: ' ', from: '', to: '', vehicle: '' })).toEqual({
      sort: 'newest',
    });
    expect(
      SessionFilters.parse({ sort: 'far', lat: '-90', lng: '180', from: '2000-01-01', to: '2100-12-31', vehicle: '4' }),
    ).toEqual({
      sort: 'far',
      lat: -90,
      lng: 180,
      from: '2000-01-01',
      to: '2100-12-31',
      vehicle: 4,
    });
  });
  it('names what is wrong', () => {
    expectMessages(SessionFilters, [
      [{ sort: 'best' }, { sort: 'sort must be one of newest, oldest, near, far' }],
      [{ lat: 'north' }, { lat: 'lat must be a number' }],
      [{ lat: 'Infinity' }, { lat: 'lat must be a number' }],
      [{ lat: '90.1' }, { lat: 'lat must be between -90 and 90' }],
      [{ lat: '-90.1' }, { lat: 'lat must be between -90 and 90' }],
      [{ lng: '180.5' }, { lng: 'lng must be between -180 and 180' }],
      [{ lng: '-181' }, { lng: 'lng must be between -180 and 180' }],
      [{ from: '24-11-2026' }, { from: 'from must be a date (YYYY-MM-DD)' }],
      [{ to: 5 }, { to: 'to must be a date (YYYY-MM-DD)' }],
    ]);
    for (const d of ['2026-02-30', '2026-13-01', '1999-12-31', '2101-01-01'])
      expect(messages(SessionFilters, { from: d }), d).toEqual({
        from: 'from must be a real date between 2000 and 2100',
      });
    expect(messages(SessionFilters, { to: '2024-02-29' })).toEqual({});
  });
  it('the page: a cursor of safe characters, 20 rows unless asked for 1 to 50', () => {
    expect(SessionsQuery.parse({ cursor: 'abc_DEF-1', limit: '50' })).toMatchObject({ cursor: 'abc_DEF-1', limit: 50 });
    expect(SessionsQuery.parse({ cursor: '', limit: '' })).toMatchObject({ limit: 20 });
    expect(SessionsQuery.parse({})).toMatchObject({ limit: 20 });
    expectMessages(SessionsQuery, [
      [{ cursor: 'a/b' }, { cursor: 'cursor is not valid' }],
      [{ cursor: 'a'.repeat(201) }, { cursor: 'cursor is not valid' }],
      [{ cursor: 'a'.repeat(200) }, {}],
      [{ limit: 'x' }, { limit: 'limit must be a number' }],
      [{ limit: '1.5' }, { limit: 'limit must be a whole number' }],
      [{ limit: '0' }, { limit: 'limit must be at least 1' }],
      [{ limit: '51' }, { limit: 'limit must be at most 50' }],
      [{ limit: '1' }, {}],
    ]);
  });
  it('a receipt in English or Hindi', () => {
    expect(ReceiptQuery.parse({ lang: 'hi' })).toEqual({ lang: 'hi' });
    expect(ReceiptQuery.parse({ lang: '' })).toEqual({});
    expect(messages(ReceiptQuery, { lang: 'fr' })).toEqual({ lang: 'lang must be en, hi or es' });
  });
});

describe("an officer's plate check", () => {
  it("the operator's key travels in x-operator-key", () => {
    expect(ENFORCEMENT_KEY_HEADER).toBe('x-operator-key');
  });
  const ok = { zone: 'Z-101', plate: 'mh 12-ab·1', state: 'tx' };
  it('takes a zone, a plate and a state (upper-cased), trimmed', () => {
    expect(EnforcementQuery.parse({ zone: ' Z-101 ', plate: ' MH 12.AB ', state: ' tx ' })).toEqual({
      zone: 'Z-101',
      plate: 'MH 12.AB',
      state: 'TX',
    });
    expect(messages(EnforcementQuery, ok)).toEqual({});
  });
  it('names what is wrong', () => {
    expectMessages(EnforcementQuery, [
      [{}, { zone: 'zone is required', plate: 'plate is required', state: 'state is required' }],
      [{ ...ok, zone: ' ' }, { zone: 'zone is required' }],
      [{ ...ok, zone: 'Z'.repeat(21) }, { zone: 'zone must be at most 20 characters' }],
      [{ ...ok, zone: 'Z'.repeat(20) }, {}],
      [{ ...ok, zone: 'Z 1' }, { zone: 'zone must be letters, digits or dashes' }],
      [{ ...ok, plate: ' ' }, { plate: 'plate is required' }],
      [{ ...ok, plate: '- -' }, { plate: 'plate is required' }],
      [{ ...ok, plate: 'A'.repeat(21) }, { plate: 'plate must be at most 20 characters' }],
      [{ ...ok, plate: 'A'.repeat(20) }, {}],
      [{ ...ok, plate: 'AB#1' }, { plate: 'plate must be letters, digits, spaces or dashes' }],
      [{ ...ok, state: 'TEX' }, { state: 'state must be a two-letter code' }],
      [{ ...ok, state: 'T1' }, { state: 'state must be a two-letter code' }],
    ]);
  });
});

describe('the zone search', () => {
  it('nearby: a position, 2 km and 20 zones unless asked', () => {
    expect(NearbyZonesQuery.parse({ lat: '18.5', lng: '73.8' })).toEqual({
      lat: 18.5,
      lng: 73.8,
      radius: 2000,
      limit: 20,
    });
    expect(NearbyZonesQuery.parse({ lat: '90', lng: '-180', radius: '10000', limit: '100' })).toEqual({
      lat: 90,
      lng: -180,
      radius: 10_000,
      limit: 100,
    });
    expect(NearbyZonesQuery.parse({ lat: '-90', lng: '180' })).toMatchObject({ lat: -90, lng: 180 });
    expectMessages(NearbyZonesQuery, [
      [{ lat: '', lng: '73' }, { lat: 'lat must be a number' }],
      [
        { lat: 'x', lng: 'Infinity' },
        { lat: 'lat must be a number', lng: 'lng must be a number' },
      ],
      [
        { lat: '-91', lng: '181' },
        { lat: 'lat must be between -90 and 90', lng: 'lng must be between -180 and 180' },
      ],
      [
        { lat: '91', lng: '-181' },
        { lat: 'lat must be between -90 and 90', lng: 'lng must be between -180 and 180' },
      ],
    ]);
    const at = (q: object) => messages(NearbyZonesQuery, { lat: '1', lng: '1', ...q });
    expect(at({ radius: 'x' })).toEqual({ radius: 'radius must be a number' });
    expect(at({ radius: '1.5' })).toEqual({ radius: 'radius must be whole metres' });
    expect(at({ radius: '0' })).toEqual({ radius: 'radius must be at least 1 m' });
    expect(at({ radius: '10001' })).toEqual({ radius: 'radius must be at most 10 km' });
    expect(at({ radius: '1' })).toEqual({});
    expect(at({ limit: 'x' })).toEqual({ limit: 'limit must be a number' });
    expect(at({ limit: '2.5' })).toEqual({ limit: 'limit must be a whole number' });
    expect(at({ limit: '0' })).toEqual({ limit: 'limit must be at least 1' });
    expect(at({ limit: '101' })).toEqual({ limit: 'limit must be at most 100' });
    expect(at({ limit: '1' })).toEqual({});
  });
  it('by text: required, at most 100 characters, no control characters; a position both or neither', () => {
    expect(SearchZonesQuery.parse({ q: ' main ' })).toEqual({ q: 'main', limit: 20 });
    expect(SearchZonesQuery.parse({ q: 'main', lat: '1', lng: '2', limit: '5' })).toEqual({
      q: 'main',
      lat: 1,
      lng: 2,
      limit: 5,
    });
    expectMessages(SearchZonesQuery, [
      [{}, { q: 'q is required' }],
      [{ q: '  ' }, { q: 'q is required' }],
      [{ q: 'x'.repeat(101) }, { q: 'q must be at most 100 characters' }],
      [{ q: 'x'.repeat(100) }, {}],
    ]);
    for (const c of ['\u0000', '\u001f', '\u007f'])
      expect(messages(SearchZonesQuery, { q: `a${c}b` })).toEqual({ q: 'q contains characters that are not allowed' });
    expect(messages(SearchZonesQuery, { q: 'main', lat: '1' })).toEqual({ lng: 'lat and lng go together' });
    expect(messages(SearchZonesQuery, { q: 'main', lng: '1' })).toEqual({ lng: 'lat and lng go together' });
    for (const limit of ['0', '101', '1.5', 'x'])
      expect(SearchZonesQuery.safeParse({ q: 'main', limit }).success, limit).toBe(false);
  });
});
