import { describe, expect, it } from 'vitest';
import { csvRecords, parseZoneFile, ZoneFileError } from './zone-file.ts';

describe('csvRecords', () => {
  it('reads quoted fields with commas, quotes and newlines, CRLF and LF, and numbers records by their first line', () => {
    const text = 'a,b,c\r\n1,"x, ""y""",3\n2,"two\nlines",4\n5,6,7';
    expect(csvRecords(text)).toEqual([
      { line: 1, cells: ['a', 'b', 'c'] },
      { line: 2, cells: ['1', 'x, "y"', '3'] },
      { line: 3, cells: ['2', 'two\nlines', '4'] },
      { line: 5, cells: ['5', '6', '7'] },
    ]);
  });

  it('flags a quote that never closes and a stray quote', () => {
    expect(csvRecords('a,"b\n')[0]?.problem).toMatch(/never ends/);
    expect(csvRecords('a,b"c')[0]?.problem).toMatch(/quote inside/);
  });
});

describe('parseZoneFile', () => {
  it('maps CSV header names, skips blank lines and notes unknown columns', () => {
    const f = parseZoneFile(
      '\uFEFFZone Number,Address,Latitude,Longitude,Notes\n1001,1 Main St,30.1,-97.1,x\n\n1002,2 Main St,30.2\n',
      'z.csv',
    );
    expect(f.format).toBe('csv');
    expect(f.ignoredColumns).toEqual(['Notes']);
    expect(f.rows[0]).toEqual({
      row: 2,
      fields: { zone_number: '1001', address: '1 Main St', lat: '30.1', lng: '-97.1' },
    });
    expect(f.rows[1]).toMatchObject({ row: 4, problem: 'has 3 fields, the header has 5' });
  });

  it('refuses a CSV file without the required columns or without rows', () => {
    expect(() => parseZoneFile('zone_number,address\n1,2', 'z.csv')).toThrow(/lat, lng/);
    expect(() => parseZoneFile('', 'z.csv')).toThrow(ZoneFileError);
  });

  it('reads GeoJSON Points as [longitude, latitude] and flags other geometries', () => {
    const doc = {
      type: 'FeatureCollection',
      features: [
        {
          type: 'Feature',
          geometry: { type: 'Point', coordinates: [-97.74, 30.27] },
          properties: { zone_number: 7, lat: 1, colour: 'red' },
        },
        {
          type: 'Feature',
          geometry: {
            type: 'LineString',
            coordinates: [
              [0, 0],
              [1, 1],
            ],
          },
          properties: {},
        },
        null,
      ],
    };
    const f = parseZoneFile(JSON.stringify(doc));
    expect(f.format).toBe('geojson');
    expect(f.rows[0]).toEqual({ row: 1, fields: { zone_number: 7, lat: 30.27, lng: -97.74 } });
    expect(f.rows[1]?.problem).toMatch(/Point/);
    expect(f.rows[2]?.problem).toMatch(/Point/);
    expect(f.ignoredColumns).toEqual(['colour']);
  });

  it('refuses JSON that is not a FeatureCollection', () => {
    expect(() => parseZoneFile('{"type":"Feature"}', 'z.geojson')).toThrow(/FeatureCollection/);
    expect(() => parseZoneFile('{oops', 'z.json')).toThrow(/not valid JSON/);
  });
});
