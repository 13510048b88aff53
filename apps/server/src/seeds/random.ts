/**
 * Seeded randomness for the demo data: the same seed gives the same dataset on every machine
 * (never Math.random).
 */
export type Range = readonly [min: number, max: number];

export type Rng = () => number;

/** A small seeded PRNG: the same seed gives the same dataset on every machine. */
export function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export function randInt(rng: Rng, min: number, max: number): number {
  return min + Math.floor(rng() * (max - min + 1));
}

/** A random multiple of `step` within [min, max] (both assumed multiples of `step`). */
export function randStep(rng: Rng, [min, max]: Range, step: number): number {
  return min + step * randInt(rng, 0, Math.floor((max - min) / step));
}

export function pick<T>(rng: Rng, items: readonly T[]): T {
  const item = items[Math.floor(rng() * items.length)];
  if (item === undefined) throw new Error('pick() from an empty list');
  return item;
}

/** Picks the first entry with probability `firstWeight`, otherwise any of the others. */
export function pickWeighted<T>(rng: Rng, items: readonly T[], firstWeight: number): T {
  const [first, ...rest] = items;
  if (first === undefined) throw new Error('pickWeighted() from an empty list');
  return rest.length === 0 || rng() < firstWeight ? first : pick(rng, rest);
}
