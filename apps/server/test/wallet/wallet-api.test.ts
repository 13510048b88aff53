import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { AccountDetails, TransactionsPage } from '@parkit/contract';
import { queryRows } from '../../src/db/client.ts';
import { ledgerEntries, members, outbox, paymentMethods, walletSettings } from '../../src/db/schema/index.ts';
import { postEntry } from '../../src/plugins/app/wallet/ledger.ts';
import { runAllDueReloads, runDueReload, type ReloadContext } from '../../src/plugins/app/wallet/auto-reload.ts';
import { sandboxProvider } from '../../src/plugins/app/wallet/providers/sandbox.ts';
import { as, buildTestApp, registerAndSignIn, TEST_SECRET, type SignedIn } from '../helpers.ts';
import { addCard, addMoney, CARDS } from './helpers.ts';

const { app, database } = await buildTestApp({ ADDRESS_RATE_LIMIT_SCALE: 1000 });
const db = database.db;
/** The app's own reload code, on the same database and the same sandbox secret. */
const wallet: ReloadContext = { db, provider: sandboxProvider(TEST_SECRET), currency: 'usd', currencySymbol: '$' };

const details = async (who: SignedIn) => AccountDetails.parse((await as(app, who, { method: 'GET', url: '/api/Account/Details' })).json());
const entriesOf = (memberId: number) => db.select().from(ledgerEntries).where(eq(ledgerEntries.memberId, memberId));
async function ledgerMatchesBalance(memberId: number) {
  const [r] = await queryRows<{ balance: number; ledger: number }>(
    db,
    sql`select m.balance_cents as balance, coalesce((select sum(amount_cents) from ledger_entries where member_id = m.id), 0)::int as ledger from members m where m.id = ${memberId}`,
  );
  return Number(r?.balance) === Number(r?.ledger);
}
const debit = (memberId: number, cents: number) => db.transaction((tx) => postEntry(tx, { memberId, amountCents: -cents, kind: 'parking', reference: 'test' }));

describe('POST /api/Wallet/AddMoney', () => {
  it('charges the default card, credits the wallet and shows on Details and Transactions', async () => {
    const a = await registerAndSignIn(app);
    const before = await details(a);
    expect(before).toMatchObject({ Balance: 0, DefaultCard: null, AutoReload: false, CurrencySymbol: '$', Currency: 'USD', PaymentProvider: 'sandbox', Plan: { Code: 'basic' } });
    const pm = await addCard(app, a);
    const res = await addMoney(app, a, { Amount: 20 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ Amount: 20, Balance: 20, message: 'Money Added' });
    const after = await details(a);
    expect(after.Balance).toBe(20);
    expect(after.DefaultCard).toEqual({ PaymentMethodId: pm, Brand: 'Visa', Last4: '4242' });
    const page = TransactionsPage.parse((await as(app, a, { method: 'GET', url: '/api/Wallet/Transactions' })).json());
    expect(page.Items).toHaveLength(1);
    expect(page.Items[0]).toMatchObject({ Kind: 'top-up', Amount: 20, BalanceAfter: 20 });
  });

  it('accepts "12.5" and 12.50 as the same 12.50', async () => {
    const a = await registerAndSignIn(app);
    await addCard(app, a);
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
    ['hostile text', { Amount: "1; drop table members; --" }, 'Enter an amount with at most two decimals'],
    ['an object', { Amount: { $gt: 0 } }, 'Amount is required'],
    ['an oversized string', { Amount: '9'.repeat(5000) }, 'Enter an amount with at most two decimals'],
    ['Infinity-like', { Amount: '1e309' }, 'Enter an amount with at most two decimals'],
    ['a bad PaymentMethodId', { Amount: 20, PaymentMethodId: 'abc' }, 'Must be a number'],
  ])('refuses %s with 400 and credits nothing', async (_what, payload, message) => {
    const a = await registerAndSignIn(app);
    await addCard(app, a);
    const res = await addMoney(app, a, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toBe(message);
    expect(await entriesOf(a.memberId)).toHaveLength(0);
    expect((await details(a)).Balance).toBe(0);
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
    expect(await entriesOf(a.memberId)).toHaveLength(0);
    expect((await details(a)).Balance).toBe(0);
  });

  it('refuses another member’s PaymentMethodId with 404 and charges nothing', async () => {
    const a = await registerAndSignIn(app);
    const b = await registerAndSignIn(app);
    await addCard(app, a);
    const bobs = await addCard(app, b);
    const res = await addMoney(app, a, { Amount: 20, PaymentMethodId: bobs });
    expect(res.statusCode).toBe(404);
    expect(await entriesOf(a.memberId)).toHaveLength(0);
    expect(await entriesOf(b.memberId)).toHaveLength(0);
  });

  it('needs a token', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/Wallet/AddMoney', payload: { Amount: 20 }, headers: { 'idempotency-key': 'k' } });
    expect(res.statusCode).toBe(401);
  });
});

describe('Idempotency-Key', () => {
  it('is required and must be 1 to 255 visible characters', async () => {
    const a = await registerAndSignIn(app);
    await addCard(app, a);
    expect((await addMoney(app, a, { Amount: 20 }, null)).json()).toMatchObject({ message: 'The Idempotency-Key header is required' });
    for (const bad of ['x'.repeat(256), 'has space', 'tab\tkey']) {
      const res = await addMoney(app, a, { Amount: 20 }, bad);
      expect(res.statusCode).toBe(400);
    }
    expect(await entriesOf(a.memberId)).toHaveLength(0);
  });

  it('replays the first result for the same key and body, and moves money once', async () => {
    const a = await registerAndSignIn(app);
    await addCard(app, a);
    const key = randomUUID();
    const first = await addMoney(app, a, { Amount: 20 }, key);
    const again = await addMoney(app, a, { Amount: 20 }, key);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await entriesOf(a.memberId)).toHaveLength(1);
    expect((await details(a)).Balance).toBe(20);
  });

  it('answers 422 for the same key with another body, and moves nothing', async () => {
    const a = await registerAndSignIn(app);
    await addCard(app, a);
    const key = randomUUID();
    await addMoney(app, a, { Amount: 20 }, key);
    const other = await addMoney(app, a, { Amount: 30 }, key);
    expect(other.statusCode).toBe(422);
    expect(other.json()).toMatchObject({ message: 'This Idempotency-Key was already used for a different request' });
    expect((await details(a)).Balance).toBe(20);
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
    const a = await registerAndSignIn(app);
    await addCard(app, a);
    const key = randomUUID();
    const all = await Promise.all(Array.from({ length: 20 }, () => addMoney(app, a, { Amount: 20 }, key)));
    expect(all.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    expect(new Set(all.map((r) => r.json<{ TransactionId: number }>().TransactionId)).size).toBe(1);
    expect(await entriesOf(a.memberId)).toHaveLength(1);
    expect((await details(a)).Balance).toBe(20);
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
    const a = await registerAndSignIn(app);
    await addCard(app, a);
    const ops = Array.from({ length: 200 }, (_, i) =>
      i % 2 === 0
        ? addMoney(app, a, { Amount: 10 }).then((r) => r.statusCode)
        : debit(a.memberId, 700).then(
            () => 200,
            (err: { statusCode?: number }) => err.statusCode ?? 500,
          ),
    );
    const codes = await Promise.all(ops);
    expect(codes.every((c) => c === 200 || c === 402)).toBe(true);
    expect(codes.filter((c, i) => i % 2 === 0 && c === 200)).toHaveLength(100);
    expect(await ledgerMatchesBalance(a.memberId)).toBe(true);
    const [m] = await db.select().from(members).where(eq(members.id, a.memberId));
    expect(m!.balanceCents).toBe(100 * 1000 - 700 * codes.filter((c, i) => i % 2 === 1 && c === 200).length);
  });
});

describe('auto-reload', () => {
  async function setUp(card: string = CARDS.ok) {
    const a = await registerAndSignIn(app);
    await addCard(app, a, card);
    await db.transaction((tx) => postEntry(tx, { memberId: a.memberId, amountCents: 2000, kind: 'adjustment', reference: 'test' }));
    const res = await as(app, a, { method: 'POST', url: '/api/Account/AutoReload', payload: { AutoReload: true, DefaultAddAmount: '25.00', MinBalance: 10 } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ AutoReload: true, DefaultAddAmount: 25, MinBalance: '10' });
    return a;
  }

  it('tops up Default Add Amount once when a debit crosses the trigger, and tells the member', async () => {
    const a = await setUp();
    const posted = await debit(a.memberId, 1500);
    expect(posted).toMatchObject({ balanceCents: 500, reloadDue: true });
    expect(await runDueReload(wallet, a.memberId)).toBe('reloaded');
    expect(await runDueReload(wallet, a.memberId)).toBe('busy');
    expect((await details(a)).Balance).toBe(30);
    const kinds = (await entriesOf(a.memberId)).map((e) => e.kind);
    expect(kinds.filter((k) => k === 'auto-reload')).toHaveLength(1);
    const msgs = await db.select().from(outbox).where(eq(outbox.recipient, a.phone));
    expect(msgs.some((m) => m.body.includes('auto-reload added $25.00'))).toBe(true);
  });

  it('reloads once for many concurrent debits that cross the trigger', async () => {
    const a = await setUp();
    const results = await Promise.all(Array.from({ length: 10 }, () => debit(a.memberId, 150)));
    expect(results.filter((r) => r.reloadDue)).toHaveLength(1);
    await Promise.all(Array.from({ length: 5 }, () => runDueReload(wallet, a.memberId)));
    expect((await entriesOf(a.memberId)).filter((e) => e.kind === 'auto-reload')).toHaveLength(1);
    expect(await ledgerMatchesBalance(a.memberId)).toBe(true);
  });

  it('a declined reload switches auto-reload off and tells the member', async () => {
    const a = await setUp(CARDS.declined);
    await debit(a.memberId, 1500);
    expect(await runDueReload(wallet, a.memberId)).toBe('declined');
    expect((await details(a)).AutoReload).toBe(false);
    const msgs = await db.select().from(outbox).where(eq(outbox.recipient, a.phone));
    expect(msgs.some((m) => m.body.includes('Auto-reload was switched off because your card was declined'))).toBe(true);
  });

  it('the job runs reloads that are due', async () => {
    const a = await setUp();
    await debit(a.memberId, 1500);
    await runAllDueReloads(wallet);
    expect((await details(a)).Balance).toBe(30);
  });

  it.each<[string, unknown]>([
    ['no body', undefined],
    ['a missing switch', { DefaultAddAmount: 20, MinBalance: 5 }],
    ['a string switch', { AutoReload: 'yes', DefaultAddAmount: 20, MinBalance: 5 }],
    ['a reload amount below 5.00', { AutoReload: false, DefaultAddAmount: 1, MinBalance: 5 }],
    ['a negative trigger', { AutoReload: false, DefaultAddAmount: 20, MinBalance: -1 }],
    ['a trigger with three decimals', { AutoReload: false, DefaultAddAmount: 20, MinBalance: '1.001' }],
  ])('POST /api/Account/AutoReload refuses %s with 400', async (_what, payload) => {
    const a = await registerAndSignIn(app);
    const res = await as(app, a, { method: 'POST', url: '/api/Account/AutoReload', ...(payload === undefined ? {} : { payload: payload as object }) });
    expect(res.statusCode).toBe(400);
    expect(await db.select().from(walletSettings).where(eq(walletSettings.memberId, a.memberId))).toHaveLength(0);
  });

  it('cannot be switched on without a card', async () => {
    const a = await registerAndSignIn(app);
    const res = await as(app, a, { method: 'POST', url: '/api/Account/AutoReload', payload: { AutoReload: true, DefaultAddAmount: 20, MinBalance: 5 } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message: 'Add a payment card first' });
  });
});

describe('cards', () => {
  it('lists, sets the default and deletes; deleting the default switches auto-reload off', async () => {
    const a = await registerAndSignIn(app);
    const first = await addCard(app, a);
    const second = await addCard(app, a, '5555 5555 5555 4444');
    let list = (await as(app, a, { method: 'GET', url: '/api/PaymentMethods/List' })).json<{ PaymentMethodId: number; IsDefault: boolean; Brand: string }[]>();
    expect(list.map((c) => [c.PaymentMethodId, c.IsDefault])).toEqual([
      [first, true],
      [second, false],
    ]);
    expect((await as(app, a, { method: 'POST', url: '/api/PaymentMethods/SetDefault', payload: { PaymentMethodId: second } })).statusCode).toBe(200);
    await as(app, a, { method: 'POST', url: '/api/Account/AutoReload', payload: { AutoReload: true, DefaultAddAmount: 20, MinBalance: 5 } });
    const del = await as(app, a, { method: 'POST', url: '/api/PaymentMethods/Delete', payload: { PaymentMethodId: second } });
    expect(del.json()).toEqual({ message: 'The default card was deleted, so auto-reload is now off', AutoReloadTurnedOff: true });
    list = (await as(app, a, { method: 'GET', url: '/api/PaymentMethods/List' })).json();
    expect(list.map((c) => c.PaymentMethodId)).toEqual([first]);
    expect((await details(a)).AutoReload).toBe(false);
  });

  it('answers 404 for another member’s card and changes nothing', async () => {
    const a = await registerAndSignIn(app);
    const b = await registerAndSignIn(app);
    await addCard(app, a);
    const bobs = await addCard(app, b);
    for (const url of ['/api/PaymentMethods/SetDefault', '/api/PaymentMethods/Delete']) {
      const res = await as(app, a, { method: 'POST', url, payload: { PaymentMethodId: bobs } });
      expect(res.statusCode).toBe(404);
    }
    const [row] = await db.select().from(paymentMethods).where(eq(paymentMethods.id, bobs));
    expect(row?.isDefault).toBe(true);
  });

  it.each<[string, unknown]>([
    ['no token', {}],
    ['an empty token', { Token: '' }],
    ['a made-up token', { Token: 'tok_sandbox_abc.def' }],
    ['a huge token', { Token: 'x'.repeat(5000) }],
    ['a number instead of a token', { Token: 4242424242424242 }],
  ])('PaymentMethods/Add refuses %s with 400', async (_what, payload) => {
    const a = await registerAndSignIn(app);
    const res = await as(app, a, { method: 'POST', url: '/api/PaymentMethods/Add', payload: payload as object });
    expect(res.statusCode).toBe(400);
    expect(await db.select().from(paymentMethods).where(eq(paymentMethods.memberId, a.memberId))).toHaveLength(0);
  });

  it('refuses a token whose payload was tampered with', async () => {
    const a = await registerAndSignIn(app);
    const tok = (await app.inject({ method: 'POST', url: '/api/Sandbox/Tokens', payload: { Number: CARDS.declined, ExpMonth: 1, ExpYear: 2099, Cvc: '123' } })).json<{ Token: string }>().Token;
    const [head, sig] = tok.split('.');
    const payload = JSON.parse(Buffer.from(head!.replace('tok_sandbox_', ''), 'base64url').toString()) as Record<string, unknown>;
    const forged = `tok_sandbox_${Buffer.from(JSON.stringify({ ...payload, o: 'succeeds' })).toString('base64url')}.${sig}`;
    const res = await as(app, a, { method: 'POST', url: '/api/PaymentMethods/Add', payload: { Token: forged } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message: 'This card token is not valid. Please enter the card again.' });
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['a Luhn failure', { Number: '4242 4242 4242 4241' }, 'Your card number is invalid.'],
    ['letters', { Number: 'abcd efgh' }, 'Your card number is invalid.'],
    ['a real-looking non-test number', { Number: '4111 1111 1111 1111' }, 'Your card was declined. Your request was in test mode, but used a non test card.'],
    ['an expired card', { ExpMonth: 1, ExpYear: 2020 }, 'Your card has expired.'],
    ['a month 13', { ExpMonth: 13 }, 'Your card’s expiration date is invalid.'],
    ['a bad CVC', { Cvc: '12' }, 'Your card’s security code is invalid.'],
  ])('the sandbox tokenizer refuses %s', async (_what, change, message) => {
    const res = await app.inject({ method: 'POST', url: '/api/Sandbox/Tokens', payload: { Number: CARDS.ok, ExpMonth: 12, ExpYear: 2099, Cvc: '123', ...change } });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toBe(message);
  });
});

describe('GET /api/Wallet/Transactions and /Spending', () => {
  it('pages newest first with a cursor', async () => {
    const a = await registerAndSignIn(app);
    for (let i = 1; i <= 25; i++) await db.transaction((tx) => postEntry(tx, { memberId: a.memberId, amountCents: i * 100, kind: 'adjustment', reference: `t${i}` }));
    const seen: number[] = [];
    let cursor: number | null = null;
    do {
      const res = await as(app, a, { method: 'GET', url: `/api/Wallet/Transactions?limit=10${cursor ? `&cursor=${cursor}` : ''}` });
      const page = TransactionsPage.parse(res.json());
      seen.push(...page.Items.map((t) => t.Amount));
      cursor = page.NextCursor;
    } while (cursor);
    expect(seen).toEqual(Array.from({ length: 25 }, (_, i) => 25 - i));
  });

  it('shows only the member’s own entries', async () => {
    const a = await registerAndSignIn(app);
    const b = await registerAndSignIn(app);
    await db.transaction((tx) => postEntry(tx, { memberId: b.memberId, amountCents: 100, kind: 'adjustment', reference: 'b' }));
    const page = TransactionsPage.parse((await as(app, a, { method: 'GET', url: '/api/Wallet/Transactions' })).json());
    expect(page.Items).toEqual([]);
  });

  it.each(['limit=0', 'limit=101', 'limit=abc', 'cursor=-1', 'cursor=abc', `cursor=${'9'.repeat(40)}`])('refuses %s with 400', async (q) => {
    const a = await registerAndSignIn(app);
    expect((await as(app, a, { method: 'GET', url: `/api/Wallet/Transactions?${q}` })).statusCode).toBe(400);
  });

  it('sums spending per month over the last 6 months', async () => {
    const a = await registerAndSignIn(app);
    await addCard(app, a);
    await addMoney(app, a, { Amount: 50 });
    await debit(a.memberId, 1234);
    await db.transaction((tx) => postEntry(tx, { memberId: a.memberId, amountCents: 234, kind: 'refund', reference: 'r' }));
    const res = (await as(app, a, { method: 'GET', url: '/api/Wallet/Spending' })).json<{ Months: { Month: string; Spent: number; Added: number }[] }>();
    expect(res.Months).toHaveLength(6);
    expect(res.Months.at(-1)).toMatchObject({ Spent: 10, Added: 50 });
    expect(res.Months.slice(0, 5).every((m) => m.Spent === 0)).toBe(true);
  });
});
