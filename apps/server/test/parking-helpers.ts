import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ParkingSession, Quote } from '@parkit/contract';
import { queryRows, type Db } from '../src/db/client.ts';
import { zones } from '../src/db/schema/index.ts';
import { defaultOperatorId } from '../src/plugins/app/zones/operator-repository.ts';
import { postEntry } from '../src/plugins/app/wallet/ledger.ts';
import { insertZones, type NewZone } from '../src/plugins/app/zones/zone-repository.ts';
import { as, type SignedIn } from './helpers.ts';

/** A zone of the demo operator (every test member parks with it): paid all week, all day, $2.50 an hour, 2 hours at most. */
export async function addZone(db: Db, zoneNumber: string, extra: Partial<NewZone> = {}): Promise<number> {
  const operatorId = await defaultOperatorId(db);
  await insertZones(db, operatorId, [
    {
      zoneNumber,
      name: `Zone ${zoneNumber}`,
      address: `${zoneNumber} Congress Ave`,
      city: 'Austin',
      state: 'TX',
      zip: '78701',
      lat: 30.2672,
      lng: -97.7431,
      kind: 'street',
      rateCents: 250,
      maxStayMinutes: 120,
      paidDays: [1, 2, 3, 4, 5, 6, 7],
      paidFromMinute: 0,
      paidUntilMinute: 1440,
      capacity: 10,
      ...extra,
    },
  ]);
  const [z] = await db.select({ id: zones.id }).from(zones).where(and(eq(zones.operatorId, operatorId), eq(zones.zoneNumber, zoneNumber)));
  if (!z) throw new Error('zone not inserted');
  return z.id;
}

let plates = 0;
/** Adds a vehicle through the API; returns its VehicleID. */
export async function addVehicle(app: FastifyInstance, who: SignedIn, plate = `PK${process.pid % 100}${++plates}`): Promise<number> {
  const res = await as(app, who, {
    method: 'POST',
    url: '/api/Vehicle/Add',
    payload: { VehicleMake: 'TOYOTA', VehicleModel: 'CAMRY', PlateNumber: plate, PlateState: 'TX', VehicleColor: 'SILVER', VehicleYear: '2021' },
  });
  if (res.statusCode !== 201) throw new Error(`vehicle add failed: ${res.statusCode} ${res.body}`);
  return res.json<{ VehicleID: number }>().VehicleID;
}

/** Credits the wallet through the wallet's own function (a test adjustment in the ledger). */
export async function credit(db: Db, memberId: number, cents: number): Promise<void> {
  await db.transaction((tx) => postEntry(tx, { memberId, amountCents: cents, kind: 'adjustment', reference: 'test' }));
}

export function quote(app: FastifyInstance, who: SignedIn, payload: unknown) {
  return as(app, who, { method: 'POST', url: '/api/Parking/Quote', payload: payload as Record<string, unknown> });
}

export function pay(app: FastifyInstance, who: SignedIn, action: 'Start' | 'Extend', payload: unknown, key: string | null = randomUUID()) {
  return as(app, who, { method: 'POST', url: `/api/Parking/${action}`, payload: payload as Record<string, unknown>, headers: key === null ? {} : { 'idempotency-key': key } });
}

/** Quote then Start, the real way; throws unless both succeed. */
export async function startSession(app: FastifyInstance, who: SignedIn, r: { zoneId: number; vehicleId: number; minutes: number }): Promise<ParkingSession> {
  const q = await quote(app, who, { ZoneId: r.zoneId, VehicleId: r.vehicleId, DurationMinutes: r.minutes });
  if (q.statusCode !== 200) throw new Error(`quote failed: ${q.statusCode} ${q.body}`);
  const s = await pay(app, who, 'Start', { QuoteId: q.json<Quote>().QuoteId });
  if (s.statusCode !== 201) throw new Error(`start failed: ${s.statusCode} ${s.body}`);
  return s.json<ParkingSession>();
}

/** The member's balance and the sum of the ledger: they must always agree. */
export async function walletState(db: Db, memberId: number): Promise<{ balance: number; ledger: number; entries: { kind: string; amount: number }[] }> {
  const [b] = await queryRows<{ balance: number }>(db, sql`select balance_cents as balance from members where id = ${memberId}`);
  const entries = await queryRows<{ kind: string; amount: number }>(db, sql`select kind, amount_cents as amount from ledger_entries where member_id = ${memberId} order by id`);
  return { balance: Number(b?.balance ?? 0), ledger: entries.reduce((a, e) => a + Number(e.amount), 0), entries };
}
