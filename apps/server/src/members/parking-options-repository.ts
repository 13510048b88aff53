import { eq, sql } from 'drizzle-orm';
import { amountToCents, centsToAmount, type ParkingOptions, type UpdateParkingOptionsRequest } from '@parkit/contract';
import type { Executor } from '../db/client.ts';
import { parkingOptions } from '../db/schema/index.ts';

type Row = typeof parkingOptions.$inferSelect;

/** A member without a saved row has the table's defaults: all off, a $20.00 cap. */
const DEFAULTS = { autoStart: false, autoExtend: false, maxPaymentEnabled: false, maxPaymentCents: 2000 } as const;

const toOptions = (r: Pick<Row, keyof typeof DEFAULTS>): ParkingOptions => ({
  AutoStartParking: r.autoStart,
  AutoExtendParking: r.autoExtend,
  MaxPaymentEnabled: r.maxPaymentEnabled,
  MaxPaymentAmount: centsToAmount(r.maxPaymentCents),
});

export async function get(db: Executor, memberId: number): Promise<ParkingOptions> {
  const [row] = await db.select().from(parkingOptions).where(eq(parkingOptions.memberId, memberId)).limit(1);
  return toOptions(row ?? DEFAULTS);
}

/**
 * Saves the switches the request names and leaves the others as they were (each switch is
 * independent). One upsert statement, so two toggles at once cannot lose each other.
 */
export async function save(db: Executor, memberId: number, o: UpdateParkingOptionsRequest): Promise<ParkingOptions> {
  const changes: Partial<Row> = {};
  if (o.AutoStartParking !== undefined) changes.autoStart = o.AutoStartParking;
  if (o.AutoExtendParking !== undefined) changes.autoExtend = o.AutoExtendParking;
  if (o.MaxPaymentEnabled !== undefined) changes.maxPaymentEnabled = o.MaxPaymentEnabled;
  if (o.MaxPaymentAmount !== undefined) {
    const cents = amountToCents(o.MaxPaymentAmount);
    if (cents === null) throw new RangeError(`not an amount: ${o.MaxPaymentAmount}`);
    changes.maxPaymentCents = cents;
  }
  const [row] = await db
    .insert(parkingOptions)
    .values({ memberId, ...changes })
    .onConflictDoUpdate({ target: parkingOptions.memberId, set: { ...changes, updatedAt: sql`now()` } })
    .returning();
  if (!row) throw new Error('upsert returned no row');
  return toOptions(row);
}
