import { and, eq, isNull, or, sql } from 'drizzle-orm';
import {
  centsToAmount,
  type AccountDetails,
  type RegisterRequest,
  type UserData,
  type WalletDetails,
} from '@parkit/contract';
import type { Executor } from '../db/client.ts';
import { jsonRow } from '../db/json-row.ts';
import { preparedPerDatabase } from '../db/prepared.ts';
import { SESSION_CHANNEL } from './session-cache.ts';
import { members } from '../db/schema/index.ts';
import type { WalletRow } from '../wallet/index.ts';

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
  await db
    .update(members)
    .set({ phoneVerifiedAt: sql`coalesce(${members.phoneVerifiedAt}, now())` })
    .where(eq(members.id, id));
}

/**
 * Raises the member's session version, and in the same statement tells every process by pg_notify
 * (delivered when it commits): each one drops its cached version (members/session-cache.ts). The caller
 * also forgets it in its own process's cache once this committed (app.sessionCache.forget()).
 */
async function bumpSessionVersion(
  db: Executor,
  id: number,
  also: Partial<Pick<Member, 'passwordHash'>> = {},
): Promise<void> {
  const bumped = db.$with('bumped').as(
    db
      .update(members)
      .set({
        ...also,
        sessionVersion: sql`${members.sessionVersion} + 1`,
        ...(also.passwordHash ? { updatedAt: sql`now()` } : {}),
      })
      .where(eq(members.id, id))
      .returning({ id: members.id }),
  );
  await db
    .with(bumped)
    .select({ n: sql`pg_notify(${SESSION_CHANNEL}, ${bumped.id}::text)` })
    .from(bumped);
}

/** A new password: every session of the member ends (session_version goes up). */
export async function setPassword(db: Executor, id: number, passwordHash: string): Promise<void> {
  await bumpSessionVersion(db, id, { passwordHash });
}

/** The same password re-hashed with today's parameters, unless it changed meanwhile. */
export async function setPasswordHash(db: Executor, id: number, oldHash: string, newHash: string): Promise<void> {
  await db
    .update(members)
    .set({ passwordHash: newHash })
    .where(and(eq(members.id, id), eq(members.passwordHash, oldHash)));
}

/** Logout: every access token of the member stops working at once. */
export async function endSessions(db: Executor, id: number): Promise<void> {
  await bumpSessionVersion(db, id);
}

/** The member's session version, or null when the member no longer exists. */
const sessionVersionStatement = preparedPerDatabase((db) =>
  db
    .select({ v: members.sessionVersion })
    .from(members)
    .where(eq(members.id, sql.placeholder('id')))
    .limit(1)
    .prepare('member_session_version'),
);

/** Read before a member route whose own statement does not read it (auth-plugin.ts): prepared once per database, as member_session_version. */
export async function sessionVersion(db: Executor, id: number): Promise<number | null> {
  const [row] = await sessionVersionStatement(db).execute({ id });
  return row ? row.v : null;
}

/**
 * An account whose phone was never verified holds its username, e-mail and phone
 * only as long as its code lives. A registration that wants one of them removes such accounts.
 */
export async function releaseUnverified(
  db: Executor,
  r: Pick<RegisterRequest, 'UserName' | 'EmailAddress' | 'PhoneNumber'>,
  olderThanSeconds: number,
): Promise<number[]> {
  const removed = db.$with('removed').as(
    db
      .delete(members)
      .where(
        and(
          isNull(members.phoneVerifiedAt),
          sql`${members.createdAt} < now() - make_interval(secs => ${olderThanSeconds})`,
          or(
            sql`lower(${members.userName}) = ${r.UserName.toLowerCase()}`,
            sql`lower(${members.email}) = ${r.EmailAddress.toLowerCase()}`,
            eq(members.phone, r.PhoneNumber),
          ),
        ),
      )
      .returning({ id: members.id }),
  );
  // A removed member's cached session version goes everywhere (as bumpSessionVersion), at commit:
  // a token of theirs gets 401. The caller forgets the ids here after commit.
  const rows = await db
    .with(removed)
    .select({ id: removed.id, n: sql`pg_notify(${SESSION_CHANNEL}, ${removed.id}::text)` })
    .from(removed);
  return rows.map((r) => r.id);
}

/** The profile fields a member may change (Edit Profile); username, email and phone are not among them. */
export type ProfileChanges = Partial<
  Pick<Member, 'firstName' | 'lastName' | 'addressLine1' | 'addressLine2' | 'city' | 'state' | 'zipCode'>
>;

export async function updateProfile(db: Executor, id: number, changes: ProfileChanges): Promise<Member | null> {
  const [row] = await db
    .update(members)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(eq(members.id, id))
    .returning();
  return row ?? null;
}

/**
 * GET /api/Account/Details reads one row by its key: the member's columns it shows, the
 * session version, and what it shows of other tables, kept on the member's row by triggers
 * (migration 0020): the vehicle count, the wallet settings, the default card and the active plan
 * (its name comes from the reference lists in memory). Not the password hash, nor the timestamps,
 * which node-postgres would parse into Dates on every request for nothing. Read as one JSON value
 * (docs/decisions/008-one-json-value.md). Prepared once per database, as account_details.
 */
const detailsColumns = {
  id: members.id,
  clientId: members.clientId,
  userName: members.userName,
  email: members.email,
  phone: members.phone,
  firstName: members.firstName,
  lastName: members.lastName,
  addressLine1: members.addressLine1,
  addressLine2: members.addressLine2,
  city: members.city,
  state: members.state,
  zipCode: members.zipCode,
  balanceCents: members.balanceCents,
  minBalanceCents: members.minBalanceCents,
  sessionVersion: members.sessionVersion,
};
export type DetailsMember = Pick<Member, keyof typeof detailsColumns>;

const preparedDetails = preparedPerDatabase((db: Executor) =>
  db
    .select({
      row: jsonRow({
        ...detailsColumns,
        vehicleCount: members.vehicleCount,
        autoReload: members.walletAutoReload,
        defaultAddAmountCents: members.walletDefaultAddAmountCents,
        cardId: members.defaultCardId,
        brand: members.defaultCardBrand,
        last4: members.defaultCardLast4,
        subscribedPlanId: members.activePlanId,
      }),
    })
    .from(members)
    .where(eq(members.id, sql.placeholder('id')))
    .prepare('account_details'),
);

export interface DetailsRow {
  member: DetailsMember;
  vehicleCount: number;
  wallet: WalletRow;
}

/** Null when the member does not exist (a token of a deleted member: the caller answers 401). */
export async function findDetails(db: Executor, id: number): Promise<DetailsRow | null> {
  const [found] = await preparedDetails(db).execute({ id });
  if (!found) return null;
  // Named one by one: a rest pattern (`...rest`) copies the row on V8's slow path. The
  // member's fields stay on the parsed object: toAccountDetails reads only its own.
  const { row } = found;
  const { vehicleCount, autoReload, defaultAddAmountCents, cardId, brand, last4, subscribedPlanId } = row;
  return {
    member: row,
    vehicleCount,
    wallet: { autoReload, defaultAddAmountCents, cardId, brand, last4, subscribedPlanId },
  };
}

/**
 * Locks the member's row (as lockMember) and answers its vehicle count, kept there by the
 * vehicles' triggers (migration 0020): while the lock is held no other writer can change it, so a
 * check of the limit and the insert after it are one step. Null when the member no longer exists.
 */
export async function lockMemberVehicleCount(tx: Executor, memberId: number): Promise<number | null> {
  const [row] = await tx
    .select({ n: members.vehicleCount })
    .from(members)
    .where(eq(members.id, memberId))
    .for('update');
  return row?.n ?? null;
}

/** The spec's user_data (docs/product.md#stored-data). MinBalance is a string, '0' when none. */
export function toUserData(m: Omit<DetailsMember, 'sessionVersion' | 'balanceCents' | 'clientId'>): UserData {
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

export function toAccountDetails(m: DetailsMember, vehicleCount: number, wallet: WalletDetails): AccountDetails {
  // Object.assign onto the fresh user data: spreads in the middle of a literal take V8's slow path.
  return Object.assign(
    toUserData(m),
    { Balance: centsToAmount(m.balanceCents), ClientId: m.clientId, VehicleCount: vehicleCount },
    wallet,
  );
}

/**
 * Locks the member's row until the transaction ends, so that one member's writes of a kind (cards,
 * vehicles, call-backs, reload settings) run one after the other and a read-then-write between them
 * holds. False when the member no longer exists.
 */
export async function lockMember(tx: Executor, memberId: number): Promise<boolean> {
  const rows = await tx.select({ id: members.id }).from(members).where(eq(members.id, memberId)).for('update');
  return rows.length > 0;
}

/**
 * A deleted account (docs/data.md#leaving): the row stays, so the ledger and the receipts an
 * operator keeps still name a member id, but holds no name, e-mail, phone, address or password.
 * The stand-ins start with '#', which no sign-up accepts, so no one can take them or sign in as
 * them; the session version goes up and every process is told (as bumpSessionVersion), so every
 * access token of the member stops at once. The caller holds the member's row lock.
 */
export async function anonymise(db: Executor, id: number): Promise<void> {
  const gone = `#deleted-${id}`;
  const done = db.$with('done').as(
    db
      .update(members)
      .set({
        userName: gone,
        email: gone,
        phone: gone,
        firstName: '',
        lastName: '',
        addressLine1: '',
        addressLine2: '',
        city: '',
        state: '',
        zipCode: '',
        passwordHash: 'deleted',
        minBalanceCents: 0,
        deletedAt: sql`now()`,
        sessionVersion: sql`${members.sessionVersion} + 1`,
        updatedAt: sql`now()`,
      })
      .where(eq(members.id, id))
      .returning({ id: members.id }),
  );
  await db
    .with(done)
    .select({ n: sql`pg_notify(${SESSION_CHANNEL}, ${done.id}::text)` })
    .from(done);
}
