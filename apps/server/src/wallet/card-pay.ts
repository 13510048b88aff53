import type { FastifyReply, FastifyRequest } from 'fastify';
import { WALLET_MESSAGES } from '@parkit/contract';
import type { Tx } from '../db/client.ts';
import { walletCharges } from '../db/schema/index.ts';
import { HttpError } from '../lib/http-error.ts';
import { chargeCard, otherChargePending, recordCharge, type ChargeContext } from './charges.ts';
import { idempotent } from './idempotency.ts';
import { lockWallet } from './ledger.ts';
import { defaultCard } from './subscriptions.ts';

/** What a payment by card pays for: a permit, a citation. */
export interface CardPayment {
  /** The thing paid, the middle of the provider key (`permit:12`, `citation:7`). */
  what: string;
  /** What the card statement says. */
  description: string;
  /**
   * The amount due now (cents), read before the card is charged: throws the domain's 404 for
   * another member's id, its 409 when nothing is to pay, so such a request charges nothing.
   */
  amountDue: () => Promise<number>;
}

interface Charged {
  chargeId: number;
  chargeRef: string;
}

/**
 * A permit's or a citation's Pay (docs/architecture.md#money): from the wallet when
 * `paymentMethodId` is undefined, `pay` alone in the Idempotency-Key's transaction. By card, as
 * Subscribe does: the saved card is charged for exactly the amount due outside any transaction
 * (chargeCard, provider key `pay:<what>:<member>:<Idempotency-Key>`), then one transaction records
 * the charge as the wallet's credit and runs `pay`, which debits the wallet: the ledger shows the
 * charge in and the payment out, the balance is unchanged. A decline is a 402 and changes nothing;
 * a crash between the charge and the record leaves the charge pending, and the wallet job
 * (recoverCharges) credits it to the wallet; a payment refused after the charge (paid meanwhile by
 * another request) credits it to the wallet at once.
 */
export async function payFromWalletOrCard<T>(
  req: FastifyRequest,
  reply: FastifyReply,
  scope: string,
  paymentMethodId: number | undefined,
  card: CardPayment,
  /** `chargeId`: the card charge that paid (by card), for the thing paid to keep (a citation's refund goes back to it). */
  pay: (tx: Tx, key: string, chargeId?: number) => Promise<T>,
): Promise<T> {
  if (paymentMethodId === undefined)
    return idempotent(req, reply, scope, async (tx, key) => ({ statusCode: 200, body: await pay(tx, key) }));
  const ctx = req.server.wallet;
  const memberId = req.member.memberId;
  let charged: Charged | null = null;
  try {
    return await idempotent(
      req,
      reply,
      scope,
      async (tx, key, c: Charged) => {
        await recordCharge(tx, c.chargeId, c.chargeRef);
        return { statusCode: 200, body: await pay(tx, key, c.chargeId) };
      },
      async (key, keyExpired) => {
        charged = await chargeForPayment(ctx, memberId, key, paymentMethodId, card, keyExpired);
        return charged;
      },
    );
  } catch (err) {
    if (charged) await creditCharge(ctx, memberId, charged);
    throw err;
  }
}

/** The card half, outside any transaction: the card checked (another member's is 404), the amount read, charged once. */
async function chargeForPayment(
  ctx: ChargeContext,
  memberId: number,
  key: string,
  paymentMethodId: number,
  p: CardPayment,
  keyExpired: boolean,
): Promise<Charged> {
  const { card, customerRef } = await defaultCard(ctx.db, memberId, paymentMethodId);
  const amountCents = await p.amountDue();
  const prefix = `pay:${p.what}:`;
  const charge = {
    memberId,
    providerKey: `${prefix}${memberId}:${key}`,
    kind: 'top-up' as const,
    amountCents,
    description: p.description,
    providerRef: card.providerRef,
    customerRef,
    idempotencyKey: key,
  };
  // Written down under the wallet lock, as Subscribe's: another card payment of this member for the
  // same thing, charged and not yet recorded, is a 409, so two keys never charge the card for one need.
  await ctx.db.transaction(async (tx) => {
    await lockWallet(tx, memberId);
    if (await otherChargePending(tx, memberId, charge.providerKey, { keyPrefix: prefix }))
      throw new HttpError(409, WALLET_MESSAGES.walletBusy);
    await tx
      .insert(walletCharges)
      .values({ ...charge, currency: ctx.currency })
      .onConflictDoNothing({ target: walletCharges.providerKey });
  });
  const sent = await chargeCard(ctx, charge, { keyExpired });
  if (!sent.ok)
    throw new HttpError(sent.reason === 'declined' ? 402 : 503, sent.message, [
      { field: 'PaymentMethodId', message: sent.message },
    ]);
  return { chargeId: sent.chargeId, chargeRef: sent.chargeRef };
}

/** A charge whose payment was refused after it: credited to the wallet now (once: recordCharge). */
async function creditCharge(ctx: ChargeContext, memberId: number, c: Charged): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await lockWallet(tx, memberId);
    await recordCharge(tx, c.chargeId, c.chargeRef);
  });
}
