/**
 * A parking session with its zone as a raw SQL statement returns it (snake_case columns of
 * parking_sessions and zones; timestamps as Date on PostgreSQL, as text where a driver leaves
 * them so). Start's one statement, the history page and the receipt each read it with a few
 * columns more or fewer: they declare theirs from this one.
 */
export interface SessionSqlRow {
  id: number;
  zone_id: number;
  zone_number: string;
  address: string;
  city: string;
  state: string;
  lat: number;
  lng: number;
  vehicle_id: number | null;
  vehicle_make: string;
  vehicle_model: string;
  plate: string;
  plate_state: string;
  started_at: Date | string;
  ends_at: Date | string;
  ended_at: Date | string | null;
  duration_minutes: number;
  parking_cents: number;
  fee_cents: number;
  refunded_cents: number;
  paid_via: string;
}
