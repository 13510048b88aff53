import { HISTORY_MESSAGES as M, type SessionSort } from '@parkit/contract';
import { badRequest } from '../lib/http-error.ts';

/**
 * The history's keyset cursor, base64url JSON: the last row's sort key.
 * - newest/oldest: k = started_at as ISO text to the microsecond, i = id.
 * - near/far: k = the zone's distance (the chord, as the query computes it), z = zone id, t = started_at (microseconds), i = id
 *   (distance pages walk the member's zones by distance, and each zone's sessions newest first).
 */
export type Cursor =
  { s: 'newest' | 'oldest'; k: string; i: number } | { s: 'near' | 'far'; k: number; z: number; t: string; i: number };

export function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify(c)).toString('base64url');
}

const SORTS = new Set<unknown>(['newest', 'oldest', 'near', 'far']);
const ISO_MICROS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const isId = (v: unknown) => Number.isSafeInteger(v) && (v as number) > 0 && (v as number) <= 2_147_483_647;
const isStart = (v: unknown) => typeof v === 'string' && ISO_MICROS.test(v) && !Number.isNaN(Date.parse(v));

function valid(c: unknown): c is Cursor {
  if (typeof c !== 'object' || c === null) return false;
  const o = c as Record<string, unknown>;
  if (!SORTS.has(o.s) || !isId(o.i)) return false;
  if (o.s === 'newest' || o.s === 'oldest') return isStart(o.k);
  return typeof o.k === 'number' && Number.isFinite(o.k) && o.k >= 0 && isId(o.z) && isStart(o.t);
}

export function decodeCursor(raw: string, sort: SessionSort): Cursor {
  let c: unknown;
  try {
    c = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw badRequest('cursor', M.cursorInvalid);
  }
  if (!valid(c)) throw badRequest('cursor', M.cursorInvalid);
  if (c.s !== sort) throw badRequest('cursor', M.cursorSort);
  return c;
}
