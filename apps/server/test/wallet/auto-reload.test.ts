import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { outbox, walletSettings } from '../../src/db/schema/index.ts';
import { runAllDueReloads, runDueReload } from '../../src/wallet/auto-reload.ts';
import { postEntry } from '../../src/wallet/ledger.ts';
import { as, buildTestApp, registerAndSignIn } from '../helpers.ts';
import { addCard, CARDS, debit, details, entriesOf, ledgerMatchesBalance, walletContext } from './helpers.ts';

const { app, database } = await buildTestApp({ ADDRESS_RATE_LIMIT_SCALE: 1000 });
const db = database.db;
const wallet = walletContext(db);

describe('auto-reload', () => {
  async function setUp(card: string = CARDS.ok) {
    const a = await registerAndSignIn(app);
    await addCard(app, a, card);
    await db.transaction((tx) =>
      postEntry(tx, { memberId: a.memberId, amountCents: 2000, kind: 'adjustment', reference: 'test' }),
    );
    const res = await as(app, a, {
      method: 'POST',
      url: '/api/Account/AutoReload',
      payload: { AutoReload: true, DefaultAddAmount: '25.00', MinBalance: 10 },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ AutoReload: true, DefaultAddAmount: 25, MinBalance: '10' });
    return a;
  }

  it('tops up Default Add Amount once when a debit crosses the trigger, and tells the member', async () => {
    const a = await setUp();
    const posted = await debit(db, a.memberId, 1500);
    expect(posted).toMatchObject({ balanceCents: 500, reloadDue: true });
    expect(await runDueReload(wallet, a.memberId)).toBe('reloaded');
    expect(await runDueReload(wallet, a.memberId)).toBe('busy');
    expect((await details(app, a)).Balance).toBe(30);
    const kinds = (await entriesOf(db, a.memberId)).map((e) => e.kind);
    expect(kinds.filter((k) => k === 'auto-reload')).toHaveLength(1);
    const msgs = await db.select().from(outbox).where(eq(outbox.recipient, a.phone));
    expect(msgs.some((m) => m.body.includes('auto-reload added $25.00'))).toBe(true);
  });

  it('reloads once for many concurrent debits that cross the trigger', async () => {
    const a = await setUp();
    const results = await Promise.all(Array.from({ length: 10 }, () => debit(db, a.memberId, 150)));
    expect(results.filter((r) => r.reloadDue)).toHaveLength(1);
    await Promise.all(Array.from({ length: 5 }, () => runDueReload(wallet, a.memberId)));
    expect((await entriesOf(db, a.memberId)).filter((e) => e.kind === 'auto-reload')).toHaveLength(1);
    expect(await ledgerMatchesBalance(db, a.memberId)).toBe(true);
  });

  it('a declined reload switches auto-reload off and tells the member', async () => {
    const a = await setUp(CARDS.declined);
    await debit(db, a.memberId, 1500);
    expect(await runDueReload(wallet, a.memberId)).toBe('declined');
    expect((await details(app, a)).AutoReload).toBe(false);
    const msgs = await db.select().from(outbox).where(eq(outbox.recipient, a.phone));
    expect(msgs.some((m) => m.body.includes('Auto-reload was switched off because your card was declined'))).toBe(true);
  });

  it('the job runs reloads that are due', async () => {
    const a = await setUp();
    await debit(db, a.memberId, 1500);
    await runAllDueReloads(wallet);
    expect((await details(app, a)).Balance).toBe(30);
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
    const res = await as(app, a, {
      method: 'POST',
      url: '/api/Account/AutoReload',
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    expect(res.statusCode).toBe(400);
    expect(await db.select().from(walletSettings).where(eq(walletSettings.memberId, a.memberId))).toHaveLength(0);
  });

  it('cannot be switched on without a card', async () => {
    const a = await registerAndSignIn(app);
    const res = await as(app, a, {
      method: 'POST',
      url: '/api/Account/AutoReload',
      payload: { AutoReload: true, DefaultAddAmount: 20, MinBalance: 5 },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message: 'Add a payment card first' });
  });
});
