import { eq, or, sql } from 'drizzle-orm';
import { centsToAmount, type AccountDetails, type RegisterRequest, type UserData, type WalletDetails } from '@parkit/contract';
import type { Executor } from '../../../db/client.ts';
import { members, vehicles } from '../../../db/schema/index.ts';

export type Member = typeof members.$inferSelect;

export async function findById(db: Executor, id: number): Promise<Member | null> {
  const [m] = await db.select().from(members).where(eq(members.id, id)).limit(1);
  return m ?? null;
}

/** Sign-in name: a username or an e-mail address, either case. */
export async function findByLogin(db: Executor, login: string): Promise<Member | null> {
  const l = login.trim().toLowerCase();
  const [m] = await db
    .select()
    .from(members)
    .where(or(sql`lower(${members.userName}) = ${l}`, sql`lower(${members.email}) = ${l}`))
    .limit(1);
  return m ?? null;
}

export async function findByPhone(db: Executor, phone: string): Promise<Member | null> {
  const [m] = await db.select().from(members).where(eq(members.phone, phone)).limit(1);
  return m ?? null;
}

/** The fields of a registration that someone else already holds (username, email, phone). */
export async function takenFields(db: Executor, r: Pick<RegisterRequest, 'UserName' | 'EmailAddress' | 'PhoneNumber'>) {
  const rows = await db
    .select({ userName: members.userName, email: members.email, phone: members.phone })
    .from(members)
    .where(
      or(
        sql`lower(${members.userName}) = ${r.UserName.toLowerCase()}`,
        sql`lower(${members.email}) = ${r.EmailAddress.toLowerCase()}`,
        eq(members.phone, r.PhoneNumber),
      ),
    );
  return {
    UserName: rows.some((m) => m.userName.toLowerCase() === r.UserName.toLowerCase()),
    EmailAddress: rows.some((m) => m.email.toLowerCase() === r.EmailAddress.toLowerCase()),
    PhoneNumber: rows.some((m) => m.phone === r.PhoneNumber),
  };
}

export async function create(
  db: Executor,
  m: Omit<RegisterRequest, 'Password'> & { passwordHash: string; clientId: number; verified?: boolean },
): Promise<Member> {
  const [row] = await db
    .insert(members)
    .values({
      clientId: m.clientId,
      userName: m.UserName,
      email: m.EmailAddress,
      phone: m.PhoneNumber,
      firstName: m.FirstName,
      lastName: m.LastName,
      passwordHash: m.passwordHash,
      phoneVerifiedAt: m.verified ? new Date() : null,
    })
    .returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

export async function markPhoneVerified(db: Executor, id: number): Promise<void> {
  await db.update(members).set({ phoneVerifiedAt: sql`coalesce(${members.phoneVerifiedAt}, now())` }).where(eq(members.id, id));
}

export async function setPassword(db: Executor, id: number, passwordHash: string): Promise<void> {
  await db.update(members).set({ passwordHash, updatedAt: sql`now()` }).where(eq(members.id, id));
}

/** The profile fields a member may change (Edit Profile); username, email and phone are not among them. */
export type ProfileChanges = Partial<Pick<Member, 'firstName' | 'lastName' | 'addressLine1' | 'addressLine2' | 'city' | 'state' | 'zipCode'>>;

export async function updateProfile(db: Executor, id: number, changes: ProfileChanges): Promise<Member | null> {
  const [row] = await db.update(members).set({ ...changes, updatedAt: sql`now()` }).where(eq(members.id, id)).returning();
  return row ?? null;
}

/** The member and their vehicle count in one round trip (GET /api/Account/Details). */
export async function findWithVehicleCount(db: Executor, id: number): Promise<{ member: Member; vehicleCount: number } | null> {
  const [row] = await db
    .select({
      member: members,
      // Written out: drizzle renders columns of a one-table select unqualified, and inside the
      // subquery an unqualified "id" would be the vehicle's.
      vehicleCount: sql<number>`(select count(*)::int from vehicles v where v.member_id = "members"."id")`,
    })
    .from(members)
    .where(eq(members.id, id))
    .limit(1);
  return row ? { member: row.member, vehicleCount: Number(row.vehicleCount) } : null;
}

export async function countVehicles(db: Executor, memberId: number): Promise<number> {
  const [r] = await db.select({ n: sql<number>`count(*)::int` }).from(vehicles).where(eq(vehicles.memberId, memberId));
  return Number(r?.n ?? 0);
}

/** The spec's user_data (section 3). MinBalance is a string, '0' when none. */
export function toUserData(m: Member): UserData {
  return {
    MemberId: m.id,
    EmailAddress: m.email,
    PhoneNumber: m.phone,
    FirstName: m.firstName,
    LastName: m.lastName,
    UserName: m.userName,
    AddressLine1: m.addressLine1,
    AddressLine2: m.addressLine2,
    City: m.city,
    State: m.state,
    ZipCode: m.zipCode,
    MinBalance: String(centsToAmount(m.minBalanceCents)),
  };
}

export function toAccountDetails(m: Member, vehicleCount: number, wallet: WalletDetails): AccountDetails {
  return { ...toUserData(m), Balance: centsToAmount(m.balanceCents), ClientId: m.clientId, VehicleCount: vehicleCount, ...wallet };
}
