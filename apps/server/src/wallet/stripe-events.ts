import { and, eq } from 'drizzle-orm';
import type Stripe from 'stripe';
import type { Db, Executor } from '../db/client.ts';
import { members, paymentMethods, providerEvents, walletSettings } from '../db/schema/index.ts';
import { notFound } from '../lib/http-error.ts';
import { deleteCard, insertCard } from './cards.ts';
import type { PaymentProvider } from './providers/types.ts';

/**
 * Stripe's side of the wallet in the database: the webhook's events, each handled once
 * (provider_events), and the member's Stripe customer. The route (routes/public/Stripe) only checks
 * the signature; what an event changes is here (docs/data-access.md: no SQL in route files).
 */

/** Locks the member's row, as every change of a member's cards does; false when the member is gone. */
async function lockMember(tx: Executor, memberId: number): Promise<boolean> {
  const rows = await tx.select({ id: members.id }).from(members).where(eq(members.id, memberId)).for('update');
  return rows.length > 0;
}

/**
 * Handles a verified Stripe event once per event id: setup_intent.succeeded saves the card if the
 * browser never came back; payment_method.detached forgets it. `duplicate` when the id was seen.
 */
export async function handleStripeEvent(
  db: Db,
  provider: Pick<PaymentProvider, 'attach'>,
  event: Stripe.Event,
): Promise<{ duplicate: boolean }> {
  const fresh = await db
    .insert(providerEvents)
    .values({ id: event.id, type: event.type })
    .onConflictDoNothing()
    .returning({ id: providerEvents.id });
  if (fresh.length === 0) return { duplicate: true };
  if (event.type === 'setup_intent.succeeded') {
    const si = event.data.object;
    const customer = typeof si.customer === 'string' ? si.customer : (si.customer?.id ?? null);
    const pm = typeof si.payment_method === 'string' ? si.payment_method : (si.payment_method?.id ?? null);
    if (customer && pm) {
      const [owner] = await db
        .select({ memberId: walletSettings.memberId })
        .from(walletSettings)
        .where(eq(walletSettings.providerCustomerId, customer));
      if (owner) {
        const card = await provider.attach(pm, customer);
        await db.transaction(async (tx) => {
          if (!(await lockMember(tx, owner.memberId))) throw notFound();
          const [exists] = await tx
            .select({ id: paymentMethods.id })
            .from(paymentMethods)
            .where(and(eq(paymentMethods.memberId, owner.memberId), eq(paymentMethods.providerRef, pm)));
          if (!exists) await insertCard(tx, owner.memberId, 'stripe', card, false);
        });
      }
    }
  } else if (event.type === 'payment_method.detached') {
    const pm = event.data.object;
    const [row] = await db.select().from(paymentMethods).where(eq(paymentMethods.providerRef, pm.id));
    if (row) {
      await db.transaction(async (tx) => {
        if (!(await lockMember(tx, row.memberId))) throw notFound();
        await deleteCard(tx, row.memberId, row.id).catch(() => undefined);
      });
    }
  }
  return { duplicate: false };
}

/** Keeps the member's Stripe customer id (made by the provider on the first SetupIntent). */
export async function saveProviderCustomer(db: Executor, memberId: number, customer: string): Promise<void> {
  await db.update(walletSettings).set({ providerCustomerId: customer }).where(eq(walletSettings.memberId, memberId));
}
