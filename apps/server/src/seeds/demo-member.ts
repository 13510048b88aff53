import { eq, sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../db/client.ts';
import { members, vehicles, vehicleMakes, vehicleModels, vehicleColors } from '../db/schema/index.ts';
import { hashPassword } from '../auth/index.ts';
import { postEntrySql } from '../wallet/index.ts';
import { defaultOperatorId } from '../zones/index.ts';

/** The demo sign-in printed at start. Local data only: never seeded in production. */
export const DEMO_MEMBER = {
  UserName: 'demo',
  Password: 'parkit-demo',
  EmailAddress: 'demo@parkit.example',
  PhoneNumber: '5125550100',
  FirstName: 'Dana',
  LastName: 'Driver',
} as const;

/** The demo member's opening balance. */
export const DEMO_BALANCE_CENTS = 2500;

/** First start only: the demo member with a vehicle and some balance. Idempotent. */
export async function seedDemoMember(db: Executor): Promise<boolean> {
  const [existing] = await db
    .select({ id: members.id })
    .from(members)
    .where(eq(members.userName, DEMO_MEMBER.UserName))
    .limit(1);
  if (existing) return false;
  const clientId = await defaultOperatorId(db);
  const [m] = await db
    .insert(members)
    .values({
      clientId,
      userName: DEMO_MEMBER.UserName,
      email: DEMO_MEMBER.EmailAddress,
      phone: DEMO_MEMBER.PhoneNumber,
      firstName: DEMO_MEMBER.FirstName,
      lastName: DEMO_MEMBER.LastName,
      passwordHash: await hashPassword(DEMO_MEMBER.Password),
      addressLine1: '301 W 2nd St',
      city: 'Austin',
      state: 'TX',
      zipCode: '78701',
      minBalanceCents: 1000,
      phoneVerifiedAt: sql`now()`,
    })
    .returning({ id: members.id });
  // The demo balance of 25.00, as every balance: from a ledger entry (the wallet's own writer).
  if (m)
    await queryRows(
      db,
      sql`select * from ${postEntrySql(sql`${m.id}::int`, sql`${DEMO_BALANCE_CENTS}::int`, 'adjustment', sql`'demo:opening-balance'`, null)}`,
    );
  const [toyota] = await db.select().from(vehicleMakes).where(eq(vehicleMakes.name, 'Toyota')).limit(1);
  const [camry] = toyota
    ? await db
        .select()
        .from(vehicleModels)
        .where(sql`${vehicleModels.makeId} = ${toyota.id} and ${vehicleModels.name} = 'Camry'`)
        .limit(1)
    : [];
  const [silver] = await db.select().from(vehicleColors).where(eq(vehicleColors.name, 'Silver')).limit(1);
  if (m && toyota && camry && silver) {
    await db.insert(vehicles).values({
      memberId: m.id,
      makeId: toyota.id,
      modelId: camry.id,
      plate: 'DEMO 123',
      plateState: 'TX',
      colorId: silver.id,
      year: 2021,
    });
  }
  return true;
}
