import { and, eq } from 'drizzle-orm';
import { centsToAmount, LEAVING_MESSAGES, type DeleteAccountResponse } from '@parkit/contract';
import type { Executor, Tx } from '../db/client.ts';
import {
  members,
  operatorStaff,
  otpCodes,
  otpSends,
  outbox,
  parkingOptions,
  parkingQuotes,
  parkingSessions,
  paymentMethods,
  pushSubscriptions,
  refreshTokens,
  reminderSettings,
  subscriptions,
  supportAgents,
  supportAttachments,
  supportCallBacks,
  supportConversations,
  vehicles,
  walletCharges,
  walletSettings,
} from '../db/schema/index.ts';
import { badRequest, HttpError, notFound } from '../lib/http-error.ts';
import { anonymise } from '../members/index.ts';
import { DUMMY_HASH, verifyPassword } from '../auth/index.ts';
import { emptyWalletToCards, type IdempotentResult } from '../wallet/index.ts';

/**
 * The confirmation of a deletion: the member's password again. A wrong one is a 400 on Password and
 * changes nothing. (The route's rate limit bounds guessing.)
 */
export async function confirmPassword(db: Executor, memberId: number, password: string): Promise<void> {
  const [m] = await db
    .select({ hash: members.passwordHash, deletedAt: members.deletedAt })
    .from(members)
    .where(eq(members.id, memberId));
  const ok = await verifyPassword(password, m?.hash ?? DUMMY_HASH);
  if (!m || m.deletedAt) throw notFound();
  if (!ok) throw badRequest('Password', LEAVING_MESSAGES.passwordWrong);
}

/** What the caller does after COMMIT: forget the member's cards at the provider and their files. */
export interface Closed {
  result: IdempotentResult<DeleteAccountResponse>;
  cardRefs: { provider: string; providerRef: string }[];
  attachmentIds: string[];
}

/**
 * Deletes the account, in the Idempotency-Key's transaction (which holds the member's wallet lock):
 * - it waits, with a 409 saying why, while a parking session runs (it may still be extended,
 *   refunded or charged) or a card charge to the wallet is still pending;
 * - the wallet is emptied back to the cards it came from (wallet/refunds.ts; the provider is
 *   called after COMMIT);
 * - what is the member's alone is deleted: vehicles, cards, settings, quotes, the support chat and
 *   its files, call-backs, codes, their resend waits and texts sent to the phone, refresh tokens; a paid plan ends;
 * - what the operator must keep stays under the member id, with no name, phone or e-mail: the
 *   ledger, the parking sessions (receipts: zone, plate, times, money) and the card charges;
 * - the row is anonymised and the session version raised (members/anonymise), so every access
 *   token ends at once, in every process.
 */
export async function closeAccount(tx: Tx, memberId: number, key: string): Promise<Closed> {
  const [m] = await tx
    .select({ phone: members.phone, deletedAt: members.deletedAt })
    .from(members)
    .where(eq(members.id, memberId))
    .for('no key update');
  if (!m || m.deletedAt) throw notFound();
  const [running] = await tx
    .select({ id: parkingSessions.id })
    .from(parkingSessions)
    .where(and(eq(parkingSessions.memberId, memberId), eq(parkingSessions.status, 'active')))
    .limit(1);
  if (running) throw new HttpError(409, LEAVING_MESSAGES.sessionRunning);
  const [charging] = await tx
    .select({ id: walletCharges.id })
    .from(walletCharges)
    .where(and(eq(walletCharges.memberId, memberId), eq(walletCharges.status, 'pending')))
    .limit(1);
  if (charging) throw new HttpError(409, LEAVING_MESSAGES.chargePending);
  // An operator's staff leaves through its owners (who keep at least one owner), not by deletion.
  const [staff] = await tx
    .select({ id: operatorStaff.operatorId })
    .from(operatorStaff)
    .where(eq(operatorStaff.memberId, memberId))
    .limit(1);
  if (staff) throw new HttpError(409, LEAVING_MESSAGES.staff);

  const emptied = await emptyWalletToCards(tx, memberId, key);

  await tx
    .update(subscriptions)
    .set({ status: 'ended', cancelAtPeriodEnd: true, endedAt: new Date() })
    .where(and(eq(subscriptions.memberId, memberId), eq(subscriptions.status, 'active')));
  const cardRefs = await tx
    .delete(paymentMethods)
    .where(eq(paymentMethods.memberId, memberId))
    .returning({ provider: paymentMethods.provider, providerRef: paymentMethods.providerRef });
  await tx.delete(parkingQuotes).where(eq(parkingQuotes.memberId, memberId));
  await tx.delete(vehicles).where(eq(vehicles.memberId, memberId));
  await tx.delete(walletSettings).where(eq(walletSettings.memberId, memberId));
  await tx.delete(parkingOptions).where(eq(parkingOptions.memberId, memberId));
  // Its browsers' push subscriptions (and their queued messages, by cascade) and reminder choices.
  await tx.delete(pushSubscriptions).where(eq(pushSubscriptions.memberId, memberId));
  await tx.delete(reminderSettings).where(eq(reminderSettings.memberId, memberId));
  await tx.delete(supportCallBacks).where(eq(supportCallBacks.memberId, memberId));
  await tx.delete(supportConversations).where(eq(supportConversations.memberId, memberId));
  const files = await tx
    .delete(supportAttachments)
    .where(eq(supportAttachments.memberId, memberId))
    .returning({ id: supportAttachments.id });
  await tx.delete(supportAgents).where(eq(supportAgents.memberId, memberId));
  await tx.delete(refreshTokens).where(eq(refreshTokens.memberId, memberId));
  await tx.delete(otpCodes).where(eq(otpCodes.phone, m.phone));
  await tx.delete(otpSends).where(eq(otpSends.phone, m.phone));
  await tx.delete(outbox).where(eq(outbox.recipient, m.phone));
  // A Quick Park session the phone paid before it registered keeps no phone once it is the member's.
  await tx.update(parkingSessions).set({ guestPhone: null }).where(eq(parkingSessions.memberId, memberId));
  await anonymise(tx, memberId);

  return {
    result: {
      statusCode: 200,
      body: {
        message: LEAVING_MESSAGES.deleted,
        RefundedAmount: centsToAmount(emptied.refundedCents),
        ForfeitedCredit: centsToAmount(emptied.forfeitedCents),
      },
    },
    cardRefs,
    attachmentIds: files.map((f) => f.id),
  };
}
