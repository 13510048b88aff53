import { createHash, randomInt } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../db/client.ts';
import type { Language } from '../lib/language.ts';

export type OtpPurpose = 'verify' | 'login' | 'reset' | 'quickpark';

/** 6 digits, valid 10 minutes, dead after 5 wrong tries, 30 s between sends (docs/product.md#sign-in). */
export const OTP_TTL_SECONDS = 600;
export const OTP_MAX_ATTEMPTS = 5;
export const OTP_RESEND_SECONDS = 30;

const hashCode = (phone: string, code: string) => createHash('sha256').update(`${phone}:${code}`).digest('hex');

/**
 * Makes a new code for a phone and purpose, or returns the seconds to wait when one was sent less
 * than 30 s ago. The wait is one atomic upsert on otp_sends, so concurrent requests send one code;
 * older live codes die in the same transaction, so there is one live code per phone and purpose.
 */
export async function issue(
  db: Executor,
  phone: string,
  purpose: OtpPurpose,
  language: Language = 'en',
): Promise<{ code: string } | { wait: number }> {
  return db.transaction(async (tx) => {
    const claimed = await queryRows<{ ok: number }>(
      tx,
      sql`
      INSERT INTO otp_sends (phone, purpose, last_sent_at, language) VALUES (${phone}, ${purpose}, now(), ${language})
      ON CONFLICT (phone, purpose) DO UPDATE SET last_sent_at = now(), language = excluded.language
        WHERE otp_sends.last_sent_at <= now() - make_interval(secs => ${OTP_RESEND_SECONDS})
      RETURNING 1 AS ok`,
    );
    if (claimed.length === 0) {
      const [last] = await queryRows<{ wait: number | string }>(
        tx,
        sql`
        SELECT extract(epoch FROM (last_sent_at + make_interval(secs => ${OTP_RESEND_SECONDS}) - now())) AS wait
        FROM otp_sends WHERE phone = ${phone} AND purpose = ${purpose}`,
      );
      return { wait: Math.max(1, Number(last?.wait ?? OTP_RESEND_SECONDS)) };
    }
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    await tx.execute(sql`
      UPDATE otp_codes SET consumed_at = now() WHERE phone = ${phone} AND purpose = ${purpose} AND consumed_at IS NULL`);
    await tx.execute(sql`
      INSERT INTO otp_codes (phone, purpose, code_hash, expires_at)
      VALUES (${phone}, ${purpose}, ${hashCode(phone, code)}, now() + make_interval(secs => ${OTP_TTL_SECONDS}))`);
    return { code };
  });
}

/**
 * Checks a code against the live one in one statement: a wrong code counts a try and the fifth
 * kills the code; a right code is consumed, so it works once. Concurrent guesses queue on the row
 * and each re-reads the count, so no burst gets more than five tries.
 */
export async function consume(db: Executor, phone: string, purpose: OtpPurpose, code: string): Promise<boolean> {
  const hash = hashCode(phone, code);
  const rows = await queryRows<{ ok: boolean }>(
    db,
    sql`
    UPDATE otp_codes SET
      attempts = attempts + CASE WHEN code_hash = ${hash} THEN 0 ELSE 1 END,
      consumed_at = CASE WHEN code_hash = ${hash} OR attempts + 1 >= ${OTP_MAX_ATTEMPTS} THEN now() END
    WHERE id = (
        SELECT id FROM otp_codes
        WHERE phone = ${phone} AND purpose = ${purpose} AND consumed_at IS NULL
        ORDER BY created_at DESC LIMIT 1)
      AND consumed_at IS NULL AND attempts < ${OTP_MAX_ATTEMPTS} AND expires_at > now()
    RETURNING code_hash = ${hash} AS ok`,
  );
  return rows[0]?.ok === true;
}
