// POST /api/Account/Language: a signed-in member's language choice is saved at once, and their push
// subscriptions follow it (texts and notifications are written in it); another member's rows, bad
// input and a visitor without a token change nothing (both databases).
import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { members, pushSubscriptions } from '../../../src/db/schema/index.ts';
import { memberLanguage } from '../../../src/infra/recipient-language.ts';
import { tableChecksums } from '../../guards/checksums.ts';
import { as, buildTestApp, expectRefused, registerAndSignIn } from '../../helpers.ts';

const { app, database } = await buildTestApp();
const { db } = database;
const alice = await registerAndSignIn(app);
const bob = await registerAndSignIn(app);
const subscription = (memberId: number, n: number) => ({
  memberId,
  endpoint: `https://push.example.org/send/${memberId}-${n}`,
  p256dh: 'B'.padEnd(87, 'A'),
  auth: 'A'.repeat(22),
});
const subs = await db
  .insert(pushSubscriptions)
  .values([subscription(alice.memberId, 1), subscription(alice.memberId, 2), subscription(bob.memberId, 1)])
  .returning({ id: pushSubscriptions.id, memberId: pushSubscriptions.memberId });
const languagesOf = async (memberId: number) =>
  (
    await db
      .select({ language: pushSubscriptions.language })
      .from(pushSubscriptions)
      .where(
        inArray(
          pushSubscriptions.id,
          subs.filter((s) => s.memberId === memberId).map((s) => s.id),
        ),
      )
  ).map((r) => r.language);
const choose = (who: typeof alice, payload: unknown) =>
  as(app, who, { method: 'POST', url: '/api/Account/Language', payload: payload as object });

describe('POST /api/Account/Language', () => {
  it('saves the member’s language and their push subscriptions’, not another member’s', async () => {
    const res = await choose(alice, { Language: 'hi' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ Language: 'hi' });
    expect(await memberLanguage(db, alice.memberId)).toBe('hi');
    expect(await languagesOf(alice.memberId)).toEqual(['hi', 'hi']);
    expect(await memberLanguage(db, bob.memberId)).toBe('en');
    expect(await languagesOf(bob.memberId)).toEqual(['en']);
    expect((await choose(alice, { Language: 'es' })).statusCode).toBe(200);
    expect(await memberLanguage(db, alice.memberId)).toBe('es');
    expect(await languagesOf(alice.memberId)).toEqual(['es', 'es']);
  });

  it('refuses bad input and a visitor without a token, changing nothing', async () => {
    const before = await tableChecksums(db);
    for (const bad of [{}, { Language: 'fr' }, { Language: 'HI' }, { Language: null }, { Language: ['hi'] }])
      expectRefused(await choose(alice, bad), 400, 'Language');
    const anonymous = await app.inject({ method: 'POST', url: '/api/Account/Language', payload: { Language: 'hi' } });
    expect(anonymous.statusCode).toBe(401);
    expect(await tableChecksums(db)).toEqual(before);
    const [row] = await db.select({ language: members.language }).from(members).where(eq(members.id, bob.memberId));
    expect(row!.language).toBe('en');
  });
});
