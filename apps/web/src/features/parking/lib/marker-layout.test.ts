import { describe, expect, it } from 'vitest';
import { MAX_ZOOM, markerIndex, sizeOf, spots, toPixel, type Point, type Spot } from './marker-layout.ts';

// Downtown Austin as the demo data has it: a grid of blocks, a zone on each side of a street
// (about 12 m apart), two zones on one spot, and a far suburb.
function crowd(): Point[] {
  const points: Point[] = [];
  let id = 1;
  for (let row = 0; row < 12; row++) {
    for (let col = 0; col < 10; col++) {
      const lat = 30.262 + row * 0.0012;
      const lng = -97.75 + col * 0.0011;
      points.push({ id: id++, lat, lng }, { id: id++, lat: lat + 0.00011, lng });
    }
  }
  points.push({ id: id++, lat: 30.27, lng: -97.74 }, { id: id++, lat: 30.27, lng: -97.74 });
  points.push({ id, lat: 30.4, lng: -97.9 });
  return points;
}

function overlaps(list: Spot[], zoom: number): string[] {
  const boxes = list.map((s) => ({ s, p: toPixel(s.lat, s.lng, zoom), size: sizeOf(s) }));
  const found: string[] = [];
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i]!;
      const b = boxes[j]!;
      const dx = Math.abs(a.p.x - b.p.x) * 2 - (a.size.w + b.size.w);
      const dy = Math.abs(a.p.y - b.p.y) * 2 - (a.size.h + b.size.h);
      if (dx < -1e-6 && dy < -1e-6) found.push(`[${a.s.ids.join(',')}] over [${b.s.ids.join(',')}]`);
    }
  }
  return found;
}

const ids = (list: Spot[]) => list.flatMap((s) => s.ids).sort((a, b) => a - b);

describe('map markers: no two labels overlap, at any zoom', () => {
  const points = crowd();
  const index = markerIndex(points);

  for (let zoom = 3; zoom <= MAX_ZOOM; zoom++) {
    it(`zoom ${zoom}: every zone once, no label over another`, () => {
      const list = spots(index, zoom);
      expect(overlaps(list, zoom)).toEqual([]);
      expect(ids(list)).toEqual(points.map((p) => p.id));
    });
  }

  it('at street zoom the zones across a street are one group, and apart at the deepest zoom', () => {
    const group = (zoom: number) =>
      spots(index, zoom)
        .find((s) => s.ids.includes(1))!
        .ids.sort((a, b) => a - b);
    expect(group(17)).toEqual([1, 2]);
    expect(group(MAX_ZOOM)).toEqual([1]);
  });

  it('zones on the very same spot stay one group even at the deepest zoom', () => {
    const same = spots(index, MAX_ZOOM).find((s) => s.ids.includes(241))!;
    expect(same.ids.sort()).toEqual([241, 242]);
  });

  it('the chosen zone is drawn alone, and what would cover it is left out', () => {
    for (const zoom of [12, 17, MAX_ZOOM]) {
      const list = spots(index, zoom, points[0]!);
      expect(overlaps(list, zoom)).toEqual([]);
      expect(list.filter((s) => s.ids.includes(1))).toEqual([
        { ids: [1], lat: expect.closeTo(points[0]!.lat, 9), lng: expect.closeTo(points[0]!.lng, 9) },
      ]);
    }
    expect(ids(spots(index, MAX_ZOOM, points[0]!))).toEqual(points.map((p) => p.id)); // nothing covers it when deepest
  });

  it('a lone zone far away is its own marker even zoomed out', () => {
    expect(spots(index, 12).find((s) => s.ids.includes(243))?.ids).toEqual([243]);
  });
});
