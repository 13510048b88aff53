import { centsToAmount, type Zone, type ZoneKind } from '@parkit/contract';
import type { OperatorRecord } from './operator-repository.ts';
import { paidTimeline, statusOnTimeline, storedHoursToClock } from './paid-hours.ts';
import type { ZoneRecord } from './zone-repository.ts';

const KINDS: readonly ZoneKind[] = ['street', 'lot', 'garage'];

/** What a zone's view works out from its row, the same every time the zone is shown. */
interface Derived {
  kind: ZoneKind;
  rate: number;
  paidDays: number[];
  paidFrom: string;
  paidUntil: string;
  timeline: [number, number][];
}

/**
 * Worked out once per zone row object: the cached rows (zone-cache.ts) are the same objects request
 * after request, so a zone shown again costs its status and distance only. A row read
 * afresh is a new object, worked out again.
 */
const derived = new WeakMap<ZoneRecord, Derived>();

function derive(z: ZoneRecord): Derived {
  let d = derived.get(z);
  if (!d) {
    const hours = storedHoursToClock(z);
    d = {
      kind: KINDS.includes(z.kind as ZoneKind) ? (z.kind as ZoneKind) : 'street',
      rate: centsToAmount(z.rateCents),
      paidDays: [...z.paidDays].sort((a, b) => a - b),
      paidFrom: hours.from,
      paidUntil: hours.until,
      timeline: paidTimeline(z),
    };
    derived.set(z, d);
  }
  return d;
}

/** The zone's price now by its price policy (pricing's ratesNow), which wins over the preset columns. */
export interface PriceNow {
  rateCents: number;
  paidNow: boolean;
  maxStayMinutes: number;
  /** Until when (local 'HH:MM') payment is required by the policy; null when free now or for a day or more. */
  paidUntil: string | null;
}

/**
 * A zone as the API shows it, with "payment required now" worked out for `now` in the operator's
 * time zone. One object literal with every field (a spread of the zone's facts plus three fields
 * cost ~7 µs a zone, most of a 20-zone answer's time). With `price` (the zone's policy, as the
 * quote engine prices it), the rate, the payment now, until when and the longest stay are the policy's.
 */
export function toZoneView(
  z: ZoneRecord,
  operator: OperatorRecord,
  now: Date,
  distanceM: number | null = null,
  price: PriceNow | null = null,
): Zone {
  const d = derive(z);
  // One rule: with the zone's policy, whether and until when it is paid now are the policy's, never
  // the preset columns' (they are the policy a zone without one is priced by).
  const status =
    price === null
      ? statusOnTimeline(d.timeline, operator.timezone, now)
      : { paidNow: price.paidNow, paidUntil: price.paidUntil };
  return {
    ZoneId: z.id,
    ClientId: z.operatorId,
    OperatorName: operator.name,
    ZoneNumber: z.zoneNumber,
    Name: z.name,
    Address: z.address,
    City: z.city,
    State: z.state,
    Zip: z.zip,
    Latitude: z.lat,
    Longitude: z.lng,
    Kind: d.kind,
    RatePerHour: price === null ? d.rate : centsToAmount(price.rateCents),
    MaxStayMinutes: price === null ? z.maxStayMinutes : Math.min(z.maxStayMinutes, price.maxStayMinutes),
    Capacity: z.capacity,
    PaidDays: d.paidDays,
    PaidFrom: d.paidFrom,
    PaidUntil: d.paidUntil,
    Timezone: operator.timezone,
    PaymentRequiredNow: status.paidNow,
    PaidUntilNow: status.paidUntil,
    DistanceMeters: distanceM === null ? null : Math.round(distanceM),
  };
}
