import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { paymentMethods } from '../../src/db/schema/index.ts';
import { as, buildTestApp, registerAndSignIn } from '../helpers.ts';
import { addCard, CARDS, details } from './helpers.ts';

const { app, database } = await buildTestApp({ ADDRESS_RATE_LIMIT_SCALE: 1000 });
const db = database.db;

describe('cards', () => {
  it('lists, sets the default and deletes; deleting the default switches auto-reload off', async () => {
    const a = await registerAndSignIn(app);
    const first = await addCard(app, a);
    const second = await addCard(app, a, '5555 5555 5555 4444');
    let list = (await as(app, a, { method: 'GET', url: '/api/PaymentMethods/List' })).json<
      { PaymentMethodId: number; IsDefault: boolean; Brand: string }[]
    >();
    expect(list.map((c) => [c.PaymentMethodId, c.IsDefault])).toEqual([
      [first, true],
      [second, false],
    ]);
    expect(
      (
        await as(app, a, {
          method: 'POST',
          url: '/api/PaymentMethods/SetDefault',
          payload: { PaymentMethodId: second },
        })
      ).statusCode,
    ).toBe(200);
    await as(app, a, {
      method: 'POST',
      url: '/api/Account/AutoReload',
      payload: { AutoReload: true, DefaultAddAmount: 20, MinBalance: 5 },
    });
    const del = await as(app, a, {
      method: 'POST',
      url: '/api/PaymentMethods/Delete',
      payload: { PaymentMethodId: second },
    });
    expect(del.json()).toEqual({
      message: 'The default card was deleted, so auto-reload is now off',
      AutoReloadTurnedOff: true,
    });
    list = (await as(app, a, { method: 'GET', url: '/api/PaymentMethods/List' })).json();
    expect(list.map((c) => c.PaymentMethodId)).toEqual([first]);
    expect((await details(app, a)).AutoReload).toBe(false);
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
    ['no id', {}],
    ['a text id', { PaymentMethodId: 'abc' }],
    ['a negative id', { PaymentMethodId: -1 }],
    ['a huge id', { PaymentMethodId: 1e20 }],
    ['an injection', { PaymentMethodId: '1 or 1=1' }],
    ['an array', { PaymentMethodId: [1] }],
  ])('SetDefault and Delete refuse %s with 400 and change nothing', async (_what, payload) => {
    const a = await registerAndSignIn(app);
    const id = await addCard(app, a);
    for (const url of ['/api/PaymentMethods/SetDefault', '/api/PaymentMethods/Delete']) {
      expect((await as(app, a, { method: 'POST', url, payload: payload as object })).statusCode).toBe(400);
    }
    const [row] = await db.select().from(paymentMethods).where(eq(paymentMethods.id, id));
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

  it('verifies a card when it is added: a declined one is refused with the reason and not saved', async () => {
    const a = await registerAndSignIn(app);
    const tok = await app.inject({
      method: 'POST',
      url: '/api/Sandbox/Tokens',
      payload: { Number: CARDS.declinedAtSetup, ExpMonth: 12, ExpYear: 2099, Cvc: '123' },
    });
    expect(tok.statusCode).toBe(201);
    const res = await as(app, a, {
      method: 'POST',
      url: '/api/PaymentMethods/Add',
      payload: { Token: tok.json<{ Token: string }>().Token },
    });
    expect(res.statusCode).toBe(402);
    expect(res.json()).toMatchObject({
      message: 'Your card was declined.',
      errors: [{ field: 'Token', message: 'Your card was declined.' }],
    });
    expect(await db.select().from(paymentMethods).where(eq(paymentMethods.memberId, a.memberId))).toHaveLength(0);
    // Stripe's "decline after attaching" card is saved, and declines when charged.
    expect(await addCard(app, a, CARDS.declined)).toBeGreaterThan(0);
  });

  it('refuses a token whose payload was tampered with', async () => {
    const a = await registerAndSignIn(app);
    const tok = (
      await app.inject({
        method: 'POST',
        url: '/api/Sandbox/Tokens',
        payload: { Number: CARDS.declined, ExpMonth: 1, ExpYear: 2099, Cvc: '123' },
      })
    ).json<{ Token: string }>().Token;
    const [head, sig] = tok.split('.');
    const payload = JSON.parse(Buffer.from(head!.replace('tok_sandbox_', ''), 'base64url').toString()) as Record<
      string,
      unknown
    >;
    const forged = `tok_sandbox_${Buffer.from(JSON.stringify({ ...payload, o: 'succeeds' })).toString('base64url')}.${sig}`;
    const res = await as(app, a, { method: 'POST', url: '/api/PaymentMethods/Add', payload: { Token: forged } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message: 'This card token is not valid. Please enter the card again.' });
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['a Luhn failure', { Number: '4242 4242 4242 4241' }, 'Your card number is invalid.'],
    ['letters', { Number: 'abcd efgh' }, 'Your card number is invalid.'],
    [
      'a real-looking non-test number',
      { Number: '4111 1111 1111 1111' },
      'Your card was declined. Your request was in test mode, but used a non test card.',
    ],
    ['an expired card', { ExpMonth: 1, ExpYear: 2020 }, 'Your card has expired.'],
    ['a month 13', { ExpMonth: 13 }, 'Your card’s expiration date is invalid.'],
    ['a bad CVC', { Cvc: '12' }, 'Your card’s security code is invalid.'],
  ])('the sandbox tokenizer refuses %s', async (_what, change, message) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/Sandbox/Tokens',
      payload: { Number: CARDS.ok, ExpMonth: 12, ExpYear: 2099, Cvc: '123', ...change },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toBe(message);
  });
});

describe('POST /api/Sandbox/Tokens rate limit', () => {
  it('refuses card testing: too many tokens from one address is a 429', async () => {
    const { app: strict } = await buildTestApp({ ADDRESS_RATE_LIMIT_SCALE: 1 });
    const card = { Number: '4242 4242 4242 4242', ExpMonth: 12, ExpYear: 2099, Cvc: '123' };
    const codes: number[] = [];
    for (let i = 0; i < 32; i++)
      codes.push((await strict.inject({ method: 'POST', url: '/api/Sandbox/Tokens', payload: card })).statusCode);
    expect(codes.slice(0, 30).every((c) => c === 201)).toBe(true);
    expect(codes.slice(30)).toEqual([429, 429]);
  });
});
