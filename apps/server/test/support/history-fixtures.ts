import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../src/db/client.ts';
import { members, parkingSessions, zones } from '../../src/db/schema/index.ts';
import { insertZones, type NewZone } from '../../src/zones/zone-repository.ts';
import { registerAndSignIn } from '../helpers.ts';
import { addVehicle, CENTRE, zoneAt as parkingZoneAt } from '../parking-helpers.ts';

/** History zones are the parking tests' zones, with a 4-hour maximum stay. */
export const zoneAt = (zoneNumber: string, address: string, at: { lat: number; lng: number }): NewZone =>
  parkingZoneAt(zoneNumber, address, at, { maxStayMinutes: 240 });
export { CENTRE };

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

/** 1 Mar 2026 14:00 in Chicago (CST, UTC-6): the first day of the seeded history. */
export const DAY0 = Date.UTC(2026, 2, 1, 20, 0);
/** The instant three of Alice's sessions share (ties for the keyset). */
export const TIE = new Date(Date.UTC(2026, 2, 20, 18, 30));

/**
 * The history tests' world: Alice and Bob (the demo operator's members); zones 5001, 5002 and
 * 5003 at 111 m, 1.1 km and 5.6 km north of the city centre (1° of latitude ≈ 111.2 km); Alice's
 * car and van; 24 sessions of Alice over 12 days (14:00 and 20:00 Chicago, i.e. 20:00Z and 02:00Z
 * next day, zones in turn), three more at TIE in 5002 (one on the van), and one of Bob's.
 */
export async function seedHistory(app: FastifyInstance, db: Db) {
  const alice = await registerAndSignIn(app);
  const bob = await registerAndSignIn(app);
  const [m] = await db.select({ clientId: members.clientId }).from(members).where(eq(members.id, alice.memberId));
  const operatorId = m!.clientId;
  await addZones(db, operatorId, [
    zoneAt('5001', '100 Near St', { lat: CENTRE.lat + 0.001, lng: CENTRE.lng }),
    zoneAt('5002', '200 Middle St', { lat: CENTRE.lat + 0.01, lng: CENTRE.lng }),
    zoneAt('5003', '300 Far St', { lat: CENTRE.lat + 0.05, lng: CENTRE.lng }),
  ]);
  const zoneIds = Object.fromEntries(
    (await db.select({ id: zones.id, n: zones.zoneNumber }).from(zones)).map((z) => [z.n, z.id]),
  ) as Record<string, number>;
  const car = { id: await addVehicle(app, alice, 'ABC1234') };
  const van = { id: await addVehicle(app, alice, 'VAN 77') };
  const alicesIds: number[] = [];
  for (let i = 0; i < 24; i++) {
    const startedAt = new Date(DAY0 + Math.floor(i / 2) * 86_400_000 + (i % 2) * 6 * 3_600_000);
    const zone = ['5001', '5002', '5003'][i % 3]!;
    alicesIds.push(
      await addSession(db, {
        memberId: alice.memberId,
        operatorId,
        zoneId: zoneIds[zone]!,
        vehicleId: car.id,
        startedAt,
      }),
    );
  }
  for (let i = 0; i < 3; i++) {
    alicesIds.push(
      await addSession(db, {
        memberId: alice.memberId,
        operatorId,
        zoneId: zoneIds['5002']!,
        vehicleId: i === 0 ? van.id : car.id,
        plate: i === 0 ? 'VAN 77' : 'ABC1234',
        startedAt: TIE,
      }),
    );
  }
  const bobsId = await addSession(db, {
    memberId: bob.memberId,
    operatorId,
    zoneId: zoneIds['5001']!,
    startedAt: new Date(DAY0),
    plate: 'BOB1',
  });
  return { alice, bob, operatorId, zoneIds, car, van, alicesIds, bobsId };
}
