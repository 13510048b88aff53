import { describe, expect, it } from 'vitest';
import { ZoneInput } from '@parkit/contract';
import { curbOf, verticesOf, type LngLat } from './curb.ts';

const at: LngLat[] = [
  [-97.7431234567, 30.2672],
  [-97.743, 30.2675],
  [-97.7425, 30.2671],
];
const zone = {
  ZoneNumber: 'A1',
  Name: 'N',
  Address: 'A',
  Latitude: 30.2672,
  Longitude: -97.743,
  Capacity: 1,
  RatePerHour: 1,
  MaxStayMinutes: 60,
  PaidDays: [],
  PaidFrom: '00:00',
  PaidUntil: '24:00',
};

describe('the curb drawn on the map', () => {
  it('is no curb until a line has 2 points or an area 3', () => {
    expect(curbOf('LineString', at.slice(0, 1))).toBeNull();
    expect(curbOf('Polygon', at.slice(0, 2))).toBeNull();
  });

  it('is a line of the points, rounded to 6 decimals', () => {
    expect(curbOf('LineString', at.slice(0, 2))).toEqual({
      type: 'LineString',
      coordinates: [
        [-97.743123, 30.2672],
        [-97.743, 30.2675],
      ],
    });
  });

  it('is an area whose ring closes on its first point, which the contract accepts', () => {
    const curb = curbOf('Polygon', at)!;
    expect(curb.coordinates[0]).toHaveLength(4);
    expect(curb.coordinates[0]![3]).toEqual(curb.coordinates[0]![0]);
    expect(ZoneInput.safeParse({ ...zone, Curb: curb }).success).toBe(true);
    expect(ZoneInput.safeParse({ ...zone, Curb: curbOf('LineString', at) }).success).toBe(true);
  });

  it('gives back the vertices it was made of', () => {
    const rounded = at.map(([lng, lat]) => [Math.round(lng * 1e6) / 1e6, lat]);
    expect(verticesOf(curbOf('Polygon', at))).toEqual(rounded);
    expect(verticesOf(curbOf('LineString', at))).toEqual(rounded);
    expect(verticesOf(null)).toEqual([]);
  });
});
