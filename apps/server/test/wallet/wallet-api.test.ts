import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { TransactionsPage } from '@parkit/contract';
import { idempotencyKeys, members } from '../../src/db/schema/index.ts';
import { purgeExpiredKeys } from '../../src/wallet/idempotency.ts';
import { postEntry } from '../../src/wallet/ledger.ts';
import { as, buildTestApp, MANY_REQUESTS, registerAndSignIn } from '../helpers.ts';
import { addCard, addMoney, CARDS, debit, details, entriesOf, ledgerMatchesBalance } from './helpers.ts';

// Hundreds of requests from one member: the money routes' limit raised so every case reaches validation.
const { app, database } = await buildTestApp(MANY_REQUESTS);
const db = database.db;

/** A new signed-in member with a saved card (the first, so the default). */
async function memberWithCard() {
  const a = await registerAndSignIn(app);
  await addCard(app, a);
  return a;
}

describe('POST /api/Wallet/AddMoney', () => {
  it('charges the default card, credits the wallet and shows on Details and Transactions', async () => {
    const a = await registerAndSignIn(app);
    const before = await details(app, a);
    expect(before).toMatchObject({
      Balance: 0,
      DefaultCard: null,
      AutoReload: false,
      CurrencySymbol: '$',
      Currency: 'USD',
      PaymentProvider: 'sandbox',
      Plan: { Code: 'basic' },
    });
    const pm = await addCard(app, a);
    const res = await addMoney(app, a, { Amount: 20 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ Amount: 20, Balance: 20, message: 'Money Added' });
    const after = await details(app, a);
    expect(after.Balance).toBe(20);
    expect(after.DefaultCard).toEqual({ PaymentMethodId: pm, Brand: 'Visa', Last4: '4242' });
    const page = TransactionsPage.parse((await as(app, a, { method: 'GET', url: '/api/Wallet/Transactions' })).json());
    expect(page.Items).toHaveLength(1);
    expect(page.Items[0]).toMatchObject({ Kind: 'top-up', Amount: 20, BalanceAfter: 20 });
  });

  it('accepts "12.5" and 12.50 as the same 12.50', async () => {
    const a = await memberWithCard();
    expect((await addMoney(app, a, { Amount: '12.5' })).json()).toMatchObject({ Balance: 12.5 });
    expect((await addMoney(app, a, { Amount: 12.5 })).json()).toMatchObject({ Balance: 25 });
  });

  it.each<[string, unknown, string]>([
    ['missing amount', {}, 'Amount is required'],
    ['null', { Amount: null }, 'Amount is required'],
    ['empty', { Amount: '' }, 'Amount is required'],
    ['below 5.00', { Amount: 4.99 }, 'Enter an amount from 5.00 to 500.00'],
    ['above 500.00', { Amount: '500.01' }, 'Enter an amount from 5.00 to 500.00'],
    ['negative', { Amount: -20 }, 'Enter an amount from 5.00 to 500.00'],
    ['three decimals', { Amount: '10.001' }, 'Enter an amount with at most two decimals'],
    ['text', { Amount: 'ten' }, 'Enter an amount with at most two decimals'],
    ['hostile text', { Amount: '1; drop table members; --' }, 'Enter an amount with at most two decimals'],
    ['an object', { Amount: { $gt: 0 } }, 'Amount is required'],
    ['an oversized string', { Amount: '9'.repeat(5000) }, 'Enter an amount with at most two decimals'],
    ['Infinity-like', { Amount: '1e309' }, 'Enter an amount with at most two decimals'],
    ['a bad PaymentMethodId', { Amount: 20, PaymentMethodId: 'abc' }, 'Must be a number'],
  ])('refuses %s with 400 and credits nothing', async (_what, payload, message) => {
    const a = await memberWithCard();
    const res = await addMoney(app, a, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toBe(message);
    expect(await entriesOf(db, a.memberId)).toHaveLength(0);
    expect((await details(app, a)).Balance).toBe(0);
  });

  it('answers 400 "Add a payment card first" without a card', async () => {
    const a = await registerAndSignIn(app);
    const res = await addMoney(app, a, { Amount: 20 });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message: 'Add a payment card first' });
  });

  it.each([
    [CARDS.declined, 'Your card was declined.'],
    [CARDS.insufficient, 'Your card has insufficient funds.'],
  ])('a declined card (%s) answers 402 with the reason and credits nothing', async (card, reason) => {
    const a = await registerAndSignIn(app);
    await addCard(app, a, card);
    const res = await addMoney(app, a, { Amount: 20 });
    expect(res.statusCode).toBe(402);
    expect(res.json()).toMatchObject({ message: reason });
    expect(await entriesOf(db, a.memberId)).toHaveLength(0);
    expect((await details(app, a)).Balance).toBe(0);
  });

  it('refuses another member’s PaymentMethodId with 404 and charges nothing', async () => {
    const a = await registerAndSignIn(app);
    const b = await registerAndSignIn(app);
    await addCard(app, a);
    const bobs = await addCard(app, b);
    const res = await addMoney(app, a, { Amount: 20, PaymentMethodId: bobs });
    expect(res.statusCode).toBe(404);
    expect(await entriesOf(db, a.memberId)).toHaveLength(0);
    expect(await entriesOf(db, b.memberId)).toHaveLength(0);
  });

  it('needs a token', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/Wallet/AddMoney',
      payload: { Amount: 20 },
      headers: { 'idempotency-key': 'k' },
    });
    expect(res.statusCode).toBe(401);
  });
});

describe('Idempotency-Key', () => {
  it('is required and must be 1 to 255 visible characters', async () => {
    const a = await memberWithCard();
    expect((await addMoney(app, a, { Amount: 20 }, null)).json()).toMatchObject({
      message: 'The Idempotency-Key header is required',
    });
    for (const bad of ['x'.repeat(256), 'has space', 'tab\tkey']) {
      const res = await addMoney(app, a, { Amount: 20 }, bad);
      expect(res.statusCode).toBe(400);
    }
    expect(await entriesOf(db, a.memberId)).toHaveLength(0);
  });

  it('replays the first result for the same key and body, and moves money once', async () => {
    const a = await memberWithCard();
    const key = randomUUID();
    const first = await addMoney(app, a, { Amount: 20 }, key);
    const again = await addMoney(app, a, { Amount: 20 }, key);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await entriesOf(db, a.memberId)).toHaveLength(1);
    expect((await details(app, a)).Balance).toBe(20);
  });

  it('answers 422 for the same key with another body, and moves nothing', async () => {
    const a = await memberWithCard();
    const key = randomUUID();
    await addMoney(app, a, { Amount: 20 }, key);
    const other = await addMoney(app, a, { Amount: 30 }, key);
    expect(other.statusCode).toBe(422);
    expect(other.json()).toMatchObject({ message: 'This Idempotency-Key was already used for a different request' });
    expect((await details(app, a)).Balance).toBe(20);
  });

  it('forgets a key after 24 hours: it then counts as new, and the job purges old keys', async () => {
    const a = await memberWithCard();
    const key = randomUUID();
    await addMoney(app, a, { Amount: 20 }, key);
    await db.execute(
      sql`update idempotency_keys set created_at = now() - interval '25 hours' where member_id = ${a.memberId}`,
    );
    const later = await addMoney(app, a, { Amount: 30 }, key);
    expect(later.statusCode).toBe(200);
    expect(later.headers['idempotent-replayed']).toBeUndefined();
    expect((await details(app, a)).Balance).toBe(50);
    await db.execute(
      sql`update idempotency_keys set created_at = now() - interval '25 hours' where member_id = ${a.memberId}`,
    );
    expect(await purgeExpiredKeys(db)).toBeGreaterThanOrEqual(1);
    expect(await db.select().from(idempotencyKeys).where(eq(idempotencyKeys.memberId, a.memberId))).toHaveLength(0);
  });

  it('keeps keys per member: another member may use the same key', async () => {
    const a = await registerAndSignIn(app);
    const b = await registerAndSignIn(app);
    await addCard(app, a);
    await addCard(app, b);
    expect((await addMoney(app, a, { Amount: 20 }, 'shared-key')).statusCode).toBe(200);
    expect((await addMoney(app, b, { Amount: 30 }, 'shared-key')).json()).toMatchObject({ Balance: 30 });
  });

  it('credits once for 20 concurrent requests with one key', async () => {
    const a = await memberWithCard();
    const key = randomUUID();
    const all = await Promise.all(Array.from({ length: 20 }, () => addMoney(app, a, { Amount: 20 }, key)));
    expect(all.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    expect(new Set(all.map((r) => r.json<{ TransactionId: number }>().TransactionId)).size).toBe(1);
    expect(await entriesOf(db, a.memberId)).toHaveLength(1);
    expect((await details(app, a)).Balance).toBe(20);
  });

  it('a decline is not stored: a retry with the same key runs again', async () => {
    const a = await registerAndSignIn(app);
    await addCard(app, a, CARDS.declined);
    const key = randomUUID();
    expect((await addMoney(app, a, { Amount: 20 }, key)).statusCode).toBe(402);
    const good = await addCard(app, a, CARDS.ok, true);
    const retry = await addMoney(app, a, { Amount: 20 }, key);
    expect(retry.statusCode).toBe(200);
    expect(good).toBeGreaterThan(0);
  });
});

describe('200 concurrent add and debit operations on one member', () => {
  it('keep the ledger equal to the balance, never below zero', async () => {
    const a = await memberWithCard();
    const ops = Array.from({ length: 200 }, (_, i) =>
      i % 2 === 0
        ? addMoney(app, a, { Amount: 10 }).then((r) => r.statusCode)
        : debit(db, a.memberId, 700).then(
            () => 200,
            (err: { statusCode?: number }) => err.statusCode ?? 500,
          ),
    );
    const codes = await Promise.all(ops);
    expect(codes.every((c) => c === 200 || c === 402)).toBe(true);
    expect(codes.filter((c, i) => i % 2 === 0 && c === 200)).toHaveLength(100);
    expect(await ledgerMatchesBalance(db, a.memberId)).toBe(true);
    const [m] = await db.select().from(members).where(eq(members.id, a.memberId));
    expect(m!.balanceCents).toBe(100 * 1000 - 700 * codes.filter((c, i) => i % 2 === 1 && c === 200).length);
  });
});

describe('GET /api/Wallet/Transactions and /Spending', () => {
  it('pages newest first with a cursor', async () => {
    const a = await registerAndSignIn(app);
    for (let i = 1; i <= 25; i++)
      await db.transaction((tx) =>
        postEntry(tx, { memberId: a.memberId, amountCents: i * 100, kind: 'adjustment', reference: `t${i}` }),
      );
    const seen: number[] = [];
    let cursor: number | null = null;
    do {
      const res = await as(app, a, {
        method: 'GET',
        url: `/api/Wallet/Transactions?limit=10${cursor ? `&cursor=${cursor}` : ''}`,
      });
      const page = TransactionsPage.parse(res.json());
      seen.push(...page.Items.map((t) => t.Amount));
      cursor = page.NextCursor;
    } while (cursor);
    expect(seen).toEqual(Array.from({ length: 25 }, (_, i) => 25 - i));
  });

  it('shows only the member’s own entries', async () => {
    const a = await registerAndSignIn(app);
    const b = await registerAndSignIn(app);
    await db.transaction((tx) =>
      postEntry(tx, { memberId: b.memberId, amountCents: 100, kind: 'adjustment', reference: 'b' }),
    );
    const page = TransactionsPage.parse((await as(app, a, { method: 'GET', url: '/api/Wallet/Transactions' })).json());
    expect(page.Items).toEqual([]);
  });

  it.each(['limit=0', 'limit=101', 'limit=abc', 'cursor=-1', 'cursor=abc', `cursor=${'9'.repeat(40)}`])(
    'refuses %s with 400',
    async (q) => {
      const a = await registerAndSignIn(app);
      expect((await as(app, a, { method: 'GET', url: `/api/Wallet/Transactions?${q}` })).statusCode).toBe(400);
    },
  );

  it('sums spending per month over the last 6 months', async () => {
    const a = await memberWithCard();
    await addMoney(app, a, { Amount: 50 });
    await debit(db, a.memberId, 1234);
    await db.transaction((tx) =>
      postEntry(tx, { memberId: a.memberId, amountCents: 234, kind: 'refund', reference: 'r' }),
    );
    const res = (await as(app, a, { method: 'GET', url: '/api/Wallet/Spending' })).json<{
      Months: { Month: string; Spent: number; Added: number }[];
    }>();
    expect(res.Months).toHaveLength(6);
    expect(res.Months.at(-1)).toMatchObject({ Spent: 10, Added: 50 });
    expect(res.Months.slice(0, 5).every((m) => m.Spent === 0)).toBe(true);
  });
});
