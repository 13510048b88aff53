import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { GuestToken, ParkingSession, Quote } from '@parkit/contract';
import { queryRows, type Db } from '../src/db/client.ts';
import { zones } from '../src/db/schema/index.ts';
import { defaultOperatorId } from '../src/zones/operator-repository.ts';
import { postEntry } from '../src/wallet/ledger.ts';
import { insertZones, type NewZone } from '../src/zones/zone-repository.ts';
import { as, lastCode, newMember, type SignedIn } from './helpers.ts';

/** Downtown Austin, the demo operator's city centre. */
export const CENTRE = { lat: 30.2672, lng: -97.7431 };

/** A street zone at a point: paid all week, all day, $2.50 an hour, 2 hours at most (`extra` changes any of it). */
export const zoneAt = (
  zoneNumber: string,
  address: string,
  at: { lat: number; lng: number },
  extra: Partial<NewZone> = {},
): NewZone => ({
  zoneNumber,
  name: `${address} meters`,
  address,
  city: 'Austin',
  state: 'TX',
  zip: '78701',
  ...at,
  kind: 'street',
  rateCents: 250,
  maxStayMinutes: 120,
  paidDays: [1, 2, 3, 4, 5, 6, 7],
  paidFromMinute: 0,
  paidUntilMinute: 1440,
  capacity: 12,
  ...extra,
});

/** A zone of the demo operator (every test member parks with it) at the city centre: zoneAt's terms, `Zone N` at `N Congress Ave`. */
export async function addZone(db: Db, zoneNumber: string, extra: Partial<NewZone> = {}): Promise<number> {
  const operatorId = await defaultOperatorId(db);
  await insertZones(db, operatorId, [
    { ...zoneAt(zoneNumber, `${zoneNumber} Congress Ave`, CENTRE), name: `Zone ${zoneNumber}`, capacity: 10, ...extra },
  ]);
  const [z] = await db
    .select({ id: zones.id })
    .from(zones)
    .where(and(eq(zones.operatorId, operatorId), eq(zones.zoneNumber, zoneNumber)));
  if (!z) throw new Error('zone not inserted');
  return z.id;
}

let plates = 0;
/** Adds a vehicle through the API; returns its VehicleID. */
export async function addVehicle(
  app: FastifyInstance,
  who: SignedIn,
  plate = `PK${process.pid % 100}${++plates}`,
): Promise<number> {
  const res = await as(app, who, {
    method: 'POST',
    url: '/api/Vehicle/Add',
    payload: {
      VehicleMake: 'TOYOTA',
      VehicleModel: 'CAMRY',
      PlateNumber: plate,
      PlateState: 'TX',
      VehicleColor: 'SILVER',
      VehicleYear: '2021',
    },
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

export function pay(
  app: FastifyInstance,
  who: SignedIn,
  action: 'Start' | 'Extend',
  payload: unknown,
  key: string | null = randomUUID(),
) {
  return as(app, who, {
    method: 'POST',
    url: `/api/Parking/${action}`,
    payload: payload as Record<string, unknown>,
    headers: key === null ? {} : { 'idempotency-key': key },
  });
}

/** Quote then Start, the real way; throws unless both succeed. */
export async function startSession(
  app: FastifyInstance,
  who: SignedIn,
  r: { zoneId: number; vehicleId: number; minutes: number },
): Promise<ParkingSession> {
  const q = await quote(app, who, { ZoneId: r.zoneId, VehicleId: r.vehicleId, DurationMinutes: r.minutes });
  if (q.statusCode !== 200) throw new Error(`quote failed: ${q.statusCode} ${q.body}`);
  const s = await pay(app, who, 'Start', { QuoteId: q.json<Quote>().QuoteId });
  if (s.statusCode !== 201) throw new Error(`start failed: ${s.statusCode} ${s.body}`);
  return s.json<ParkingSession>();
}

/** The member's balance and the sum of the ledger: they must always agree. */
export async function walletState(
  db: Db,
  memberId: number,
): Promise<{ balance: number; ledger: number; entries: { kind: string; amount: number }[] }> {
  const [b] = await queryRows<{ balance: number }>(
    db,
    sql`select balance_cents as balance from members where id = ${memberId}`,
  );
  const entries = await queryRows<{ kind: string; amount: number }>(
    db,
    sql`select kind, amount_cents as amount from ledger_entries where member_id = ${memberId} order by id`,
  );
  return { balance: Number(b?.balance ?? 0), ledger: entries.reduce((a, e) => a + Number(e.amount), 0), entries };
}

/** What the parking route tests look at around a request: row counts, a POST to /api/Parking/*, the ledger against the balance. */
export function parkingProbes(app: FastifyInstance, db: Db) {
  const count = async (table: 'parking_sessions' | 'parking_quotes' | 'ledger_entries') =>
    Number((await queryRows<{ n: number }>(db, sql`select count(*)::int as n from ${sql.raw(table)}`))[0]?.n);
  const snapshot = async () => ({
    sessions: await count('parking_sessions'),
    quotes: await count('parking_quotes'),
    ledger: await count('ledger_entries'),
  });
  const post = (who: SignedIn, path: string, payload: unknown, headers: Record<string, string> = {}) =>
    as(app, who, { method: 'POST', url: `/api/Parking/${path}`, payload: payload as Record<string, unknown>, headers });
  const expectLedgerMatches = async (memberId: number) => {
    const w = await walletState(db, memberId);
    if (w.ledger !== w.balance) throw new Error(`ledger ${w.ledger} != balance ${w.balance} for member ${memberId}`);
    return w;
  };
  return { count, snapshot, post, expectLedgerMatches };
}

/** A Quick Park guest: the phone's code sent and verified (SendCode, Verify); its phone and GuestToken. */
export async function verifiedGuest(
  app: FastifyInstance,
  phone = newMember().PhoneNumber,
): Promise<{ phone: string; token: string }> {
  const guest = (url: string, payload: object) =>
    app.inject({ method: 'POST', url: `/api/Parking/Guest/${url}`, payload });
  expect((await guest('SendCode', { PhoneNumber: phone })).statusCode).toBe(202);
  const res = await guest('Verify', { PhoneNumber: phone, Code: await lastCode(app, phone) });
  expect(res.statusCode, res.body).toBe(200);
  return { phone, token: res.json<GuestToken>().GuestToken };
}
