import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { AccountDetails } from '@parkit/contract';
import { queryRows, type Db } from '../../src/db/client.ts';
import { ledgerEntries } from '../../src/db/schema/index.ts';
import type { ReloadContext } from '../../src/wallet/auto-reload.ts';
import { postEntry } from '../../src/wallet/ledger.ts';
import { sandboxProvider } from '../../src/wallet/providers/sandbox.ts';
import { as, TEST_SECRET, type SignedIn } from '../helpers.ts';

export const CARDS = {
  ok: '4242 4242 4242 4242',
  /** Saved, then declined when charged (Stripe's "decline after attaching", 4000 0000 0000 0341). */
  declined: '4000 0000 0000 0341',
  /** Declined when it is added: the card's verification (a SetupIntent) refuses it. */
  declinedAtSetup: '4000 0000 0000 0002',
  insufficient: '4000 0000 0000 9995',
} as const;

/** A test card tokenized at the sandbox, as the browser's card form gets it: the token (Quick Park's CardToken). */
export async function sandboxCardToken(app: FastifyInstance, number: string = CARDS.ok): Promise<string> {
  const tok = await app.inject({
    method: 'POST',
    url: '/api/Sandbox/Tokens',
    payload: { Number: number, ExpMonth: 12, ExpYear: new Date().getFullYear() + 2, Cvc: '123' },
  });
  if (tok.statusCode !== 201) throw new Error(`tokenize failed: ${tok.statusCode} ${tok.body}`);
  return tok.json<{ Token: string }>().Token;
}

/** Tokenizes a test card at the sandbox and saves it for the member; returns the PaymentMethodId. */
export async function addCard(
  app: FastifyInstance,
  who: SignedIn,
  number: string = CARDS.ok,
  makeDefault = false,
): Promise<number> {
  const add = await as(app, who, {
    method: 'POST',
    url: '/api/PaymentMethods/Add',
    payload: { Token: await sandboxCardToken(app, number), MakeDefault: makeDefault },
  });
  if (add.statusCode !== 201) throw new Error(`add card failed: ${add.statusCode} ${add.body}`);
  return add.json<{ PaymentMethodId: number }>().PaymentMethodId;
}

export function addMoney(app: FastifyInstance, who: SignedIn, payload: unknown, key: string | null = randomUUID()) {
  return as(app, who, {
    method: 'POST',
    url: '/api/Wallet/AddMoney',
    payload: payload as object,
    headers: key === null ? {} : { 'idempotency-key': key },
  });
}

/** The member's GET /api/Account/Details, parsed. */
export const details = async (app: FastifyInstance, who: SignedIn) =>
  AccountDetails.parse((await as(app, who, { method: 'GET', url: '/api/Account/Details' })).json());

export const entriesOf = (db: Db, memberId: number) =>
  db.select().from(ledgerEntries).where(eq(ledgerEntries.memberId, memberId));

/** Whether the member's balance equals the sum of their ledger. */
export async function ledgerMatchesBalance(db: Db, memberId: number) {
  const [r] = await queryRows<{ balance: number; ledger: number }>(
    db,
    sql`select m.balance_cents as balance, coalesce((select sum(amount_cents) from ledger_entries where member_id = m.id), 0)::int as ledger from members m where m.id = ${memberId}`,
  );
  return Number(r?.balance) === Number(r?.ledger);
}

/** A debit like parking's, through the ledger's own function. */
export const debit = (db: Db, memberId: number, cents: number) =>
  db.transaction((tx) => postEntry(tx, { memberId, amountCents: -cents, kind: 'parking', reference: 'test' }));

/** The app's own reload and plan code, on the same database and the same sandbox secret. */
export const walletContext = (db: Db): ReloadContext => ({
  db,
  provider: sandboxProvider(TEST_SECRET),
  currency: 'usd',
  currencySymbol: '$',
});
