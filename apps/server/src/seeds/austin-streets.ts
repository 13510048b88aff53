/**
 * Real Austin, TX street segments used to seed the ParkIt demo dataset. Data only.
 *
 * Each segment is a stretch of one real street between two address numbers. `start` is the
 * centreline at `addrFrom`, `end` the centreline at `addrTo`; zones are interpolated between them.
 * Geometry is approximate (aimed at ~100 m of the real street, not survey grade): downtown points come
 * from a fit of the Waller grid (tilted about 16 degrees clockwise, about 115 m per 100 address numbers)
 * to geocoded addresses, the rest from geocoded addresses along each street.
 *
 * Austin numbering: E/W streets count from Congress Ave (100 E/W 6th is the first block either side),
 * N/S streets count north from Lady Bird Lake (the 100 block starts at Cesar Chavez St = 1st St,
 * 600 Lavaca St sits between 6th and 7th). South of the river, S Congress/S 1st/S Lamar count south.
 */

export type ZoneKind = 'street' | 'lot' | 'garage';

/** Street-meter schedule family; resolved to concrete days/hours by the zone generator. */
export type SchedulePreset =
  | 'core'
  | 'downtown'
  | 'nightlife'
  | 'campus'
  | 'south'
  | 'east'
  | 'neighborhood'
  | 'retail';

export interface LatLng {
  readonly lat: number;
  readonly lng: number;
}

/** Relative share of zone kinds along a segment (street block faces vs. off-street lots and garages). */
export interface KindMix {
  readonly street: number;
  readonly lot: number;
  readonly garage: number;
}

/** A named off-street facility whose entrance is on the segment at street number `addr`. */
export interface NamedFacility {
  readonly name: string;
  readonly kind: 'lot' | 'garage';
  readonly addr: number;
}

export interface StreetSegment {
  /** Stable slug, also seeds the per-segment random stream. */
  readonly id: string;
  /** Street name as written on the signs. */
  readonly street: string;
  readonly neighborhood: string;
  readonly zip: string;
  readonly start: LatLng;
  readonly end: LatLng;
  readonly addrFrom: number;
  readonly addrTo: number;
  /** Price tier: 4 = downtown core (priciest) .. 1 = outlying neighbourhood. */
  readonly tier: 1 | 2 | 3 | 4;
  readonly schedule: SchedulePreset;
  readonly kindMix: KindMix;
  readonly facilities: readonly NamedFacility[];
}

const MIX = {
  core: { street: 0.82, lot: 0.06, garage: 0.12 },
  downtown: { street: 0.85, lot: 0.07, garage: 0.08 },
  nightlife: { street: 0.87, lot: 0.1, garage: 0.03 },
  campus: { street: 0.88, lot: 0.05, garage: 0.07 },
  south: { street: 0.88, lot: 0.1, garage: 0.02 },
  east: { street: 0.9, lot: 0.09, garage: 0.01 },
  neighborhood: { street: 0.94, lot: 0.05, garage: 0.01 },
  retail: { street: 0.7, lot: 0.15, garage: 0.15 },
} as const satisfies Record<string, KindMix>;

/**
 * Order matters: zone numbers are allocated per segment in this order (first segment -> 1001..1099,
 * second -> 1101..1199, ...), so Congress Ave comes first.
 */
export const AUSTIN_STREETS: readonly StreetSegment[] = [
  // Downtown (78701): the Waller grid.
  {
    id: 'congress-ave', street: 'Congress Ave', neighborhood: 'Downtown', zip: '78701',
    start: { lat: 30.26314, lng: -97.74431 }, end: { lat: 30.27294, lng: -97.74109 },
    addrFrom: 100, addrTo: 1099, tier: 4, schedule: 'core', kindMix: MIX.core,
    facilities: [
      { name: 'Congress Ave Garage', kind: 'garage', addr: 512 },
      { name: 'Capitol South Lot', kind: 'lot', addr: 1010 },
    ],
  },
  {
    id: 'w-6th-st', street: 'W 6th St', neighborhood: 'Downtown', zip: '78701',
    start: { lat: 30.26804, lng: -97.74270 }, end: { lat: 30.27093, lng: -97.75338 },
    addrFrom: 100, addrTo: 999, tier: 4, schedule: 'nightlife', kindMix: MIX.core,
    facilities: [{ name: 'West Sixth Garage', kind: 'garage', addr: 515 }],
  },
  {
    id: 'e-6th-st', street: 'E 6th St', neighborhood: 'Sixth Street', zip: '78701',
    start: { lat: 30.26804, lng: -97.74270 }, end: { lat: 30.26579, lng: -97.73440 },
    addrFrom: 100, addrTo: 799, tier: 4, schedule: 'nightlife', kindMix: MIX.nightlife,
    facilities: [{ name: 'Sixth Street Lot', kind: 'lot', addr: 511 }],
  },
  {
    id: 'w-5th-st', street: 'W 5th St', neighborhood: 'Downtown', zip: '78701',
    start: { lat: 30.26706, lng: -97.74302 }, end: { lat: 30.26995, lng: -97.75370 },
    addrFrom: 100, addrTo: 999, tier: 4, schedule: 'downtown', kindMix: MIX.core,
    facilities: [],
  },
  {
    id: 'e-5th-st', street: 'E 5th St', neighborhood: 'Downtown', zip: '78701',
    start: { lat: 30.26706, lng: -97.74302 }, end: { lat: 30.26481, lng: -97.73472 },
    addrFrom: 100, addrTo: 799, tier: 4, schedule: 'downtown', kindMix: MIX.core,
    facilities: [{ name: 'Convention Center 5th St Garage', kind: 'garage', addr: 601 }],
  },
  {
    id: 'w-4th-st', street: 'W 4th St', neighborhood: 'Warehouse District', zip: '78701',
    start: { lat: 30.26608, lng: -97.74335 }, end: { lat: 30.26833, lng: -97.75165 },
    addrFrom: 100, addrTo: 799, tier: 4, schedule: 'nightlife', kindMix: MIX.core,
    facilities: [],
  },
  {
    id: 'e-4th-st', street: 'E 4th St', neighborhood: 'Downtown', zip: '78701',
    start: { lat: 30.26608, lng: -97.74335 }, end: { lat: 30.26415, lng: -97.73623 },
    addrFrom: 100, addrTo: 699, tier: 4, schedule: 'nightlife', kindMix: MIX.core,
    facilities: [],
  },
  {
    id: 'w-3rd-st', street: 'W 3rd St', neighborhood: 'Downtown', zip: '78701',
    start: { lat: 30.26510, lng: -97.74367 }, end: { lat: 30.26735, lng: -97.75197 },
    addrFrom: 100, addrTo: 799, tier: 4, schedule: 'downtown', kindMix: MIX.core,
    facilities: [],
  },
  {
    id: 'w-2nd-st', street: 'W 2nd St', neighborhood: 'Second Street District', zip: '78701',
    start: { lat: 30.26412, lng: -97.74399 }, end: { lat: 30.26572, lng: -97.74992 },
    addrFrom: 100, addrTo: 599, tier: 4, schedule: 'core', kindMix: MIX.core,
    facilities: [
      { name: 'Second Street Garage', kind: 'garage', addr: 222 },
      { name: 'City Hall Garage', kind: 'garage', addr: 301 },
    ],
  },
  {
    id: 'e-2nd-st', street: 'E 2nd St', neighborhood: 'Downtown', zip: '78701',
    start: { lat: 30.26412, lng: -97.74399 }, end: { lat: 30.26283, lng: -97.73925 },
    addrFrom: 100, addrTo: 499, tier: 4, schedule: 'downtown', kindMix: MIX.core,
    facilities: [{ name: 'Convention Center 2nd St Garage', kind: 'garage', addr: 201 }],
  },
  {
    id: 'w-cesar-chavez-st', street: 'W Cesar Chavez St', neighborhood: 'Downtown', zip: '78701',
    start: { lat: 30.26314, lng: -97.74431 }, end: { lat: 30.26570, lng: -97.75380 },
    addrFrom: 100, addrTo: 899, tier: 4, schedule: 'downtown', kindMix: MIX.downtown,
    facilities: [
      { name: 'Shoal Creek Lot', kind: 'lot', addr: 801 },
      { name: 'Central Library Garage', kind: 'garage', addr: 710 },
    ],
  },
  {
    id: 'e-cesar-chavez-st', street: 'E Cesar Chavez St', neighborhood: 'Downtown', zip: '78701',
    start: { lat: 30.26314, lng: -97.74431 }, end: { lat: 30.26089, lng: -97.73601 },
    addrFrom: 100, addrTo: 799, tier: 4, schedule: 'downtown', kindMix: MIX.downtown,
    facilities: [{ name: 'Rainey Gateway Garage', kind: 'garage', addr: 621 }],
  },
  {
    id: 'w-7th-st', street: 'W 7th St', neighborhood: 'Downtown', zip: '78701',
    start: { lat: 30.26902, lng: -97.74238 }, end: { lat: 30.27159, lng: -97.75187 },
    addrFrom: 100, addrTo: 899, tier: 4, schedule: 'downtown', kindMix: MIX.core,
    facilities: [],
  },
  {
    id: 'e-7th-st', street: 'E 7th St', neighborhood: 'Downtown', zip: '78701',
    start: { lat: 30.26902, lng: -97.74238 }, end: { lat: 30.26678, lng: -97.73407 },
    addrFrom: 100, addrTo: 799, tier: 4, schedule: 'downtown', kindMix: MIX.core,
    facilities: [],
  },
  {
    id: 'w-8th-st', street: 'W 8th St', neighborhood: 'Downtown', zip: '78701',
    start: { lat: 30.27001, lng: -97.74206 }, end: { lat: 30.27257, lng: -97.75155 },
    addrFrom: 100, addrTo: 899, tier: 3, schedule: 'downtown', kindMix: MIX.downtown,
    facilities: [],
  },
  {
    id: 'e-11th-st', street: 'E 11th St', neighborhood: 'Downtown', zip: '78701',
    start: { lat: 30.27295, lng: -97.74109 }, end: { lat: 30.27070, lng: -97.73278 },
    addrFrom: 100, addrTo: 799, tier: 3, schedule: 'downtown', kindMix: MIX.downtown,
    facilities: [],
  },
  {
    id: 'w-12th-st', street: 'W 12th St', neighborhood: 'Downtown', zip: '78701',
    start: { lat: 30.27393, lng: -97.74077 }, end: { lat: 30.27714, lng: -97.75263 },
    addrFrom: 100, addrTo: 1099, tier: 3, schedule: 'downtown', kindMix: MIX.downtown,
    facilities: [],
  },
  {
    id: 'w-15th-st', street: 'W 15th St', neighborhood: 'Capitol Complex', zip: '78701',
    start: { lat: 30.27688, lng: -97.73980 }, end: { lat: 30.27977, lng: -97.75048 },
    addrFrom: 100, addrTo: 999, tier: 3, schedule: 'downtown', kindMix: MIX.downtown,
    facilities: [],
  },
  {
    id: 'colorado-st', street: 'Colorado St', neighborhood: 'Downtown', zip: '78701',
    start: { lat: 30.26346, lng: -97.74550 }, end: { lat: 30.27621, lng: -97.74131 },
    addrFrom: 100, addrTo: 1399, tier: 4, schedule: 'downtown', kindMix: MIX.core,
    facilities: [],
  },
  {
    id: 'lavaca-st', street: 'Lavaca St', neighborhood: 'Downtown', zip: '78701',
    start: { lat: 30.26378, lng: -97.74669 }, end: { lat: 30.28143, lng: -97.74089 },
    addrFrom: 100, addrTo: 1899, tier: 4, schedule: 'downtown', kindMix: MIX.core,
    facilities: [],
  },
  {
    id: 'guadalupe-st-dt', street: 'Guadalupe St', neighborhood: 'Downtown', zip: '78701',
    start: { lat: 30.26410, lng: -97.74788 }, end: { lat: 30.28176, lng: -97.74208 },
    addrFrom: 100, addrTo: 1899, tier: 4, schedule: 'downtown', kindMix: MIX.core,
    facilities: [{ name: 'Republic Square Garage', kind: 'garage', addr: 410 }],
  },
  {
    id: 'san-antonio-st-dt', street: 'San Antonio St', neighborhood: 'Downtown', zip: '78701',
    start: { lat: 30.26442, lng: -97.74906 }, end: { lat: 30.28208, lng: -97.74326 },
    addrFrom: 100, addrTo: 1899, tier: 3, schedule: 'downtown', kindMix: MIX.downtown,
    facilities: [],
  },
  {
    id: 'nueces-st-dt', street: 'Nueces St', neighborhood: 'Downtown', zip: '78701',
    start: { lat: 30.26474, lng: -97.75025 }, end: { lat: 30.28142, lng: -97.74478 },
    addrFrom: 100, addrTo: 1799, tier: 3, schedule: 'downtown', kindMix: MIX.downtown,
    facilities: [],
  },
  {
    id: 'rio-grande-st-dt', street: 'Rio Grande St', neighborhood: 'Downtown', zip: '78701',
    start: { lat: 30.26506, lng: -97.75144 }, end: { lat: 30.28272, lng: -97.74564 },
    addrFrom: 100, addrTo: 1899, tier: 3, schedule: 'downtown', kindMix: MIX.downtown,
    facilities: [],
  },
  {
    id: 'west-ave', street: 'West Ave', neighborhood: 'Downtown', zip: '78701',
    start: { lat: 30.26637, lng: -97.75231 }, end: { lat: 30.27617, lng: -97.74909 },
    addrFrom: 200, addrTo: 1199, tier: 3, schedule: 'downtown', kindMix: MIX.downtown,
    facilities: [],
  },
  {
    id: 'brazos-st', street: 'Brazos St', neighborhood: 'Downtown', zip: '78701',
    start: { lat: 30.26281, lng: -97.74312 }, end: { lat: 30.27360, lng: -97.73958 },
    addrFrom: 100, addrTo: 1199, tier: 4, schedule: 'downtown', kindMix: MIX.core,
    facilities: [{ name: 'Brazos Street Garage', kind: 'garage', addr: 601 }],
  },
  {
    id: 'san-jacinto-blvd', street: 'San Jacinto Blvd', neighborhood: 'Downtown', zip: '78701',
    start: { lat: 30.26249, lng: -97.74194 }, end: { lat: 30.28015, lng: -97.73614 },
    addrFrom: 100, addrTo: 1899, tier: 3, schedule: 'downtown', kindMix: MIX.downtown,
    facilities: [{ name: 'Capitol Visitors Garage', kind: 'garage', addr: 1201 }],
  },
  {
    id: 'trinity-st', street: 'Trinity St', neighborhood: 'Downtown', zip: '78701',
    start: { lat: 30.26217, lng: -97.74075 }, end: { lat: 30.27296, lng: -97.73721 },
    addrFrom: 100, addrTo: 1199, tier: 4, schedule: 'downtown', kindMix: MIX.core,
    facilities: [],
  },
  {
    id: 'red-river-st', street: 'Red River St', neighborhood: 'Red River Cultural District', zip: '78701',
    start: { lat: 30.26643, lng: -97.73676 }, end: { lat: 30.27231, lng: -97.73483 },
    addrFrom: 600, addrTo: 1199, tier: 4, schedule: 'nightlife', kindMix: MIX.nightlife,
    facilities: [{ name: 'Red River Lot', kind: 'lot', addr: 709 }],
  },
  {
    id: 'w-mlk-jr-blvd', street: 'W MLK Jr Blvd', neighborhood: 'Downtown', zip: '78701',
    start: { lat: 30.28080, lng: -97.73851 }, end: { lat: 30.28337, lng: -97.74800 },
    addrFrom: 100, addrTo: 899, tier: 3, schedule: 'campus', kindMix: MIX.downtown,
    facilities: [],
  },
  {
    id: 'e-mlk-jr-blvd', street: 'E MLK Jr Blvd', neighborhood: 'UT Campus', zip: '78705',
    start: { lat: 30.28080, lng: -97.73851 }, end: { lat: 30.27855, lng: -97.73021 },
    addrFrom: 100, addrTo: 799, tier: 3, schedule: 'campus', kindMix: MIX.campus,
    facilities: [{ name: 'Bullock Museum Garage', kind: 'garage', addr: 111 }],
  },
  {
    id: 'rainey-st', street: 'Rainey St', neighborhood: 'Rainey Street', zip: '78701',
    start: { lat: 30.25650, lng: -97.73940 }, end: { lat: 30.26120, lng: -97.73830 },
    addrFrom: 40, addrTo: 129, tier: 4, schedule: 'nightlife', kindMix: MIX.nightlife,
    facilities: [
      { name: 'Rainey St Lot', kind: 'lot', addr: 63 },
      { name: 'Rainey North Lot', kind: 'lot', addr: 104 },
    ],
  },

  // East Austin (78702 / 78722): east of I-35 the streets bend; geometry from geocoded addresses.
  {
    id: 'e-6th-st-east', street: 'E 6th St', neighborhood: 'East Sixth', zip: '78702',
    start: { lat: 30.26550, lng: -97.73360 }, end: { lat: 30.26080, lng: -97.72000 },
    addrFrom: 800, addrTo: 1999, tier: 3, schedule: 'nightlife', kindMix: MIX.east,
    facilities: [{ name: 'Plaza Saltillo Lot', kind: 'lot', addr: 1001 }],
  },
  {
    id: 'e-7th-st-east', street: 'E 7th St', neighborhood: 'East Cesar Chavez', zip: '78702',
    start: { lat: 30.26670, lng: -97.73400 }, end: { lat: 30.26040, lng: -97.71530 },
    addrFrom: 800, addrTo: 2399, tier: 2, schedule: 'east', kindMix: MIX.east,
    facilities: [],
  },
  {
    id: 'e-cesar-chavez-st-east', street: 'E Cesar Chavez St', neighborhood: 'East Cesar Chavez', zip: '78702',
    start: { lat: 30.26070, lng: -97.73570 }, end: { lat: 30.25600, lng: -97.72220 },
    addrFrom: 800, addrTo: 1999, tier: 2, schedule: 'east', kindMix: MIX.east,
    facilities: [],
  },
  {
    id: 'e-11th-st-east', street: 'E 11th St', neighborhood: 'Central East Austin', zip: '78702',
    start: { lat: 30.27070, lng: -97.73280 }, end: { lat: 30.26720, lng: -97.72420 },
    addrFrom: 800, addrTo: 1399, tier: 2, schedule: 'east', kindMix: MIX.east,
    facilities: [],
  },
  {
    id: 'e-12th-st-east', street: 'E 12th St', neighborhood: 'Central East Austin', zip: '78702',
    start: { lat: 30.27170, lng: -97.73240 }, end: { lat: 30.27370, lng: -97.71850 },
    addrFrom: 800, addrTo: 1999, tier: 2, schedule: 'east', kindMix: MIX.east,
    facilities: [],
  },
  {
    id: 'e-mlk-jr-blvd-east', street: 'E MLK Jr Blvd', neighborhood: 'Chestnut', zip: '78702',
    start: { lat: 30.27900, lng: -97.73030 }, end: { lat: 30.28010, lng: -97.71980 },
    addrFrom: 800, addrTo: 1999, tier: 2, schedule: 'east', kindMix: MIX.east,
    facilities: [],
  },
  {
    id: 'manor-rd', street: 'Manor Rd', neighborhood: 'Cherrywood', zip: '78722',
    start: { lat: 30.28430, lng: -97.72550 }, end: { lat: 30.28350, lng: -97.71650 },
    addrFrom: 1600, addrTo: 2399, tier: 2, schedule: 'east', kindMix: MIX.east,
    facilities: [],
  },

  // UT campus, West Campus, North University, Hyde Park, Rosedale, Allandale, North Loop.
  {
    id: 'guadalupe-st-drag', street: 'Guadalupe St', neighborhood: 'The Drag', zip: '78705',
    start: { lat: 30.28180, lng: -97.74210 }, end: { lat: 30.29320, lng: -97.74120 },
    addrFrom: 1900, addrTo: 2799, tier: 3, schedule: 'campus', kindMix: MIX.campus,
    facilities: [
      { name: 'Dobie Garage', kind: 'garage', addr: 2021 },
      { name: 'West Mall Garage', kind: 'garage', addr: 2401 },
    ],
  },
  {
    id: 'san-antonio-st-wc', street: 'San Antonio St', neighborhood: 'West Campus', zip: '78705',
    start: { lat: 30.28210, lng: -97.74330 }, end: { lat: 30.29230, lng: -97.74250 },
    addrFrom: 1900, addrTo: 2699, tier: 3, schedule: 'campus', kindMix: MIX.campus,
    facilities: [{ name: 'San Antonio Garage', kind: 'garage', addr: 2222 }],
  },
  {
    id: 'nueces-st-wc', street: 'Nueces St', neighborhood: 'West Campus', zip: '78705',
    start: { lat: 30.28240, lng: -97.74450 }, end: { lat: 30.29380, lng: -97.74360 },
    addrFrom: 1900, addrTo: 2799, tier: 3, schedule: 'campus', kindMix: MIX.campus,
    facilities: [],
  },
  {
    id: 'rio-grande-st-wc', street: 'Rio Grande St', neighborhood: 'West Campus', zip: '78705',
    start: { lat: 30.28270, lng: -97.74560 }, end: { lat: 30.29410, lng: -97.74470 },
    addrFrom: 1900, addrTo: 2799, tier: 2, schedule: 'campus', kindMix: MIX.campus,
    facilities: [],
  },
  {
    id: 'w-24th-st', street: 'W 24th St', neighborhood: 'West Campus', zip: '78705',
    start: { lat: 30.28820, lng: -97.74170 }, end: { lat: 30.28860, lng: -97.75050 },
    addrFrom: 400, addrTo: 1199, tier: 3, schedule: 'campus', kindMix: MIX.campus,
    facilities: [],
  },
  {
    id: 'e-dean-keeton-st', street: 'E Dean Keeton St', neighborhood: 'UT Campus', zip: '78705',
    start: { lat: 30.29040, lng: -97.73840 }, end: { lat: 30.28850, lng: -97.73000 },
    addrFrom: 100, addrTo: 899, tier: 3, schedule: 'campus', kindMix: MIX.campus,
    facilities: [{ name: 'Dean Keeton Garage', kind: 'garage', addr: 301 }],
  },
  {
    id: 'speedway', street: 'Speedway', neighborhood: 'North University', zip: '78705',
    start: { lat: 30.29020, lng: -97.73680 }, end: { lat: 30.29850, lng: -97.73640 },
    addrFrom: 2600, addrTo: 3299, tier: 2, schedule: 'campus', kindMix: MIX.neighborhood,
    facilities: [],
  },
  {
    id: 'guadalupe-st-hp', street: 'Guadalupe St', neighborhood: 'Hyde Park', zip: '78751',
    start: { lat: 30.30430, lng: -97.73630 }, end: { lat: 30.31070, lng: -97.73320 },
    addrFrom: 3800, addrTo: 4599, tier: 2, schedule: 'neighborhood', kindMix: MIX.neighborhood,
    facilities: [],
  },
  {
    id: 'duval-st', street: 'Duval St', neighborhood: 'Hyde Park', zip: '78751',
    start: { lat: 30.30240, lng: -97.72800 }, end: { lat: 30.30920, lng: -97.72320 },
    addrFrom: 4000, addrTo: 4599, tier: 2, schedule: 'neighborhood', kindMix: MIX.neighborhood,
    facilities: [],
  },
  {
    id: 'duval-st-north', street: 'Duval St', neighborhood: 'Hyde Park', zip: '78751',
    start: { lat: 30.30930, lng: -97.72310 }, end: { lat: 30.31450, lng: -97.71940 },
    addrFrom: 4600, addrTo: 5099, tier: 1, schedule: 'neighborhood', kindMix: MIX.neighborhood,
    facilities: [],
  },
  {
    id: 'n-lamar-blvd-heritage', street: 'N Lamar Blvd', neighborhood: 'Heritage', zip: '78705',
    start: { lat: 30.30140, lng: -97.74740 }, end: { lat: 30.30610, lng: -97.74280 },
    addrFrom: 3200, addrTo: 3799, tier: 2, schedule: 'neighborhood', kindMix: MIX.neighborhood,
    facilities: [],
  },
  {
    id: 'n-lamar-blvd-rosedale', street: 'N Lamar Blvd', neighborhood: 'Rosedale', zip: '78756',
    start: { lat: 30.30620, lng: -97.74270 }, end: { lat: 30.30930, lng: -97.73980 },
    addrFrom: 3800, addrTo: 4199, tier: 2, schedule: 'neighborhood', kindMix: MIX.retail,
    facilities: [{ name: 'Central Market Lot', kind: 'lot', addr: 4001 }],
  },
  {
    id: 'burnet-rd-rosedale', street: 'Burnet Rd', neighborhood: 'Rosedale', zip: '78756',
    start: { lat: 30.31850, lng: -97.74040 }, end: { lat: 30.33050, lng: -97.73890 },
    addrFrom: 4500, addrTo: 5599, tier: 1, schedule: 'neighborhood', kindMix: MIX.neighborhood,
    facilities: [],
  },
  {
    id: 'burnet-rd-allandale', street: 'Burnet Rd', neighborhood: 'Allandale', zip: '78757',
    start: { lat: 30.33060, lng: -97.73890 }, end: { lat: 30.34200, lng: -97.73820 },
    addrFrom: 5600, addrTo: 6599, tier: 1, schedule: 'neighborhood', kindMix: MIX.neighborhood,
    facilities: [],
  },
  {
    id: 'burnet-rd-crestview', street: 'Burnet Rd', neighborhood: 'Crestview', zip: '78757',
    start: { lat: 30.34210, lng: -97.73810 }, end: { lat: 30.35250, lng: -97.73670 },
    addrFrom: 6600, addrTo: 7599, tier: 1, schedule: 'neighborhood', kindMix: MIX.neighborhood,
    facilities: [],
  },
  {
    id: 'w-anderson-ln', street: 'W Anderson Ln', neighborhood: 'Allandale', zip: '78757',
    start: { lat: 30.34780, lng: -97.73000 }, end: { lat: 30.35030, lng: -97.73680 },
    addrFrom: 1800, addrTo: 2499, tier: 1, schedule: 'neighborhood', kindMix: MIX.retail,
    facilities: [{ name: 'Northcross Lot', kind: 'lot', addr: 2425 }],
  },
  {
    id: 'airport-blvd', street: 'Airport Blvd', neighborhood: 'North Loop', zip: '78751',
    start: { lat: 30.30300, lng: -97.71120 }, end: { lat: 30.32120, lng: -97.71500 },
    addrFrom: 4500, addrTo: 5399, tier: 1, schedule: 'neighborhood', kindMix: MIX.neighborhood,
    facilities: [],
  },

  // Mueller (78723).
  {
    id: 'aldrich-st', street: 'Aldrich St', neighborhood: 'Mueller', zip: '78723',
    start: { lat: 30.29500, lng: -97.70830 }, end: { lat: 30.29950, lng: -97.70750 },
    addrFrom: 1800, addrTo: 2199, tier: 2, schedule: 'retail', kindMix: MIX.retail,
    facilities: [
      { name: 'Mueller Town Center Garage', kind: 'garage', addr: 1900 },
      { name: 'Aldrich St Lot', kind: 'lot', addr: 2101 },
    ],
  },
  {
    id: 'mueller-blvd', street: 'Mueller Blvd', neighborhood: 'Mueller', zip: '78723',
    start: { lat: 30.29650, lng: -97.70250 }, end: { lat: 30.30450, lng: -97.70550 },
    addrFrom: 4500, addrTo: 4999, tier: 1, schedule: 'retail', kindMix: MIX.retail,
    facilities: [
      { name: 'Mueller Lake Park Lot', kind: 'lot', addr: 4550 },
      { name: 'Dell Children\'s Visitor Garage', kind: 'garage', addr: 4900 },
    ],
  },
  {
    id: 'e-51st-st', street: 'E 51st St', neighborhood: 'Mueller', zip: '78723',
    start: { lat: 30.30800, lng: -97.70850 }, end: { lat: 30.30350, lng: -97.69950 },
    addrFrom: 1100, addrTo: 1999, tier: 1, schedule: 'retail', kindMix: MIX.retail,
    facilities: [],
  },

  // The Domain (78758).
  {
    id: 'esperanza-crossing', street: 'Esperanza Crossing', neighborhood: 'The Domain', zip: '78758',
    start: { lat: 30.39880, lng: -97.72100 }, end: { lat: 30.40050, lng: -97.72550 },
    addrFrom: 3000, addrTo: 3299, tier: 2, schedule: 'retail', kindMix: MIX.retail,
    facilities: [{ name: 'Domain Central Garage', kind: 'garage', addr: 3121 }],
  },
  {
    id: 'century-oaks-ter', street: 'Century Oaks Terrace', neighborhood: 'The Domain', zip: '78758',
    start: { lat: 30.40000, lng: -97.72620 }, end: { lat: 30.40400, lng: -97.72500 },
    addrFrom: 11400, addrTo: 11699, tier: 2, schedule: 'retail', kindMix: MIX.retail,
    facilities: [{ name: 'Domain North Garage', kind: 'garage', addr: 11601 }],
  },
  {
    id: 'rock-rose-ave', street: 'Rock Rose Ave', neighborhood: 'Domain Northside', zip: '78758',
    start: { lat: 30.40030, lng: -97.72260 }, end: { lat: 30.40480, lng: -97.72120 },
    addrFrom: 11500, addrTo: 11899, tier: 2, schedule: 'retail', kindMix: MIX.retail,
    facilities: [{ name: 'Rock Rose Garage', kind: 'garage', addr: 11700 }],
  },

  // South Austin (78704 / 78741): SoCo, Bouldin Creek, Zilker, South Lamar, Travis Heights.
  {
    id: 's-congress-ave-bridge', street: 'S Congress Ave', neighborhood: 'Bouldin Creek', zip: '78704',
    start: { lat: 30.25920, lng: -97.74620 }, end: { lat: 30.25100, lng: -97.74880 },
    addrFrom: 100, addrTo: 1199, tier: 3, schedule: 'south', kindMix: MIX.south,
    facilities: [{ name: 'Statesman Lot', kind: 'lot', addr: 305 }],
  },
  {
    id: 's-congress-ave-soco', street: 'S Congress Ave', neighborhood: 'South Congress', zip: '78704',
    start: { lat: 30.25100, lng: -97.74880 }, end: { lat: 30.24270, lng: -97.75160 },
    addrFrom: 1200, addrTo: 2199, tier: 3, schedule: 'south', kindMix: MIX.south,
    facilities: [
      { name: 'SoCo Lot', kind: 'lot', addr: 1501 },
      { name: 'Travis Heights Garage', kind: 'garage', addr: 1720 },
    ],
  },
  {
    id: 's-congress-ave-south', street: 'S Congress Ave', neighborhood: 'St. Edward\'s', zip: '78704',
    start: { lat: 30.24180, lng: -97.75300 }, end: { lat: 30.23370, lng: -97.75770 },
    addrFrom: 2200, addrTo: 2999, tier: 2, schedule: 'south', kindMix: MIX.south,
    facilities: [],
  },
  {
    id: 's-1st-st', street: 'S 1st St', neighborhood: 'Bouldin Creek', zip: '78704',
    start: { lat: 30.25250, lng: -97.75430 }, end: { lat: 30.24150, lng: -97.75880 },
    addrFrom: 1000, addrTo: 2299, tier: 2, schedule: 'south', kindMix: MIX.south,
    facilities: [],
  },
  {
    id: 's-lamar-blvd-zilker', street: 'S Lamar Blvd', neighborhood: 'Zilker', zip: '78704',
    start: { lat: 30.26120, lng: -97.75800 }, end: { lat: 30.25370, lng: -97.76380 },
    addrFrom: 500, addrTo: 1299, tier: 3, schedule: 'south', kindMix: MIX.south,
    facilities: [{ name: 'South Lamar Garage', kind: 'garage', addr: 1100 }],
  },
  {
    id: 's-lamar-blvd-mid', street: 'S Lamar Blvd', neighborhood: 'Zilker', zip: '78704',
    start: { lat: 30.25360, lng: -97.76390 }, end: { lat: 30.24550, lng: -97.77450 },
    addrFrom: 1300, addrTo: 2199, tier: 2, schedule: 'south', kindMix: MIX.south,
    facilities: [],
  },
  {
    id: 's-lamar-blvd-south', street: 'S Lamar Blvd', neighborhood: 'South Lamar', zip: '78704',
    start: { lat: 30.24540, lng: -97.77460 }, end: { lat: 30.24200, lng: -97.78300 },
    addrFrom: 2200, addrTo: 2999, tier: 2, schedule: 'south', kindMix: MIX.south,
    facilities: [],
  },
  {
    id: 'barton-springs-rd', street: 'Barton Springs Rd', neighborhood: 'Bouldin Creek', zip: '78704',
    start: { lat: 30.26020, lng: -97.74780 }, end: { lat: 30.26060, lng: -97.75750 },
    addrFrom: 200, addrTo: 1099, tier: 3, schedule: 'south', kindMix: MIX.south,
    facilities: [{ name: 'Palmer Events Center Garage', kind: 'garage', addr: 900 }],
  },
  {
    id: 'barton-springs-rd-zilker', street: 'Barton Springs Rd', neighborhood: 'Zilker', zip: '78704',
    start: { lat: 30.26070, lng: -97.75850 }, end: { lat: 30.26450, lng: -97.76900 },
    addrFrom: 1100, addrTo: 2099, tier: 2, schedule: 'south', kindMix: MIX.south,
    facilities: [{ name: 'Zilker Park Lot', kind: 'lot', addr: 2078 }],
  },
  {
    id: 'e-riverside-dr', street: 'E Riverside Dr', neighborhood: 'Travis Heights', zip: '78704',
    start: { lat: 30.25880, lng: -97.74580 }, end: { lat: 30.25050, lng: -97.73460 },
    addrFrom: 100, addrTo: 1099, tier: 2, schedule: 'south', kindMix: MIX.south,
    facilities: [],
  },
  {
    id: 'e-riverside-dr-east', street: 'E Riverside Dr', neighborhood: 'East Riverside', zip: '78741',
    start: { lat: 30.25030, lng: -97.73430 }, end: { lat: 30.24250, lng: -97.72500 },
    addrFrom: 1100, addrTo: 2199, tier: 1, schedule: 'neighborhood', kindMix: MIX.neighborhood,
    facilities: [],
  },

  // Clarksville / Old West Austin (78703).
  {
    id: 'w-6th-st-clarksville', street: 'W 6th St', neighborhood: 'Clarksville', zip: '78703',
    start: { lat: 30.27080, lng: -97.75340 }, end: { lat: 30.27360, lng: -97.75930 },
    addrFrom: 1000, addrTo: 1599, tier: 3, schedule: 'downtown', kindMix: MIX.downtown,
    facilities: [],
  },
  {
    id: 'w-lynn-st', street: 'W Lynn St', neighborhood: 'Clarksville', zip: '78703',
    start: { lat: 30.27400, lng: -97.75980 }, end: { lat: 30.28000, lng: -97.75880 },
    addrFrom: 600, addrTo: 1199, tier: 2, schedule: 'neighborhood', kindMix: MIX.neighborhood,
    facilities: [],
  },
  {
    id: 'n-lamar-blvd-clarksville', street: 'N Lamar Blvd', neighborhood: 'Clarksville', zip: '78703',
    start: { lat: 30.27020, lng: -97.75350 }, end: { lat: 30.27780, lng: -97.75200 },
    addrFrom: 500, addrTo: 1199, tier: 3, schedule: 'downtown', kindMix: MIX.retail,
    facilities: [{ name: 'Lamar Market Lot', kind: 'lot', addr: 525 }],
  },
];
