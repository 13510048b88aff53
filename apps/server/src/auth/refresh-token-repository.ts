import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { refreshTokens } from '../db/schema/index.ts';

export const REFRESH_TOKEN_DAYS = 30;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export interface RefreshGrant {
  memberId: number;
  amr: 'pwd' | 'otp';
  authTime: number;
}

/** Starts a token family (a sign-in) or continues one (a refresh). Only a hash is stored. */
export async function create(
  db: Executor,
  memberId: number,
  amr: string,
  familyId: string = randomUUID(),
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.insert(refreshTokens).values({
    memberId,
    familyId,
    amr,
    tokenHash: hashToken(token),
    expiresAt: new Date(Date.now() + REFRESH_TOKEN_DAYS * 86_400_000),
  });
  return token;
}

/**
 * Rotates a refresh token: the presented one dies and a new one of the same family is returned.
 * Presenting a token that was already rotated means it leaked: the whole family is revoked.
 */
export async function rotate(db: Executor, token: string): Promise<{ grant: RefreshGrant; token: string } | null> {
  const [row] = await db
    .select()
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, hashToken(token)))
    .limit(1);
  if (!row || row.revokedAt || row.expiresAt.getTime() <= Date.now()) return null;
  const claimed = await db
    .update(refreshTokens)
    .set({ rotatedAt: sql`now()` })
    .where(and(eq(refreshTokens.id, row.id), isNull(refreshTokens.rotatedAt)))
    .returning({ id: refreshTokens.id });
  if (claimed.length === 0) {
    await revokeFamily(db, row.familyId);
    return null;
  }
  const next = await create(db, row.memberId, row.amr, row.familyId);
  // The sign-in happened when the family began, not at the last rotation.
  const [first] = await db
    .select({ at: sql<string>`min(${refreshTokens.createdAt})` })
    .from(refreshTokens)
    .where(eq(refreshTokens.familyId, row.familyId));
  const authTime = Math.floor(new Date(first?.at ?? row.createdAt).getTime() / 1000);
  return { grant: { memberId: row.memberId, amr: row.amr === 'otp' ? 'otp' : 'pwd', authTime }, token: next };
}

export async function revokeFamily(db: Executor, familyId: string): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
}

/** Logout: the family of the presented token dies. Returns false for an unknown token. */
export async function revoke(db: Executor, token: string): Promise<boolean> {
  const [row] = await db
    .select({ familyId: refreshTokens.familyId })
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, hashToken(token)))
    .limit(1);
  if (!row) return false;
  await revokeFamily(db, row.familyId);
  return true;
}

/** The member a refresh token belongs to (revoked or not), or null for an unknown token. */
export async function memberOf(db: Executor, token: string): Promise<number | null> {
  const [row] = await db
    .select({ memberId: refreshTokens.memberId })
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, hashToken(token)))
    .limit(1);
  return row?.memberId ?? null;
}

/** A password change or a logout signs the member out everywhere. */
export async function revokeAllOf(db: Executor, memberId: number): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(refreshTokens.memberId, memberId), isNull(refreshTokens.revokedAt)));
}
