/**
 * Deterministic generator of the ParkIt demo dataset: paid-parking zones of one operator on real
 * Austin, TX streets (see ./austin-streets.ts).
 *
 * How it works:
 * - Every 100-number block of every segment gives two street zones, one per side of the street
 *   (even numbers on the right-hand side walking toward higher numbers, odd on the left).
 * - Each block may also get an unnamed surface lot and/or garage, with a probability taken from
 *   the segment's kind mix; the named facilities of a segment are always present.
 * - A zone's position is interpolated along the segment from its street number and pushed 5-14 m
 *   sideways to its side of the street, so it sits on the curb / at the entrance.
 * - Zone numbers go per segment: segment i owns (1000 + 100 * i) + 1..99, numbered in address
 *   order, so Congress Ave blocks are 1001, 1002, ... and a zone keeps its number whatever `count` is.
 * - All randomness comes from mulberry32 streams seeded from a fixed seed and the segment id.
 *
 * The full pool (about 1,600 zones) is built once. `generateAustinZones(count)` returns `count` of them:
 * Congress Ave and all named facilities always, the rest by a weighted draw that favours downtown.
 */
import { AUSTIN_STREETS, type SchedulePreset, type StreetSegment, type ZoneKind } from './austin-streets.ts';
import { fnv1a, mulberry32, pick, pickWeighted, randInt, randStep, type Range, type Rng } from './random.ts';
import { frameOf, positionOf, sideLabel, sideOf } from './street-geometry.ts';

export type { ZoneKind } from './austin-streets.ts';

export interface ZoneSeed {
  /** The short code on the street sign, digits only, 4-5 characters, unique. */
  zoneNumber: string;
  /** e.g. "W 6th St 400 block (north side)", "Republic Square Garage", "E 6th St 500 Lot". */
  name: string;
  /** Street address, e.g. "412 W 6th St". */
  address: string;
  city: 'Austin';
  state: 'TX';
  zip: string;
  lat: number;
  lng: number;
  kind: ZoneKind;
  /** Hourly rate in integer cents. */
  rateCents: number;
  maxStayMinutes: number;
  /** ISO weekdays when payment is required, 1 = Mon .. 7 = Sun, ascending. */
  paidDays: number[];
  /** 'HH:MM' local time (America/Chicago). Always paid = '00:00'..'24:00'. */
  paidFrom: string;
  /** 'HH:MM'; '00:00' after a later paidFrom means midnight. */
  paidUntil: string;
  capacity: number;
}

export const DEFAULT_AUSTIN_ZONE_COUNT = 1200;

const SEED = 0x5a2c_0a17;
const SELECTION_SEED = 0x0b1e_55ed;

const MON_FRI = [1, 2, 3, 4, 5] as const;
const MON_SAT = [1, 2, 3, 4, 5, 6] as const;
const ALL_WEEK = [1, 2, 3, 4, 5, 6, 7] as const;

interface Schedule {
  readonly days: readonly number[];
  readonly from: string;
  readonly until: string;
  readonly stays: readonly number[];
}

/** Street meter schedules per preset; a block picks one (the first is the most common). */
const STREET_SCHEDULES: Readonly<Record<SchedulePreset, readonly Schedule[]>> = {
  core: [
    { days: MON_SAT, from: '08:00', until: '00:00', stays: [120, 180] },
    { days: MON_SAT, from: '08:00', until: '18:00', stays: [120] },
  ],
  downtown: [
    { days: MON_SAT, from: '08:00', until: '18:00', stays: [120, 180, 240] },
    { days: MON_FRI, from: '08:00', until: '18:00', stays: [240, 600] },
  ],
  nightlife: [
    { days: MON_SAT, from: '10:00', until: '00:00', stays: [180, 240] },
    { days: ALL_WEEK, from: '11:00', until: '00:00', stays: [180] },
  ],
  campus: [
    { days: MON_FRI, from: '08:00', until: '18:00', stays: [120, 240] },
    { days: MON_SAT, from: '08:00', until: '20:00', stays: [120, 180] },
  ],
  south: [
    { days: MON_SAT, from: '09:00', until: '21:00', stays: [180, 240] },
    { days: ALL_WEEK, from: '10:00', until: '22:00', stays: [180] },
  ],
  east: [
    { days: MON_SAT, from: '09:00', until: '21:00', stays: [240] },
    { days: MON_SAT, from: '11:00', until: '00:00', stays: [180, 240] },
  ],
  neighborhood: [
    { days: MON_FRI, from: '08:00', until: '18:00', stays: [240, 600] },
    { days: MON_SAT, from: '09:00', until: '18:00', stays: [240] },
  ],
  retail: [
    { days: ALL_WEEK, from: '10:00', until: '21:00', stays: [180, 240] },
    { days: MON_SAT, from: '09:00', until: '21:00', stays: [240] },
  ],
};

const LOT_SCHEDULES: readonly Schedule[] = [
  { days: ALL_WEEK, from: '00:00', until: '24:00', stays: [1440] },
  { days: ALL_WEEK, from: '06:00', until: '00:00', stays: [720, 1080] },
  { days: MON_SAT, from: '07:00', until: '22:00', stays: [720] },
];

const GARAGE_SCHEDULES: readonly Schedule[] = [
  { days: ALL_WEEK, from: '00:00', until: '24:00', stays: [1440] },
  { days: ALL_WEEK, from: '06:00', until: '00:00', stays: [1080] },
];

type Tier = StreetSegment['tier'];

/** Hourly rate bounds in cents by kind and tier (tier 4 = downtown core). */
const RATE_CENTS: Readonly<Record<ZoneKind, Readonly<Record<Tier, Range>>>> = {
  street: { 1: [150, 225], 2: [200, 300], 3: [275, 375], 4: [375, 475] },
  lot: { 1: [300, 400], 2: [350, 500], 3: [450, 650], 4: [600, 800] },
  garage: { 1: [400, 550], 2: [500, 700], 3: [650, 900], 4: [850, 1200] },
};

const LOT_CAPACITY: Readonly<Record<Tier, Range>> = { 1: [60, 300], 2: [40, 220], 3: [30, 160], 4: [20, 120] };
const GARAGE_CAPACITY: Readonly<Record<Tier, Range>> = { 1: [150, 600], 2: [200, 800], 3: [300, 900], 4: [400, 1200] };

/** Selection weight by tier: downtown blocks are more likely to be among the paid zones. */
const TIER_WEIGHT: Readonly<Record<Tier, number>> = { 1: 0.55, 2: 0.7, 3: 0.85, 4: 1 };

/** A street number in [lo, hi] with the given parity, kept a few numbers away from the corners when possible. */
function numberInFace(rng: Rng, lo: number, hi: number, parity: 0 | 1, used: ReadonlySet<number>): number | undefined {
  const inner: number[] = [];
  const all: number[] = [];
  for (let a = lo; a <= hi; a++) {
    if (a % 2 !== parity || used.has(a)) continue;
    all.push(a);
    if (a >= lo + 6 && a <= hi - 6) inner.push(a);
  }
  const choices = inner.length > 0 ? inner : all;
  return choices.length > 0 ? pick(rng, choices) : undefined;
}

interface Candidate {
  readonly zone: ZoneSeed;
  /** Always part of the output (Congress Ave and named facilities). */
  readonly forced: boolean;
  readonly weight: number;
}

interface Draft {
  readonly addr: number;
  readonly kind: ZoneKind;
  readonly name: string;
  /** How many street numbers the zone's block spans (shorter at the ends of a segment). */
  readonly span: number;
}

/** "400" for the 400 block; the zero block reads "1-99". */
function hundredLabel(hundred: number): string {
  return hundred === 0 ? '1-99' : String(hundred);
}

type ScheduleFields = Pick<ZoneSeed, 'paidDays' | 'paidFrom' | 'paidUntil' | 'maxStayMinutes'>;

function applySchedule(rng: Rng, schedule: Schedule): ScheduleFields {
  return {
    paidDays: [...schedule.days],
    paidFrom: schedule.from,
    paidUntil: schedule.until,
    maxStayMinutes: pick(rng, schedule.stays),
  };
}

function buildSegment(seg: StreetSegment, segIndex: number, taken: Set<string>): Candidate[] {
  const rng = mulberry32(SEED ^ fnv1a(seg.id));
  const frame = frameOf(seg);
  const metresPerNumber = frame.lengthM / (seg.addrTo - seg.addrFrom);
  const used = new Set<number>();
  const drafts: Draft[] = [];

  // Named facilities first so that block faces never take their street numbers.
  for (const f of seg.facilities) {
    if (f.addr < seg.addrFrom || f.addr > seg.addrTo) throw new Error(`${f.name} is outside ${seg.id}`);
    used.add(f.addr);
  }

  const mixTotal = seg.kindMix.street + seg.kindMix.lot + seg.kindMix.garage;
  const streetShare = seg.kindMix.street / mixTotal;
  // Two street faces per block; extra facilities per block so the overall shares match the kind mix.
  const lotChance = Math.min(1, (2 * seg.kindMix.lot) / mixTotal / streetShare);
  const garageChance = Math.min(1, (2 * seg.kindMix.garage) / mixTotal / streetShare);

  for (let hundred = Math.floor(seg.addrFrom / 100) * 100; hundred <= seg.addrTo; hundred += 100) {
    const lo = Math.max(hundred, seg.addrFrom);
    const hi = Math.min(hundred + 99, seg.addrTo);
    for (const parity of [0, 1] as const) {
      const addr = numberInFace(rng, lo, hi, parity, used);
      if (addr === undefined) continue;
      used.add(addr);
      const name = `${seg.street} ${hundredLabel(hundred)} block (${sideLabel(frame, sideOf(addr))} side)`;
      drafts.push({ addr, kind: 'street', name, span: hi - lo + 1 });
    }
    const extras: ['lot' | 'garage', number][] = [
      ['lot', lotChance],
      ['garage', garageChance],
    ];
    for (const [kind, chance] of extras) {
      if (rng() >= chance) continue;
      const addr = numberInFace(rng, lo, hi, rng() < 0.5 ? 0 : 1, used);
      if (addr === undefined) continue;
      used.add(addr);
      const name = `${seg.street} ${hundredLabel(hundred)} ${kind === 'lot' ? 'Lot' : 'Garage'}`;
      drafts.push({ addr, kind, name, span: hi - lo + 1 });
    }
  }
  for (const f of seg.facilities) drafts.push({ addr: f.addr, kind: f.kind, name: f.name, span: 100 });

  drafts.sort((a, b) => a.addr - b.addr);
  if (drafts.length > 99) {
    throw new Error(`segment ${seg.id} has ${drafts.length} zones, at most 99 fit its number range`);
  }

  const base = 1000 + 100 * segIndex;
  const namedAddrs = new Set(seg.facilities.map((f) => f.addr));
  return drafts.map((d, i) => {
    const zoneRng = mulberry32(SEED ^ fnv1a(`${seg.id}#${d.addr}`));
    let offset = d.kind === 'street' ? 5 + zoneRng() * 6 : 10 + zoneRng() * 4;
    let pos = positionOf(seg, frame, d.addr, offset);
    // Keep every zone at distinct coordinates (at 6 decimals): nudge sideways within the 15 m budget.
    for (let tries = 0; taken.has(`${pos.lat},${pos.lng}`); tries++) {
      if (tries > 40) throw new Error(`no free position for ${d.addr} ${seg.street}`);
      offset = offset >= 14 ? 5 : offset + 0.25;
      pos = positionOf(seg, frame, d.addr, offset);
    }
    taken.add(`${pos.lat},${pos.lng}`);

    const rate = randStep(zoneRng, RATE_CENTS[d.kind][seg.tier], 25);
    let capacity: number;
    let schedule: ScheduleFields;
    if (d.kind === 'street') {
      const faceMetres = d.span * metresPerNumber;
      capacity = Math.max(6, Math.min(30, Math.round((faceMetres * 0.7) / 6.5) + randInt(zoneRng, -3, 2)));
      schedule = applySchedule(zoneRng, pickWeighted(zoneRng, STREET_SCHEDULES[seg.schedule], 0.7));
    } else if (d.kind === 'lot') {
      capacity = randStep(zoneRng, LOT_CAPACITY[seg.tier], 5);
      schedule = applySchedule(zoneRng, pickWeighted(zoneRng, LOT_SCHEDULES, seg.tier >= 3 ? 0.6 : 0.3));
    } else {
      capacity = randStep(zoneRng, GARAGE_CAPACITY[seg.tier], 10);
      schedule = applySchedule(zoneRng, pickWeighted(zoneRng, GARAGE_SCHEDULES, 0.75));
    }

    const zone: ZoneSeed = {
      zoneNumber: String(base + i + 1),
      name: d.name,
      address: `${d.addr} ${seg.street}`,
      city: 'Austin',
      state: 'TX',
      zip: seg.zip,
      lat: pos.lat,
      lng: pos.lng,
      kind: d.kind,
      rateCents: rate,
      maxStayMinutes: schedule.maxStayMinutes,
      paidDays: schedule.paidDays,
      paidFrom: schedule.paidFrom,
      paidUntil: schedule.paidUntil,
      capacity,
    };
    const named = d.kind !== 'street' && namedAddrs.has(d.addr);
    return { zone, forced: segIndex === 0 || named, weight: TIER_WEIGHT[seg.tier] };
  });
}

let pool: readonly Candidate[] | undefined;

function getPool(): readonly Candidate[] {
  if (pool === undefined) {
    const taken = new Set<string>();
    pool = AUSTIN_STREETS.flatMap((seg, i) => buildSegment(seg, i, taken));
  }
  return pool;
}

/** How many distinct zones the generator can produce (the largest valid `count`). */
export function austinZonePoolSize(): number {
  return getPool().length;
}

/**
 * Returns `count` demo zones (default 1200), sorted by zone number. Deterministic: same count, same
 * output; a zone's number and attributes do not depend on `count`.
 */
export function generateAustinZones(count: number = DEFAULT_AUSTIN_ZONE_COUNT): ZoneSeed[] {
  const all = getPool();
  if (!Number.isInteger(count) || count < 0 || count > all.length) {
    throw new RangeError(`count must be an integer between 0 and ${all.length}, got ${count}`);
  }
  // Weighted sampling without replacement (Efraimidis-Spirakis keys); forced zones sort first.
  const keyed = all.map((c) => {
    const r = mulberry32(SELECTION_SEED ^ fnv1a(c.zone.zoneNumber))();
    return { c, key: c.forced ? 2 : Math.pow(r, 1 / c.weight) };
  });
  keyed.sort((a, b) => b.key - a.key || Number(a.c.zone.zoneNumber) - Number(b.c.zone.zoneNumber));
  return keyed
    .slice(0, count)
    .map(({ c }) => ({ ...c.zone, paidDays: [...c.zone.paidDays] }))
    .sort((a, b) => Number(a.zoneNumber) - Number(b.zoneNumber));
}
