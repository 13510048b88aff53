import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../db/client.ts';
import type { ReceiptData } from './receipt-pdf.ts';
import type { SessionSqlRow } from '../db/session-row.ts';

interface Row extends Omit<SessionSqlRow, 'zone_id' | 'lat' | 'lng' | 'vehicle_id'> {
  operator_name: string;
  timezone: string;
}

/** One of the member's sessions as its receipt prints it; null when it is not the member's. */
export async function receiptOf(
  db: Executor,
  memberId: number,
  sessionId: number,
  currencySymbol: string,
): Promise<ReceiptData | null> {
  const [r] = await queryRows<Row>(
    db,
    sql`
    SELECT s.id, o.name AS operator_name, o.timezone, z.zone_number, z.address, z.city, z.state,
           s.plate, s.plate_state, s.vehicle_make, s.vehicle_model, s.started_at, s.ends_at, s.ended_at,
           s.duration_minutes, s.parking_cents, s.fee_cents, s.refunded_cents, s.paid_via
    FROM parking_sessions s
    JOIN zones z ON z.id = s.zone_id
    JOIN operators o ON o.id = s.operator_id
    WHERE s.id = ${sessionId} AND s.member_id = ${memberId}`,
  );
  if (!r) return null;
  const parking = Number(r.parking_cents) - Number(r.refunded_cents);
  return {
    sessionId: r.id,
    operatorName: r.operator_name,
    zoneNumber: r.zone_number,
    address: r.address,
    city: r.city,
    state: r.state,
    plateNumber: r.plate,
    plateState: r.plate_state,
    vehicle: [r.vehicle_make, r.vehicle_model].filter(Boolean).join(' '),
    startedAt: new Date(r.started_at),
    endedAt: new Date(r.ended_at ?? r.ends_at),
    durationMinutes: r.duration_minutes,
    // A refund comes off the parking amount (unused minutes); the fee is charged once.
    parkingCents: Math.max(0, parking),
    feeCents: Number(r.fee_cents),
    totalCents: Number(r.parking_cents) + Number(r.fee_cents) - Number(r.refunded_cents),
    paidVia: r.paid_via,
    paymentStatus: 'Paid',
    timeZone: r.timezone,
    currencySymbol,
  };
}
