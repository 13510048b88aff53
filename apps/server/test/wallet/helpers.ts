import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { as, type SignedIn } from '../helpers.ts';

export const CARDS = {
  ok: '4242 4242 4242 4242',
  declined: '4000 0000 0000 0002',
  insufficient: '4000 0000 0000 9995',
} as const;

/** Tokenizes a test card at the sandbox and saves it for the member; returns the PaymentMethodId. */
export async function addCard(app: FastifyInstance, who: SignedIn, number: string = CARDS.ok, makeDefault = false): Promise<number> {
  const tok = await app.inject({ method: 'POST', url: '/api/Sandbox/Tokens', payload: { Number: number, ExpMonth: 12, ExpYear: new Date().getFullYear() + 2, Cvc: '123' } });
  if (tok.statusCode !== 201) throw new Error(`tokenize failed: ${tok.statusCode} ${tok.body}`);
  const add = await as(app, who, { method: 'POST', url: '/api/PaymentMethods/Add', payload: { Token: tok.json<{ Token: string }>().Token, MakeDefault: makeDefault } });
  if (add.statusCode !== 201) throw new Error(`add card failed: ${add.statusCode} ${add.body}`);
  return add.json<{ PaymentMethodId: number }>().PaymentMethodId;
}

export function addMoney(app: FastifyInstance, who: SignedIn, payload: unknown, key: string | null = randomUUID()) {
  return as(app, who, { method: 'POST', url: '/api/Wallet/AddMoney', payload: payload as object, headers: key === null ? {} : { 'idempotency-key': key } });
}
