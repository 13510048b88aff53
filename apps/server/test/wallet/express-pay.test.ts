// Express payments (Apple Pay, Google Pay; the sandbox's test wallet) for Add Money: a one-time card
// charged through the same charge path as a saved card (Idempotency-Key, the ledger), never saved.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { WALLET_MESSAGES } from '@parkit/contract';
import { paymentMethods, walletCharges } from '../../src/db/schema/index.ts';
import { concurrently, expectJsonNo5xx } from '../concurrency.ts';
import { buildTestApp, expectRefused, MANY_REQUESTS, registerAndSignIn } from '../helpers.ts';
import { walletState } from '../parking-helpers.ts';
import { addCard, addMoney, CARDS } from './helpers.ts';

const { app, database } = await buildTestApp(MANY_REQUESTS);
const db = database.db;

/** What the web's test wallet button does: the sandbox tokenizes a test card for one payment. */
async function expressToken(number: string = CARDS.ok): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/Sandbox/Tokens',
    payload: { Number: number, ExpMonth: 12, ExpYear: new Date().getFullYear() + 2, Cvc: '123' },
  });
  expect(res.statusCode).toBe(201);
  return res.json<{ Token: string }>().Token;
}

describe('Add Money with an express payment', () => {
  it('credits the wallet once per Idempotency-Key without a saved card, and saves none', async () => {
    const m = await registerAndSignIn(app);
    const token = await expressToken();
    const key = randomUUID();
    const results = await concurrently(3, () => addMoney(app, m, { Amount: 12.5, ExpressToken: token }, key));
    expectJsonNo5xx(results);
    for (const r of results) expect(r.statusCode, r.body).toBe(200);
    expect(new Set(results.map((r) => r.json<{ TransactionId: number }>().TransactionId)).size).toBe(1);
    const w = await walletState(db, m.memberId);
    expect(w).toMatchObject({ balance: 1250, ledger: 1250 });
    expect(w.entries).toEqual([{ kind: 'top-up', amount: 1250 }]);
    expect(await db.select().from(paymentMethods).where(eq(paymentMethods.memberId, m.memberId))).toEqual([]);
    const charges = await db.select().from(walletCharges).where(eq(walletCharges.memberId, m.memberId));
    expect(charges.map((c) => [c.status, c.amountCents, c.customerRef])).toEqual([['recorded', 1250, null]]);
  });

  it('a declined express card credits nothing and says why', async () => {
    const m = await registerAndSignIn(app);
    const res = await addMoney(app, m, { Amount: 10, ExpressToken: await expressToken(CARDS.declined) });
    expectRefused(res, 402, undefined, WALLET_MESSAGES.declined);
    expect(await walletState(db, m.memberId)).toMatchObject({ balance: 0, ledger: 0 });
  });

  it('refuses a forged token, and a saved card and an express payment together', async () => {
    const m = await registerAndSignIn(app);
    const card = await addCard(app, m);
    expectRefused(await addMoney(app, m, { Amount: 10, ExpressToken: 'tok_sandbox_x.y' }), 400, 'ExpressToken');
    expectRefused(
      await addMoney(app, m, { Amount: 10, ExpressToken: await expressToken(), PaymentMethodId: card }),
      400,
      'ExpressToken',
      WALLET_MESSAGES.expressAndCard,
    );
    expect(await walletState(db, m.memberId)).toMatchObject({ balance: 0, ledger: 0 });
  });
});
