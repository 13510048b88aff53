import { createHash, randomInt } from 'node:crypto';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../../db/client.ts';
import { otpCodes } from '../../../db/schema/index.ts';

export type OtpPurpose = 'verify' | 'login' | 'reset' | 'quickpark';

/** Issue 2: 6 digits, valid 10 minutes, dead after 5 wrong tries, 30 s between sends. */
export const OTP_TTL_SECONDS = 600;
export const OTP_MAX_ATTEMPTS = 5;
export const OTP_RESEND_SECONDS = 30;

const hashCode = (phone: string, code: string) => createHash('sha256').update(`${phone}:${code}`).digest('hex');

/** Seconds until another code may be sent to this phone for this purpose; 0 when it may now. */
export async function resendWait(db: Executor, phone: string, purpose: OtpPurpose): Promise<number> {
  const [last] = await db
    .select({ createdAt: otpCodes.createdAt })
    .from(otpCodes)
    .where(and(eq(otpCodes.phone, phone), eq(otpCodes.purpose, purpose)))
    .orderBy(desc(otpCodes.createdAt))
    .limit(1);
  if (!last) return 0;
  const wait = OTP_RESEND_SECONDS - (Date.now() - last.createdAt.getTime()) / 1000;
  return wait > 0 ? wait : 0;
}

/** Makes a new code (older unused ones of the same purpose die) and returns it to be sent. */
export async function issue(db: Executor, phone: string, purpose: OtpPurpose): Promise<string> {
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await db
    .update(otpCodes)
    .set({ consumedAt: sql`now()` })
    .where(and(eq(otpCodes.phone, phone), eq(otpCodes.purpose, purpose), isNull(otpCodes.consumedAt)));
  await db.insert(otpCodes).values({
    phone,
    purpose,
    codeHash: hashCode(phone, code),
    expiresAt: new Date(Date.now() + OTP_TTL_SECONDS * 1000),
  });
  return code;
}

/**
 * Checks a code against the newest live one. A wrong code counts a try; the fifth wrong try kills
 * the code. A right code is consumed, so it works once.
 */
export async function consume(db: Executor, phone: string, purpose: OtpPurpose, code: string): Promise<boolean> {
  const [live] = await db
    .select()
    .from(otpCodes)
    .where(and(eq(otpCodes.phone, phone), eq(otpCodes.purpose, purpose), isNull(otpCodes.consumedAt)))
    .orderBy(desc(otpCodes.createdAt))
    .limit(1);
  if (!live || live.expiresAt.getTime() <= Date.now() || live.attempts >= OTP_MAX_ATTEMPTS) return false;
  if (live.codeHash === hashCode(phone, code)) {
    const used = await db
      .update(otpCodes)
      .set({ consumedAt: sql`now()` })
      .where(and(eq(otpCodes.id, live.id), isNull(otpCodes.consumedAt)))
      .returning({ id: otpCodes.id });
    return used.length === 1;
  }
  await db
    .update(otpCodes)
    .set({
      attempts: sql`${otpCodes.attempts} + 1`,
      consumedAt: live.attempts + 1 >= OTP_MAX_ATTEMPTS ? sql`now()` : null,
    })
    .where(eq(otpCodes.id, live.id));
  return false;
}
