/**
 * Where a zone sits on its street: a segment's local frame in metres, the side of the street a
 * number is on, and the position of a number pushed sideways to the curb.
 */
import type { StreetSegment } from './austin-streets.ts';

const M_PER_DEG_LAT = 111_132;
const M_PER_DEG_LNG_EQUATOR = 111_320;

export function round6(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}

export function mPerDegLng(lat: number): number {
  return M_PER_DEG_LNG_EQUATOR * Math.cos((lat * Math.PI) / 180);
}

/** Local planar frame of a segment, in metres. */
export interface SegmentFrame {
  readonly lengthM: number;
  /** Unit vector (east, north) of the right-hand normal when walking from start to end. */
  readonly rightE: number;
  readonly rightN: number;
}

export function frameOf(seg: StreetSegment): SegmentFrame {
  const midLat = (seg.start.lat + seg.end.lat) / 2;
  const e = (seg.end.lng - seg.start.lng) * mPerDegLng(midLat);
  const n = (seg.end.lat - seg.start.lat) * M_PER_DEG_LAT;
  const lengthM = Math.hypot(e, n);
  if (lengthM === 0 || seg.addrTo <= seg.addrFrom) throw new Error(`degenerate segment ${seg.id}`);
  return { lengthM, rightE: n / lengthM, rightN: -e / lengthM };
}

/** +1 = right-hand side (even numbers), -1 = left-hand side (odd numbers). */
export type Side = 1 | -1;

export function sideOf(addr: number): Side {
  return addr % 2 === 0 ? 1 : -1;
}

export function sideLabel(frame: SegmentFrame, side: Side): string {
  const e = frame.rightE * side;
  const n = frame.rightN * side;
  if (Math.abs(e) >= Math.abs(n)) return e > 0 ? 'east' : 'west';
  return n > 0 ? 'north' : 'south';
}

export function positionOf(
  seg: StreetSegment,
  frame: SegmentFrame,
  addr: number,
  offsetM: number,
): { lat: number; lng: number } {
  const t = (addr - seg.addrFrom) / (seg.addrTo - seg.addrFrom);
  const lat0 = seg.start.lat + (seg.end.lat - seg.start.lat) * t;
  const lng0 = seg.start.lng + (seg.end.lng - seg.start.lng) * t;
  const side = sideOf(addr);
  const lat = lat0 + (side * offsetM * frame.rightN) / M_PER_DEG_LAT;
  const lng = lng0 + (side * offsetM * frame.rightE) / mPerDegLng(lat0);
  return { lat: round6(lat), lng: round6(lng) };
}
