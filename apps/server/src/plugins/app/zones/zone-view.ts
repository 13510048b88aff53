import { centsToAmount, type Zone, type ZoneKind } from '@parkit/contract';
import type { OperatorRecord } from './operator-repository.ts';
import { paymentStatus, storedHoursToClock } from './paid-hours.ts';
import type { ZoneRecord } from './zone-repository.ts';

const KINDS: readonly ZoneKind[] = ['street', 'lot', 'garage'];

/** A zone as the API shows it, with "payment required now" worked out for `now` in the operator's time zone. */
export function toZoneView(z: ZoneRecord, operator: OperatorRecord, now: Date, distanceM: number | null = null): Zone {
  const status = paymentStatus(z, operator.timezone, now);
  const hours = storedHoursToClock(z);
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
    Kind: KINDS.includes(z.kind as ZoneKind) ? (z.kind as ZoneKind) : 'street',
    RatePerHour: centsToAmount(z.rateCents),
    MaxStayMinutes: z.maxStayMinutes,
    Capacity: z.capacity,
    PaidDays: [...z.paidDays].sort((a, b) => a - b),
    PaidFrom: hours.from,
    PaidUntil: hours.until,
    Timezone: operator.timezone,
    PaymentRequiredNow: status.paidNow,
    PaidUntilNow: status.paidUntil,
    DistanceMeters: distanceM === null ? null : Math.round(distanceM),
  };
}
