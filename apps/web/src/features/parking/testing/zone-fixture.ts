import type { Zone } from '@parkit/contract';

/** A plausible zone for component tests; override what the test is about. */
export function makeZone(over: Partial<Zone> = {}): Zone {
  return {
    ZoneId: 7,
    ClientId: 1,
    OperatorName: 'Austin Mobility',
    ZoneNumber: '1001',
    Name: 'Congress Ave 100 block (east side)',
    Address: '112 Congress Ave',
    City: 'Austin',
    State: 'TX',
    Zip: '78701',
    Latitude: 30.2641,
    Longitude: -97.7446,
    Kind: 'street',
    RatePerHour: 2.5,
    MaxStayMinutes: 120,
    Capacity: 12,
    PaidDays: [1, 2, 3, 4, 5, 6],
    PaidFrom: '08:00',
    PaidUntil: '18:00',
    Timezone: 'America/Chicago',
    PaymentRequiredNow: true,
    PaidUntilNow: '18:00',
    DistanceMeters: 347.6,
    ...over,
  };
}
