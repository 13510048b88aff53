import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  AddCardRequest,
  AddMoneyRequest,
  AutoReloadRequest,
  PaymentMethodIdRequest,
  SandboxCardRequest,
  SubscribeRequest,
  TopUpAmount,
  TransactionsQuery,
  TriggerAmount,
  WALLET_MESSAGES as W,
  WireAmount,
} from './index.ts';
import { messages, expectMessages } from './test-messages.ts';

// The wallet's request schemas with the messages the API sends.
const root = (schema: z.ZodType, value: unknown) => messages(schema, value)['(root)'];

describe('Add Money: an amount from 5.00 to 500.00, in cents', () => {
  it('takes numbers and strings with at most two decimals', () => {
    expect(TopUpAmount.parse(5)).toBe(500);
    expect(TopUpAmount.parse('500.00')).toBe(50_000);
    expect(TopUpAmount.parse(' 12.5 ')).toBe(1250);
  });
  it('names what is wrong', () => {
    expect(root(TopUpAmount, '')).toBe('Amount is required');
    expect(root(TopUpAmount, undefined)).toBe(W.amountRequired);
    expect(root(TopUpAmount, null)).toBe(W.amountRequired);
    expect(root(TopUpAmount, '12.345')).toBe('Enter an amount with at most two decimals');
    expect(root(TopUpAmount, 'ten')).toBe(W.amountFormat);
    expect(root(TopUpAmount, '1'.repeat(21))).toBe(W.amountFormat);
    expect(root(TopUpAmount, 4.99)).toBe('Enter an amount from 5.00 to 500.00');
    expect(root(TopUpAmount, '500.01')).toBe(W.amountRange);
    expect(TopUpAmount.safeParse(5).success).toBe(true);
  });
});

describe('the auto-reload trigger: 0.00 to 500.00', () => {
  it('takes zero and the top', () => {
    expect(TriggerAmount.parse(0)).toBe(0);
    expect(TriggerAmount.parse('500')).toBe(50_000);
  });
  it('names what is wrong', () => {
    expect(root(TriggerAmount, -0.01)).toBe('Enter a trigger amount from 0.00 to 500.00');
    expect(root(TriggerAmount, 500.01)).toBe(W.triggerRange);
    expect(root(TriggerAmount, '1.001')).toBe(W.amountFormat);
    expect(root(TriggerAmount, '1'.repeat(21))).toBe(W.amountFormat);
    expect(root(TriggerAmount, undefined)).toBe(W.amountRequired);
  });
  it('with the switch and the top-up amount', () => {
    expect(AutoReloadRequest.parse({ AutoReload: true, DefaultAddAmount: '20', MinBalance: 5 })).toEqual({
      AutoReload: true,
      DefaultAddAmount: 2000,
      MinBalance: 500,
    });
    expect(messages(AutoReloadRequest, { AutoReload: 'yes', DefaultAddAmount: 20, MinBalance: 5 })).toEqual({
      AutoReload: 'AutoReload must be true or false',
    });
  });
});

describe('a wire amount', () => {
  it('a number or a short string', () => {
    expect(WireAmount.parse('1.50')).toBe('1.50');
    expect(WireAmount.safeParse('x'.repeat(21)).success).toBe(false);
    expect(WireAmount.safeParse('1'.repeat(20)).success).toBe(true);
    expect(root(WireAmount, true)).toBe(W.amountFormat);
  });
});

describe('ids in a wallet body: a number or digits', () => {
  it('are read as numbers', () => {
    expect(AddMoneyRequest.parse({ Amount: 10, PaymentMethodId: ' 3 ' })).toEqual({ Amount: 1000, PaymentMethodId: 3 });
    expect(AddMoneyRequest.parse({ Amount: 10 })).toEqual({ Amount: 1000 });
    expect(SubscribeRequest.parse({ PlanId: 2 })).toEqual({ PlanId: 2 });
    expect(SubscribeRequest.parse({ PlanId: '2', ExpressToken: 'pm_1' })).toEqual({ PlanId: 2, ExpressToken: 'pm_1' });
    expect(messages(SubscribeRequest, { PlanId: 2, ExpressToken: '' })).toEqual({ ExpressToken: W.tokenRequired });
    expect(messages(SubscribeRequest, { PlanId: 2, ExpressToken: 'x'.repeat(1001) })).toEqual({
      ExpressToken: W.tokenInvalid,
    });
  });
  it('anything else says why', () => {
    const at = (PaymentMethodId: unknown) => messages(PaymentMethodIdRequest, { PaymentMethodId });
    expect(at('')).toEqual({ PaymentMethodId: 'Must be a number' });
    expect(at('abc')).toEqual({ PaymentMethodId: 'Must be a number' });
    expect(at([3])).toEqual({ PaymentMethodId: 'Must be a number' });
    expect(PaymentMethodIdRequest.safeParse({ PaymentMethodId: '0000000000001' }).success).toBe(false); // more than 12 characters
    expect(at('000000000001')).toEqual({});
    expect(at(1.5)).toEqual({ PaymentMethodId: 'Must be a whole number' });
    expect(at(0)).toEqual({ PaymentMethodId: 'Must be a positive number' });
    expect(at('2147483648')).toEqual({ PaymentMethodId: 'Too large' });
    expect(at('2147483647')).toEqual({});
  });
});

describe('cards', () => {
  it('a token, trimmed, required, at most 2000 characters', () => {
    expect(AddCardRequest.parse({ Token: ' tok ', MakeDefault: true })).toEqual({ Token: 'tok', MakeDefault: true });
    expectMessages(AddCardRequest, [
      [{}, { Token: 'Token is required' }],
      [{ Token: '  ' }, { Token: W.tokenRequired }],
      [{ Token: 'x'.repeat(2001) }, { Token: W.tokenInvalid }],
      [{ Token: 'x'.repeat(2000) }, {}],
    ]);
  });
  it("the sandbox tokenizer's card: the provider's own messages", () => {
    const card = { Number: '4242424242424242', ExpMonth: '12', ExpYear: 2030, Cvc: '123' };
    expect(SandboxCardRequest.parse(card)).toEqual({ ...card, ExpMonth: 12 });
    expect(messages(SandboxCardRequest, { ...card, Number: undefined })).toEqual({ Number: 'Card number is required' });
    expect(messages(SandboxCardRequest, { ...card, Number: '4'.repeat(41) })).toEqual({
      Number: 'Your card number is invalid.',
    });
    for (const ExpMonth of [0, 13, 1.5, 'x'])
      expect(messages(SandboxCardRequest, { ...card, ExpMonth }), String(ExpMonth)).toEqual({
        ExpMonth: W.expiryInvalid,
      });
    for (const ExpYear of [1999, 2101, 2030.5, 'x'])
      expect(messages(SandboxCardRequest, { ...card, ExpYear }), String(ExpYear)).toEqual({ ExpYear: W.expiryInvalid });
    for (const ok of [
      { ExpMonth: 1, ExpYear: 2000 },
      { ExpMonth: 12, ExpYear: 2100 },
    ])
      expect(messages(SandboxCardRequest, { ...card, ...ok })).toEqual({});
    for (const Cvc of ['12', '12345', '12a', undefined])
      expect(messages(SandboxCardRequest, { ...card, Cvc }), String(Cvc)).toEqual({
        Cvc: 'Your card’s security code is invalid.',
      });
    expect(messages(SandboxCardRequest, { ...card, Cvc: '1234' })).toEqual({});
  });
});

describe('the transactions page', () => {
  it('20 by default, 1 to 100, after a positive cursor', () => {
    expect(TransactionsQuery.parse({})).toEqual({ limit: 20 });
    expect(TransactionsQuery.parse({ cursor: '5', limit: '100' })).toEqual({ cursor: 5, limit: 100 });
    expectMessages(TransactionsQuery, [
      [{ limit: '0' }, { limit: 'limit must be from 1 to 100' }],
      [{ limit: '101' }, { limit: 'limit must be from 1 to 100' }],
      [{ limit: '1.5' }, { limit: 'limit must be a whole number' }],
      [{ limit: 'x' }, { limit: 'limit must be a number' }],
      [{ cursor: 'x' }, { cursor: 'cursor must be a number' }],
      [{ cursor: '1.5' }, { cursor: 'cursor must be a whole number' }],
      [{ cursor: '0' }, { cursor: 'cursor must be positive' }],
    ]);
    expect(TransactionsQuery.safeParse({ cursor: String(Number.MAX_SAFE_INTEGER) }).success).toBe(true);
    expect(TransactionsQuery.safeParse({ cursor: '1e16' }).success).toBe(false);
  });
});
