// The demo member's seeded history: a newcomer opening the demo sees sessions, a card, top-ups
// and a Deluxe month, all of it through the ledger, seeded once.
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { SessionsPage, TransactionsPage } from '@parkit/contract';
import { queryRows } from '../../src/db/client.ts';
import { demoCards, seedDemo } from '../../src/seeds/demo.ts';
import { DEMO_MEMBER } from '../../src/seeds/demo-member.ts';
import { as, buildTestApp, MANY_REQUESTS, TEST_SECRET, tokenPost, type SignedIn } from '../helpers.ts';
import { walletState } from '../parking-helpers.ts';
import { addMoney } from '../wallet/helpers.ts';

const { app, database } = await buildTestApp(MANY_REQUESTS);
const db = database.db;
const cards = demoCards({ JWT_SECRET: TEST_SECRET, STRIPE_SECRET_KEY: undefined, STRIPE_PUBLISHABLE_KEY: undefined });

async function signInDemo(): Promise<SignedIn & { memberId: number }> {
  const res = await tokenPost(app, {
    grant_type: 'password',
    username: DEMO_MEMBER.UserName,
    password: DEMO_MEMBER.Password,
  });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json<{ access_token: string; member_id: number }>();
  return {
    memberId: body.member_id,
    token: body.access_token,
    refreshToken: '',
    phone: DEMO_MEMBER.PhoneNumber,
    headers: { authorization: `Bearer ${body.access_token}`, xapikey: String(body.member_id) },
  };
}

const counts = async (memberId: number) =>
  (
    await queryRows<{ sessions: number; zones: number; weeks: number; cards: number; entries: number; subs: number }>(
      db,
      sql`select (select count(*)::int from parking_sessions where member_id = ${memberId}) as sessions,
                 (select count(distinct zone_id)::int from parking_sessions where member_id = ${memberId}) as zones,
                 (select count(distinct date_trunc('week', started_at))::int from parking_sessions where member_id = ${memberId}) as weeks,
                 (select count(*)::int from payment_methods where member_id = ${memberId}) as cards,
                 (select count(*)::int from ledger_entries where member_id = ${memberId}) as entries,
                 (select count(*)::int from subscriptions where member_id = ${memberId}) as subs`,
    )
  )[0]!;

describe('the demo member on first start', () => {
  it('has a believable past through the ledger, seeded once across restarts', async () => {
    const log = app.log;
    await seedDemo(db, log, 40, cards);
    const demo = await signInDemo();
    const first = await counts(demo.memberId);
    expect(first.sessions).toBeGreaterThanOrEqual(8);
    expect(first.zones).toBeGreaterThanOrEqual(3);
    expect(first.weeks).toBeGreaterThanOrEqual(5);
    expect(first.cards).toBe(1);
    expect(first.subs).toBe(1);

    // Every balance from the ledger: the entries sum to it, and each balance_after follows the last.
    const w = await walletState(db, demo.memberId);
    expect(w.ledger).toBe(w.balance);
    expect(w.balance).toBeGreaterThan(0);
    expect(w.entries.filter((e) => e.kind === 'top-up').length).toBeGreaterThanOrEqual(2);
    expect(w.entries.filter((e) => e.kind === 'plan')).toHaveLength(1);
    expect(w.entries.filter((e) => e.kind === 'parking')).toHaveLength(first.sessions);
    const chain = await queryRows<{ amount: number; after: number; at: Date }>(
      db,
      sql`select amount_cents as amount, balance_after_cents as after, created_at as at from ledger_entries
          where member_id = ${demo.memberId} order by id`,
    );
    let running = 0;
    for (const e of chain) {
      running += Number(e.amount);
      expect(Number(e.after)).toBe(running);
    }
    // In time order, and in the past: the spending chart and the list read them by date.
    const times = chain.map((e) => new Date(e.at).getTime());
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(Math.max(...times)).toBeLessThan(Date.now());

    // A Deluxe month that has ended: the member parks on Basic today.
    const [sub] = await queryRows<{ code: string; status: string }>(
      db,
      sql`select p.code, s.status from subscriptions s join plans p on p.id = s.plan_id where s.member_id = ${demo.memberId}`,
    );
    expect(sub).toEqual({ code: 'deluxe', status: 'ended' });

    // What the screens read: the sessions, newest first, and the transactions.
    const sessions = await as(app, demo, { method: 'GET', url: '/api/Parking/Sessions?sort=newest&limit=50' });
    expect(sessions.statusCode, sessions.body).toBe(200);
    expect(sessions.json<SessionsPage>().Sessions).toHaveLength(first.sessions);
    const tx = await as(app, demo, { method: 'GET', url: '/api/Wallet/Transactions?limit=50' });
    expect(tx.statusCode, tx.body).toBe(200);
    expect(tx.json<TransactionsPage>().Items.length).toBe(first.entries);

    // The seeded card is a real sandbox card: Add Money charges it.
    const added = await addMoney(app, demo, { Amount: '10.00' });
    expect(added.statusCode, added.body).toBe(200);
    expect((await walletState(db, demo.memberId)).balance).toBe(w.balance + 1000);

    // A restart seeds nothing again.
    await seedDemo(db, log, 40, cards);
    const again = await counts(demo.memberId);
    expect(again).toEqual({ ...first, entries: first.entries + 1 });
  });
});
