import { describe, expect, it } from 'vitest';
import { escapeLike, likePatterns, normalizeSearch, zoneNumberRange } from './zone-search-text.ts';

describe('zone search text', () => {
  it('normalizes case and spaces', () => {
    expect(normalizeSearch('  Congress   AVE \t')).toBe('congress ave');
  });

  it('escapes LIKE wildcards and the escape character so they match themselves', () => {
    expect(escapeLike('50%_off\\')).toBe('50\\%\\_off\\\\');
    expect(likePatterns('a_b')).toEqual({ prefix: 'a\\_b%', wordPrefix: '% a\\_b%', contains: '%a\\_b%' });
  });

  it('gives index bounds for zone numbers starting with the digits', () => {
    expect(zoneNumberRange('12')).toEqual({ lower: '12', upper: '13' });
    expect(zoneNumberRange('129')).toEqual({ lower: '129', upper: '13' });
    expect(zoneNumberRange('1099')).toEqual({ lower: '1099', upper: '11' });
    expect(zoneNumberRange('99')).toEqual({ lower: '99', upper: null });
  });
});
