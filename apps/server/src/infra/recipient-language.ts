import { sql } from 'drizzle-orm';
import { queryRows, type Db, type Executor } from '../db/client.ts';
import { languageOr, type Language } from '../lib/language.ts';

/**
 * The language a text to someone is written in (docs/conventions.md#the-server): a member's saved
 * language (members.language, saved at sign-in and on a language change); a guest's, the language
 * their phone last asked a Quick Park code in (otp_sends.language).
 */
export async function memberLanguage(db: Executor, memberId: number): Promise<Language> {
  const [row] = await queryRows<{ language: string }>(db, sql`select language from members where id = ${memberId}`);
  return languageOr(row?.language);
}

export async function guestLanguage(db: Executor, phone: string): Promise<Language> {
  const [row] = await queryRows<{ language: string }>(
    db,
    sql`select language from otp_sends where phone = ${phone} and purpose = 'quickpark'`,
  );
  return languageOr(row?.language);
}

/** Saves a member's language (a no-op when it is already the one). */
export async function saveMemberLanguage(db: Executor, memberId: number, language: Language): Promise<void> {
  await db.execute(sql`update members set language = ${language} where id = ${memberId} and language <> ${language}`);
}

/**
 * A member chose another language in the app: their saved language and their push subscriptions'
 * follow it, in one transaction (texts and notifications are written in it from then on).
 */
export async function changeMemberLanguage(db: Db, memberId: number, language: Language): Promise<void> {
  await db.transaction(async (tx) => {
    await saveMemberLanguage(tx, memberId, language);
    await tx.execute(
      sql`update push_subscriptions set language = ${language} where member_id = ${memberId} and language <> ${language}`,
    );
  });
}
