import type { Db } from '../../src/db/client.ts';
import { parkingSessions } from '../../src/db/schema/index.ts';
import { insertZones, type NewZone } from '../../src/plugins/app/zones/zone-repository.ts';

export const CENTRE = { lat: 30.2672, lng: -97.7431 };

export const zoneAt = (zoneNumber: string, address: string, at: { lat: number; lng: number }): NewZone => ({
  zoneNumber,
  name: `${address} meters`,
  address,
  city: 'Austin',
  state: 'TX',
  zip: '78701',
  ...at,
  kind: 'street',
  rateCents: 250,
  maxStayMinutes: 240,
  paidDays: [1, 2, 3, 4, 5, 6, 7],
  paidFromMinute: 0,
  paidUntilMinute: 1440,
  capacity: 12,
});

export async function addZones(db: Db, operatorId: number, list: NewZone[]) {
  await insertZones(db, operatorId, list);
}

export interface SessionSeed {
  memberId: number;
  operatorId: number;
  zoneId: number;
  vehicleId?: number | null;
  plate?: string;
  plateState?: string;
  startedAt: Date;
  minutes?: number;
  parkingCents?: number;
  feeCents?: number;
  active?: boolean;
}

/**
 * A parking_sessions row as the parking service writes it at Start (issue 11's table). Used until
 * that service is on this branch; the history reads the same columns either way.
 */
export async function addSession(db: Db, s: SessionSeed) {
  const minutes = s.minutes ?? 60;
  const endsAt = new Date(s.startedAt.getTime() + minutes * 60_000);
  const [row] = await db
    .insert(parkingSessions)
    .values({
      memberId: s.memberId,
      operatorId: s.operatorId,
      zoneId: s.zoneId,
      vehicleId: s.vehicleId ?? null,
      vehicleMake: 'TOYOTA',
      vehicleModel: 'CAMRY',
      plate: s.plate ?? 'ABC1234',
      plateState: s.plateState ?? 'TX',
      startedAt: s.startedAt,
      endsAt,
      endedAt: s.active ? null : endsAt,
      durationMinutes: minutes,
      initialMinutes: minutes,
      rateCents: 250,
      parkingCents: s.parkingCents ?? 250,
      feeCents: s.feeCents ?? 25,
      paidVia: 'Wallet',
      status: s.active ? 'active' : 'ended',
    })
    .returning({ id: parkingSessions.id });
  return row!.id;
}
