/**
 * The text side of zone search: what the driver typed becomes plain text, never SQL or a LIKE
 * pattern. (The SQL itself is parameterised; these only keep %, _ and \ from acting as wildcards.)
 */

/** Lower case, single spaces, trimmed: addresses and names are indexed as lower(...). */
export function normalizeSearch(q: string): string {
  return q.trim().replace(/\s+/g, ' ').toLowerCase();
}

/** Escapes LIKE's wildcards and its escape character (used with ESCAPE '\'). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export function likePatterns(q: string): { prefix: string; wordPrefix: string; contains: string } {
  const e = escapeLike(q);
  return { prefix: `${e}%`, wordPrefix: `% ${e}%`, contains: `%${e}%` };
}

/**
 * Bounds of the zone numbers that start with a string of digits, for an index range scan:
 * ['12', '13'), ['129', '13'), ['99', no upper bound).
 */
export function zoneNumberRange(digits: string): { lower: string; upper: string | null } {
  const trimmed = digits.replace(/9+$/, '');
  if (trimmed === '') return { lower: digits, upper: null };
  const last = trimmed.charCodeAt(trimmed.length - 1);
  return { lower: digits, upper: trimmed.slice(0, -1) + String.fromCharCode(last + 1) };
}
